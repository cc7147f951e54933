import { describe, expect, test } from "vitest";
import type { SqlValue } from "../../types/sql-value.ts";
import { bindError, evaluate, typeOfExpr } from "../expr-test-util.ts";

describe("string functions (Flink's documented examples)", () => {
  test.each([
    ["CHAR_LENGTH('Hello')", 5],
    ["CHARACTER_LENGTH('')", 0],
    ["UPPER('hello')", "HELLO"],
    ["LOWER('HeLLo')", "hello"],
    ["INITCAP('hello WORLD, it''s 2pm')", "Hello World, It'S 2pm"],
    ["TRIM(' This is a test String. ')", "This is a test String."],
    ["LTRIM(' This is a test String.')", "This is a test String."],
    ["RTRIM('This is a test String. ')", "This is a test String."],
    ["BTRIM('xxaxx', 'x')", "a"],
    ["LPAD('hi', 4, '??')", "??hi"],
    ["LPAD('hi', 1, '??')", "h"],
    ["LPAD('hi', 7, 'ab')", "ababahi"],
    ["RPAD('hi', 4, '??')", "hi??"],
    ["RPAD('hi', 1, '??')", "h"],
    ["LPAD('hi', -1, '?')", null],
    ["LPAD('hi', 4, '')", null],
    ["REPEAT('This is a test String.', 2)", "This is a test String.This is a test String."],
    ["REPEAT('x', 0)", ""],
    ["REVERSE('abc')", "cba"],
    ["REPLACE('hello world', 'world', 'flink')", "hello flink"],
    ["REPLACE('ababab', 'abab', 'z')", "zab"],
    ["SUBSTRING('Hello World' FROM 2 FOR 3)", "ell"],
    ["SUBSTR('Hello World', 7)", "World"],
    ["LEFT('Hello', 2)", "He"],
    ["LEFT('Hello', -1)", ""],
    ["RIGHT('Hello', 3)", "llo"],
    ["RIGHT('Hello', 9)", "Hello"],
    ["POSITION('lo' IN 'Hello')", 4],
    ["LOCATE('l', 'Hello')", 3],
    ["LOCATE('l', 'Hello', 4)", 4],
    ["LOCATE('z', 'Hello')", 0],
    ["INSTR('Hello', 'll')", 3],
    ["CONCAT('AA', 'BB', 'CC')", "AABBCC"],
    ["CONCAT_WS('~', 'AA', NULL, 'BB', '', 'CC')", "AA~BB~~CC"],
    ["SPLIT_INDEX('Jack,John,Mary', ',', 2)", "Mary"],
    ["SPLIT_INDEX('Jack,John,Mary', ',', 3)", null],
    ["SPLIT_INDEX('Jack,John,Mary', ',', -1)", null],
    ["SPLIT_INDEX('a::b', '::', 1)", "b"],
    ["SPLIT_INDEX('', ',', 0)", null],
    ["SPLIT_INDEX('a b', '', 1)", "b"],
    ["SUBSTRING('hello', 2, -1)", null],
    ["ASCII('abc')", 97],
    ["ASCII('')", 0],
    ["CHR(97)", "a"],
    ["CHR(353)", "a"],
    ["MD5('')", "d41d8cd98f00b204e9800998ecf8427e"],
    ["SHA1('abc')", "a9993e364706816aba3e25717850c26c9cd0d89d"],
    ["SHA256('abc')", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    ["TO_BASE64('hello world')", "aGVsbG8gd29ybGQ="],
    ["FROM_BASE64('aGVsbG8gd29ybGQ=')", "hello world"],
    ["HEX(100)", "64"],
    ["HEX(-1)", "FFFFFFFFFFFFFFFF"],
    ["HEX('hello world')", "68656C6C6F20776F726C64"],
    ["BIN(12)", "1100"],
  ] as [string, SqlValue][])("%s = %o", (e, want) => {
    expect(evaluate(e)).toEqual(want);
  });

  test("NULL in, NULL out; CONCAT_WS skips NULL strings but not a NULL separator", () => {
    const cols = "s STRING, n INT";
    for (const e of ["UPPER(s)", "LPAD(s, 3, 'x')", "LPAD('a', n, 'x')", "REPEAT(s, 2)", "SPLIT_INDEX(s, ',', 0)", "MD5(s)", "CHR(n)", "LOCATE('a', s)", "CONCAT('a', s)", "HEX(n)", "INITCAP(s)"]) {
      expect(evaluate(e, cols, [null, null]), e).toBe(null);
    }
    expect(evaluate("CONCAT_WS(s, 'a', 'b')", cols, [null, null])).toBe(null);
    expect(evaluate("CONCAT_WS('-', s, 'b')", cols, [null, null])).toBe("b");
  });

  test("result types", () => {
    expect(typeOfExpr("UPPER(s)", "s STRING NOT NULL")).toBe("VARCHAR(2147483647) NOT NULL");
    expect(typeOfExpr("CHAR_LENGTH(s)", "s STRING")).toBe("INT");
    expect(typeOfExpr("LPAD(s, 2, 'x')", "s STRING NOT NULL")).toBe("VARCHAR(2147483647)");
    expect(typeOfExpr("SPLIT_INDEX(s, ',', 1)", "s STRING NOT NULL")).toBe("VARCHAR(2147483647)");
    expect(typeOfExpr("CONCAT_WS('-', s)", "s STRING")).toBe("VARCHAR(2147483647) NOT NULL");
    expect(typeOfExpr("SUBSTRING(s, 2, 3)", "s STRING NOT NULL")).toBe("VARCHAR(2147483647) NOT NULL");
    expect(typeOfExpr("SUBSTRING(s, 2, n)", "s STRING NOT NULL, n INT NOT NULL")).toBe("VARCHAR(2147483647)");
  });

  test("type errors name the argument types; unknown functions suggest the nearest name", () => {
    expect(bindError("UPPER(1)")).toBe("line 1, column 8: Cannot apply 'UPPER' to arguments of type <INT>");
    expect(bindError("LPAD('a', 'b', 'c')")).toBe("line 1, column 8: Cannot apply 'LPAD' to arguments of type <CHAR(1)>, <CHAR(1)>, <CHAR(1)>");
    expect(bindError("REPEAT(TRUE, 1)")).toBe("line 1, column 8: Cannot apply 'REPEAT' to arguments of type <BOOLEAN>, <INT>");
    expect(bindError("SPLIT_INDX('a', ',', 1)")).toBe("line 1, column 8: No match found for function 'SPLIT_INDX'; did you mean 'SPLIT_INDEX'?");
    expect(bindError("INITCAPS('a')")).toBe("line 1, column 8: No match found for function 'INITCAPS'; did you mean 'INITCAP'?");
    expect(bindError("LPAD('a', 1)")).toBe("line 1, column 8: Invalid number of arguments to function 'LPAD'. Was expecting 3 arguments");
  });
});
