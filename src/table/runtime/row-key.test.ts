import { describe, expect, it } from "vitest";
import { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";
import { rowKeySelector } from "./row-key.ts";

describe("rowKeySelector", () => {
  it("gives each row the key of its fields, row after row (a remembered key is never stale)", () => {
    const one = rowKeySelector([0]);
    const two = rowKeySelector([1, 0]);
    const array: SqlValue[] = [1, 2];
    const decimal = { unscaled: 150n, scale: 2 };
    const values: SqlValue[] = [1_700_000_000_000, 1_700_000_000_000, -0, 0, 0n, 1.5, "a", "a", null, null, true, array, array, decimal, decimal, 3, 1.5, 3, 1.5, 4, 5, 6, 7, 3, NaN, NaN];
    for (let i = 0; i < values.length; i++) {
      if (i === 12) array.push(3); // the same array, changed: its key changes with it
      if (i === 14) decimal.unscaled = 250n;
      const v = values[i]!;
      const w = values[(i + 1) % values.length]!;
      expect(one(Row.of(v))).toBe(sqlValueKey(v));
      expect(two(Row.of(v, w))).toBe(sqlValueKey(w) + "\u0001" + sqlValueKey(v) + "\u0001");
    }
    expect(rowKeySelector([])(Row.of(1))).toBe("");
  });
});
