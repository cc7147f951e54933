import { describe, expect, test } from "vitest";
import type { SqlValue } from "../../types/sql-value.ts";
import { bindError, evaluate, typeOfExpr } from "../expr-test-util.ts";
import { parseJsonPath, evaluateJsonPath } from "./json-path.ts";

describe("regular expression functions", () => {
  test.each([
    ["REGEXP('foothebar', 'the')", true],
    ["REGEXP('foobar', '^bar')", false],
    ["REGEXP('FOO', '(?i)foo')", true],
    ["REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 2)", "bar"],
    ["REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 1)", "the"],
    ["REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)')", "foothebar"],
    ["REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 3)", null],
    ["REGEXP_EXTRACT('foothebar', 'x(y)', 1)", null],
    ["REGEXP_EXTRACT('100-200', '(\\d+)-(\\d+)', 1)", "100"],
    ["REGEXP_REPLACE('foobar', 'oo|ar', '')", "fb"],
    ["REGEXP_REPLACE('2020-04-15', '(\\d+)-', '$1/')", "$1/$1/15"],
    ["REGEXP_REPLACE('a.b', '\\.', '\\')", "a\\b"],
    ["REGEXP('abc', '')", false],
  ] as [string, SqlValue][])("%s = %o", (e, want) => {
    expect(evaluate(e)).toEqual(want);
  });

  test("NULL in, NULL out; a bad pattern from a column gives NULL, a constant one is a planning error", () => {
    const cols = "s STRING, p STRING";
    expect(evaluate("REGEXP(s, 'a')", cols, [null, null])).toBe(null);
    expect(evaluate("REGEXP_EXTRACT(s, p)", cols, ["a", null])).toBe(null);
    expect(evaluate("REGEXP_REPLACE(s, p, 'x')", cols, ["a(", "("])).toBe(null);
    expect(evaluate("REGEXP(s, p)", cols, ["a(", "("])).toBe(false);
    expect(evaluate("REGEXP_EXTRACT(s, p, 1)", cols, ["k=v", "(\\w)=(\\w)"])).toBe("k");
    expect(bindError("REGEXP_EXTRACT('a', '(')")).toMatch(/^line 1, column 8: Invalid regular expression '\('/);
    expect(bindError("REGEXP(1, 'a')")).toBe("line 1, column 8: Cannot apply 'REGEXP' to arguments of type <INT>, <CHAR(1)>");
    expect(typeOfExpr("REGEXP(s, 'a')", "s STRING NOT NULL")).toBe("BOOLEAN NOT NULL");
  });
});

describe("JSON functions", () => {
  test.each([
    [`JSON_VALUE('{"a": true}', '$.a')`, "true"],
    [`JSON_VALUE('{"a": {"b": [1, "x", 2.5]}}', '$.a.b[1]')`, "x"],
    [`JSON_VALUE('{"a": {"b": [1, "x", 2.5]}}', '$.a.b[2]')`, "2.5"],
    [`JSON_VALUE('{"a b": 1}', '$["a b"]')`, "1"],
    [`JSON_VALUE('{"a": {"b": 1}}', '$.a')`, null],
    [`JSON_VALUE('{"a": null}', '$.a')`, null],
    [`JSON_VALUE('{"a": 1}', '$.b')`, null],
    [`JSON_VALUE('not json', '$.a')`, null],
    [`JSON_VALUE('[{"a": 1}]', 'lax $.a')`, "1"],
    [`JSON_VALUE('[{"a": 1}]', 'strict $.a')`, null],
    [`JSON_VALUE('{"a.b": [0.998,0.996]}', '$.["a.b"][0]')`, "0.998"],
    [`JSON_VALUE('{"contains blank": "right"}', 'strict $.[''contains blank'']')`, "right"],
    [`JSON_EXISTS('{"a": true}', '$.a')`, true],
    [`JSON_EXISTS('{"a": true}', '$.b')`, false],
    [`JSON_EXISTS('{"a": [{ "b": 1 }]}', '$.a[0].b')`, true],
    [`JSON_EXISTS('{"a": null}', '$.a')`, true],
    [`JSON_EXISTS('{"a": [1]}', 'strict $.a[3]')`, false],
    [`JSON_EXISTS('{oops', '$.a')`, false],
  ] as [string, SqlValue][])("%s = %o", (e, want) => {
    expect(evaluate(e)).toEqual(want);
  });

  test("paths", () => {
    expect(parseJsonPath("$.a.b[0]").steps).toEqual([{ kind: "member", name: "a" }, { kind: "member", name: "b" }, { kind: "index", index: 0 }]);
    expect(evaluateJsonPath(parseJsonPath("$.a[*].b"), { a: [{ b: 1 }, { b: 2 }, {}] })).toEqual([1, 2]);
    expect(evaluateJsonPath(parseJsonPath("$.*"), { a: 1, b: 2 })).toEqual([1, 2]);
    expect(() => parseJsonPath("a.b")).toThrow("must start with '$'");
    expect(bindError("JSON_VALUE('{}', 'a.b')")).toBe("line 1, column 8: Illegal JSON path 'a.b': it must start with '$'");
    expect(evaluate("JSON_VALUE(s, '$.a')", "s STRING", [null])).toBe(null);
    expect(evaluate("JSON_VALUE(s, p)", "s STRING, p STRING", ['{"a": 1}', "$..a"])).toBe(null);
  });
});
