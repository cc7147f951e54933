import { describe, expect, it } from "vitest";
import { parseDecimal } from "./decimal.ts";
import { compareForSort, compareStrings, IncomparableValuesError, mapGet, sqlCompare, sqlEquals, sqlNotDistinct } from "./sql-compare.ts";
import type { SqlValue } from "./sql-value.ts";
import { sqlValueKey } from "./sql-value-key.ts";

const dec = (text: string) => parseDecimal(text)!;

describe("SQL comparison", () => {
  it("any comparison with NULL is UNKNOWN", () => {
    expect(sqlCompare(null, 1)).toBeNull();
    expect(sqlCompare(1, null)).toBeNull();
    expect(sqlEquals(null, null)).toBeNull();
    expect(sqlEquals("a", null)).toBeNull();
  });

  it("numbers compare by value across number, bigint and DECIMAL", () => {
    expect(sqlEquals(1, 1n)).toBe(true);
    expect(sqlEquals(dec("1.50"), 1.5)).toBe(true);
    expect(sqlEquals(dec("2.00"), 2n)).toBe(true);
    expect(sqlCompare(2n ** 53n + 1n, 2 ** 53)).toBe(1); // exact beyond 2^53
    expect(sqlCompare(dec("0.1"), 0.1)).toBe(0); // a DOUBLE compares by its shortest decimal text
    expect(sqlCompare(dec("-3.25"), -3)).toBe(-1);
    expect(sqlCompare(Number.POSITIVE_INFINITY, 10n ** 30n)).toBe(1);
    expect(sqlCompare(dec("1e30"), Number.NEGATIVE_INFINITY)).toBe(1);
    expect(sqlCompare(Number.NaN, 1)).toBe(1);
    expect(sqlEquals(Number.NaN, Number.NaN)).toBe(true);
  });

  it("strings compare by code point (UTF-8 byte order), not UTF-16 unit", () => {
    expect(sqlCompare("a", "b")).toBeLessThan(0);
    expect(sqlCompare("ab", "a")).toBeGreaterThan(0);
    // U+FF5E (fullwidth tilde) < U+1F600 (emoji, a surrogate pair in UTF-16) by code point; "\uFF5E" > "\uD83D" by unit
    expect(compareStrings("\uFF5E", "\u{1F600}")).toBeLessThan(0);
    expect(compareStrings("\u{1F600}", "\uFF5E")).toBeGreaterThan(0);
    expect(compareStrings("\u{1F600}", "\u{1F601}")).toBeLessThan(0);
    expect(sqlEquals("é", "é")).toBe(true);
  });

  it("booleans, bytes, arrays and rows", () => {
    expect(sqlCompare(false, true)).toBe(-1);
    expect(sqlCompare(new Uint8Array([1, 255]), new Uint8Array([2]))).toBeLessThan(0);
    expect(sqlCompare([1, "b"], [1, "a"])).toBeGreaterThan(0);
    expect(sqlCompare([1, 2], [1, 2, 3])).toBeLessThan(0);
    expect(sqlEquals([1, null], [1, null])).toBeNull();
    expect(sqlEquals([1, null], [2, null])).toBe(false);
  });

  it("maps have equality (keys matched by value), not order", () => {
    const a = new Map<SqlValue, SqlValue>([["x", 1], ["y", 2]]);
    const b = new Map<SqlValue, SqlValue>([["y", 2], ["x", 1]]);
    expect(sqlEquals(a, b)).toBe(true);
    expect(sqlEquals(a, new Map<SqlValue, SqlValue>([["x", 1], ["y", 3]]))).toBe(false);
    expect(sqlEquals(a, new Map<SqlValue, SqlValue>([["x", 1], ["y", null]]))).toBeNull();
    expect(mapGet(new Map<SqlValue, SqlValue>([[[1, 2], "pair"]]), [1, 2])).toBe("pair");
    expect(mapGet(new Map<SqlValue, SqlValue>([[1n, "one"]]), 1)).toBe("one");
    expect(mapGet(a, "z")).toBeUndefined();
    expect(() => sqlCompare(a, b)).toThrow(IncomparableValuesError);
  });

  it("values of unrelated types are an error, not an answer", () => {
    expect(() => sqlCompare("1", 1)).toThrow(new IncomparableValuesError("1", 1));
    expect(() => sqlCompare("1", 1)).toThrow("cannot compare a string with a number");
  });

  it("IS NOT DISTINCT FROM: NULL equals NULL", () => {
    expect(sqlNotDistinct(null, null)).toBe(true);
    expect(sqlNotDistinct(null, 0)).toBe(false);
    expect(sqlNotDistinct([1, null], [1n, null])).toBe(true);
    expect(sqlNotDistinct("1", 1)).toBe(false);
  });

  it("sorts with NULLs first, inside rows too", () => {
    const values: SqlValue[] = [3, null, 1n, dec("2.5"), -1];
    expect(values.sort(compareForSort)).toEqual([null, -1, 1n, dec("2.5"), 3]);
    const rows: SqlValue[] = [[1, "b"], [1, null], [0, "z"]];
    expect(rows.sort(compareForSort)).toEqual([[0, "z"], [1, null], [1, "b"]]);
  });
});

describe("SQL value keys", () => {
  const same: [SqlValue, SqlValue][] = [
    [1, 1n],
    [-0, 0],
    [dec("1.50"), 1.5],
    [dec("2.0"), 2],
    [dec("-0.0000001"), -1e-7],
    [[1, "a", null], [1n, "a", null]],
    [new Map<SqlValue, SqlValue>([["a", 1], ["b", 2]]), new Map<SqlValue, SqlValue>([["b", 2], ["a", 1]])],
    [new Uint8Array([1, 2]), new Uint8Array([1, 2])],
  ];
  const different: [SqlValue, SqlValue][] = [
    [null, "null"],
    [1, "1"],
    [true, "T"],
    [1.5, 15],
    [dec("0.15"), dec("1.5")],
    [["a,b"], ["a", "b"]],
    [[[1], 2], [1, [2]]],
    [new Uint8Array([1]), [1]],
  ];

  it.each(same)("%o and %o share a key, and are not distinct", (a, b) => {
    expect(sqlValueKey(a)).toBe(sqlValueKey(b));
    expect(sqlNotDistinct(a, b)).toBe(true);
  });

  it.each(different)("%o and %o have different keys, and are distinct", (a, b) => {
    expect(sqlValueKey(a)).not.toBe(sqlValueKey(b));
    expect(sqlNotDistinct(a, b)).toBe(false);
  });
});
