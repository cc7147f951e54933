import { describe, expect, it } from "vitest";
import {
  isFalse,
  isNotFalse,
  isNotTrue,
  isTrue,
  isUnknown,
  sqlAnd,
  sqlAndAll,
  sqlNot,
  sqlOr,
  sqlOrAll,
  type SqlBoolean,
} from "./three-valued-logic.ts";

const T = true;
const F = false;
const U = null;
const values: SqlBoolean[] = [T, F, U];

describe("three-valued logic truth tables", () => {
  // rows: a = TRUE, FALSE, UNKNOWN; columns: b = TRUE, FALSE, UNKNOWN
  const and: SqlBoolean[][] = [
    [T, F, U],
    [F, F, F],
    [U, F, U],
  ];
  const or: SqlBoolean[][] = [
    [T, T, T],
    [T, F, U],
    [T, U, U],
  ];

  it.each(values.flatMap((a, i) => values.map((b, j) => [a, b, and[i]![j]!, or[i]![j]!] as const)))(
    "%s AND/OR %s",
    (a, b, expectedAnd, expectedOr) => {
      expect(sqlAnd(a, b)).toBe(expectedAnd);
      expect(sqlOr(a, b)).toBe(expectedOr);
      expect(sqlAndAll([a, b])).toBe(expectedAnd);
      expect(sqlOrAll([a, b])).toBe(expectedOr);
      // De Morgan holds in three-valued logic
      expect(sqlNot(sqlAnd(a, b))).toBe(sqlOr(sqlNot(a), sqlNot(b)));
    },
  );

  it("NOT", () => {
    expect(values.map(sqlNot)).toEqual([F, T, U]);
  });

  it("IS [NOT] TRUE / FALSE / UNKNOWN never return UNKNOWN", () => {
    expect(values.map(isTrue)).toEqual([true, false, false]);
    expect(values.map(isFalse)).toEqual([false, true, false]);
    expect(values.map(isNotTrue)).toEqual([false, true, true]);
    expect(values.map(isNotFalse)).toEqual([true, false, true]);
    expect(values.map(isUnknown)).toEqual([false, false, true]);
  });

  it("AND/OR over many operands: a false (true) decides whatever the UNKNOWNs", () => {
    expect(sqlAndAll([])).toBe(true);
    expect(sqlOrAll([])).toBe(false);
    expect(sqlAndAll([U, U, F])).toBe(false);
    expect(sqlAndAll([T, U, T])).toBe(null);
    expect(sqlOrAll([U, F, T])).toBe(true);
    expect(sqlOrAll([F, U, F])).toBe(null);
  });
});
