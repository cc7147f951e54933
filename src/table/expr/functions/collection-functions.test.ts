import { describe, expect, test } from "vitest";
import { decimal } from "../../types/decimal.ts";
import { bindError, evaluate, typeOfExpr } from "../expr-test-util.ts";

describe("collections", () => {
  test("constructors and their types", () => {
    expect(evaluate("ARRAY[1, 2, 3]")).toEqual([1, 2, 3]);
    expect(evaluate("ARRAY[1, 2.5]")).toEqual([decimal(10n, 1), decimal(25n, 1)]);
    expect(typeOfExpr("ARRAY[1, NULL]")).toBe("ARRAY<INT> NOT NULL");
    expect(evaluate("MAP['a', 1, 'b', 2]")).toEqual(new Map([["a", 1], ["b", 2]]));
    expect(evaluate("MAP['a', 1, 'a', 2]")).toEqual(new Map([["a", 2]]));
    expect(typeOfExpr("MAP['a', 1, 'bc', 2]")).toBe("MAP<VARCHAR(2) NOT NULL, INT NOT NULL> NOT NULL");
    expect(evaluate("ROW(1, 'a')")).toEqual([1, "a"]);
    expect(typeOfExpr("ROW(1, 'a')")).toBe("ROW<`EXPR$0` INT NOT NULL, `EXPR$1` CHAR(1) NOT NULL> NOT NULL");
    expect(evaluate("(1, 'a')")).toEqual([1, "a"]);
  });

  test("element access: 1-based arrays, map keys; NULL when absent", () => {
    expect(evaluate("ARRAY['a', 'b'][2]")).toBe("b");
    expect(evaluate("ARRAY['a', 'b'][3]")).toBe(null);
    expect(evaluate("ARRAY['a', 'b'][0]")).toBe(null);
    expect(evaluate("MAP['a', 1]['a']")).toBe(1);
    expect(evaluate("MAP['a', 1]['z']")).toBe(null);
    expect(evaluate("m['k']", "m MAP<STRING, BIGINT>", [new Map([["k", 5n]])])).toBe(5n);
    expect(evaluate("m[2]", "m MAP<BIGINT, STRING>", [new Map([[2n, "two"]])])).toBe("two");
    expect(evaluate("arr[i]", "arr ARRAY<INT>, i INT", [[7, 8], null])).toBe(null);
    expect(evaluate("arr[1]", "arr ARRAY<INT>", [null])).toBe(null);
    expect(typeOfExpr("arr[1]", "arr ARRAY<INT NOT NULL> NOT NULL")).toBe("INT");
    expect(bindError("ARRAY[1]['a']")).toBe("line 1, column 8: Cannot apply 'ITEM' to arguments of type <ARRAY<INT NOT NULL>> and <CHAR(1)>");
    expect(bindError("ARRAY[1, 'a']")).toBe("line 1, column 8: Parameters of ARRAY[…] must have a common type: <INT> and <CHAR(1)>");
    expect(bindError("MAP['a']")).toBe("line 1, column 8: MAP[…] needs an even, non-zero number of arguments: key, value, …");
  });

  test("CARDINALITY and ELEMENT", () => {
    expect(evaluate("CARDINALITY(ARRAY[1, 2, 3])")).toBe(3);
    expect(evaluate("CARDINALITY(MAP['a', 1])")).toBe(1);
    expect(evaluate("CARDINALITY(arr)", "arr ARRAY<INT>", [null])).toBe(null);
    expect(evaluate("ELEMENT(ARRAY[5])")).toBe(5);
    expect(evaluate("ELEMENT(arr)", "arr ARRAY<INT>", [[]])).toBe(null);
    expect(() => evaluate("ELEMENT(ARRAY[1, 2])")).toThrow("ELEMENT: the array has more than one element");
    expect(bindError("CARDINALITY('abc')")).toBe("line 1, column 8: Cannot apply 'CARDINALITY' to arguments of type <CHAR(3)>");
  });
});

describe("nested collections", () => {
  test("arrays of arrays and maps of rows take a common type when the element types are equal", () => {
    expect(evaluate("ARRAY[ARRAY[1, 2], ARRAY[3]][1][2]")).toBe(2);
    expect(evaluate("CARDINALITY(MAP['a', ROW(1, 'x'), 'b', ROW(2, 'y')])")).toBe(2);
    expect(evaluate("COALESCE(a, ARRAY[0])", "a ARRAY<INT NOT NULL>", [null])).toEqual([0]);
    expect(bindError("ARRAY[ARRAY[1], ARRAY['a']]")).toBe("line 1, column 8: Parameters of ARRAY[…] must have a common type: <ARRAY<INT NOT NULL>> and <ARRAY<VARCHAR(1) NOT NULL>>");
  });
});

describe("array and map functions", () => {
  test.each([
    ["ARRAY_CONTAINS(ARRAY[1, 2, 3], 2)", true],
    ["ARRAY_CONTAINS(ARRAY[1, NULL], NULL)", true],
    ["ARRAY_CONTAINS(ARRAY[1, 2], 5)", false],
    ["ARRAY_POSITION(ARRAY[5, 6, 5], 5)", 1],
    ["ARRAY_POSITION(ARRAY[5, 6], 7)", 0],
    ["ARRAY_POSITION(ARRAY[5, 6], NULL)", null],
    ["ARRAY_REMOVE(ARRAY[1, 2, 1, NULL], 1)", [2, null]],
    ["ARRAY_REVERSE(ARRAY[1, 2, 3])", [3, 2, 1]],
    ["ARRAY_DISTINCT(ARRAY[1, 2, 1, NULL, NULL])", [1, 2, null]],
    ["MAP_KEYS(MAP['a', 1, 'b', 2])", ["a", "b"]],
    ["MAP_VALUES(MAP['a', 1, 'b', 2])", [1, 2]],
  ] as [string, unknown][])("%s = %o", (e, want) => {
    expect(evaluate(e)).toEqual(want);
  });

  test("NULL arrays give NULL; the needle takes the element type", () => {
    expect(evaluate("ARRAY_CONTAINS(a, 1)", "a ARRAY<INT>", [null])).toBe(null);
    expect(evaluate("ARRAY_CONTAINS(a, 1)", "a ARRAY<BIGINT>", [[1n, 2n]])).toBe(true);
    expect(evaluate("ARRAY_DISTINCT(a)", "a ARRAY<INT>", [null])).toBe(null);
    expect(typeOfExpr("ARRAY_CONTAINS(a, 1)", "a ARRAY<INT> NOT NULL")).toBe("BOOLEAN NOT NULL");
    expect(bindError("ARRAY_CONTAINS(ARRAY[1], 'a')")).toBe("line 1, column 8: Cannot apply 'ARRAY_CONTAINS' to arguments of type <ARRAY<INT NOT NULL>>, <CHAR(1)>");
    expect(bindError("MAP_KEYS(ARRAY[1])")).toBe("line 1, column 8: Cannot apply 'MAP_KEYS' to arguments of type <ARRAY<INT NOT NULL>>");
  });
});
