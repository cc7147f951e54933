import { describe, expect, it } from "vitest";
import { Row } from "../table/data/row.ts";
import { MaterializedResult } from "./materialized-result.ts";

describe("MaterializedResult", () => {
  it("applies a changelog: updates and deletes remove an equal row, inserts add one", () => {
    const t = new MaterializedResult(100);
    for (const r of [Row.ofKind("+I", "Mary", 1n), Row.ofKind("+I", "Bob", 1n), Row.ofKind("-U", "Mary", 1n), Row.ofKind("+U", "Mary", 2n), Row.ofKind("-D", "Bob", 1n)]) t.apply(r);
    expect(t.rows.map((r) => r.fields)).toEqual([["Mary", 2n]]);
    expect(t.changes).toBe(5);
  });

  it("keeps at most maxRows rows, dropping the oldest and counting them", () => {
    const t = new MaterializedResult(2);
    for (const n of [1, 2, 3]) t.apply(Row.ofKind("+I", n));
    expect(t.rows.map((r) => r.fields[0])).toEqual([2, 3]);
    expect(t.dropped).toBe(1);
  });
});
