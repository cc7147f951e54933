import { describe, expect, test } from "vitest";
import type { SqlValue } from "../types/sql-value.ts";
import { decimal } from "../types/decimal.ts";
import { bindExpression, compile, inferType } from "./compile-expression.ts";
import { growsWithField } from "./arithmetic.ts";
import { parseExpr, rowTypeOf } from "./expr-test-util.ts";
import { foldConstant } from "./fold-constant.ts";
import { typeToString } from "./type-rules.ts";
import { SqlRuntimeError } from "./sql-runtime-error.ts";

const ROW = rowTypeOf("i INT, j INT, b BIGINT, d DECIMAL(10, 2), x DOUBLE, s STRING, p STRING, t BOOLEAN, u BOOLEAN, ts TIMESTAMP(3)");
const NAMES = ROW.names;

/** Evaluates `e` on a row given by name; absent fields are NULL. */
function run(e: string, row: Record<string, SqlValue> = {}): SqlValue {
  return compile(parseExpr(e), ROW)(NAMES.map((n) => (n in row ? row[n]! : null)));
}

const T = true, F = false, N = null;

describe("three-valued logic", () => {
  const cases: [SqlValue, SqlValue, SqlValue, SqlValue][] = [
    // t, u, t AND u, t OR u
    [T, T, T, T], [T, F, F, T], [T, N, N, T], [F, F, F, F], [F, N, F, N], [N, N, N, N], [N, T, N, T], [N, F, F, N],
  ];
  test.each(cases)("%s AND/OR %s", (t, u, and, or) => {
    expect(run("t AND u", { t, u })).toBe(and);
    expect(run("t OR u", { t, u })).toBe(or);
    expect(run("NOT (t AND u)", { t, u })).toBe(and === null ? null : !and);
  });
  test("IS predicates never return NULL", () => {
    expect(run("t IS NULL", { t: N })).toBe(true);
    expect(run("t IS UNKNOWN", { t: N })).toBe(true);
    expect(run("t IS NOT TRUE", { t: N })).toBe(true);
    expect(run("t IS FALSE", { t: N })).toBe(false);
    expect(run("t IS NOT FALSE", { t: T })).toBe(true);
    expect(run("i IS NOT NULL", { i: 0 })).toBe(true);
  });
  test("comparisons with NULL are UNKNOWN; IS DISTINCT FROM is not", () => {
    expect(run("i = j", { i: 1 })).toBe(null);
    expect(run("i <> j", { i: 1, j: 2 })).toBe(true);
    expect(run("i IS DISTINCT FROM j", { i: 1 })).toBe(true);
    expect(run("i IS NOT DISTINCT FROM j")).toBe(true);
    expect(run("i < b", { i: 1, b: 2 })).toBe(true);
    expect(run("d >= i", { d: decimal(150n, 2), i: 1 })).toBe(true);
  });
  test("CASE takes the first TRUE branch; UNKNOWN is not TRUE", () => {
    const e = "CASE WHEN t THEN 'a' WHEN u THEN 'b' ELSE 'c' END";
    expect(run(e, { t: N, u: T })).toBe("b");
    expect(run(e, { t: N, u: N })).toBe("c");
    expect(run("CASE WHEN t THEN 1 END", { t: F })).toBe(null);
    expect(run("CASE i WHEN 1 THEN 'one' WHEN 2 THEN 'two' END", { i: 2 })).toBe("two");
    expect(run("CASE i WHEN 1 THEN 'one' ELSE 'other' END", { i: N })).toBe("other");
    expect(run("CASE WHEN t THEN i ELSE d END", { t: T, i: 3 })).toEqual(decimal(300n, 2));
  });
  test("IN list: TRUE on a match, else UNKNOWN if the list holds NULL", () => {
    expect(run("i IN (1, 2, 3)", { i: 2 })).toBe(true);
    expect(run("i IN (1, 2, 3)", { i: 5 })).toBe(false);
    expect(run("i IN (1, NULL)", { i: 1 })).toBe(true);
    expect(run("i IN (1, NULL)", { i: 5 })).toBe(null);
    expect(run("i NOT IN (1, NULL)", { i: 5 })).toBe(null);
    expect(run("i NOT IN (1, 2)", { i: 5 })).toBe(true);
    expect(run("i IN (1, 2)")).toBe(null);
    expect(run("b IN (1, 9007199254740993)", { b: 9007199254740993n })).toBe(true);
    expect(run("b IN (1, 9007199254740993)", { b: 9007199254740992n })).toBe(false);
    expect(run("i IN (j, 2)", { i: 7, j: 7 })).toBe(true);
    expect(run("i IN (j, 2)", { i: 7 })).toBe(null);
    expect(run("d IN (1.5, 2)", { d: decimal(150n, 2) })).toBe(true);
    expect(run("s IN ('a', 'b')", { s: "b" })).toBe(true);
  });
  test("BETWEEN", () => {
    expect(run("i BETWEEN 1 AND 3", { i: 3 })).toBe(true);
    expect(run("i BETWEEN 3 AND 1", { i: 2 })).toBe(false);
    expect(run("i BETWEEN SYMMETRIC 3 AND 1", { i: 2 })).toBe(true);
    expect(run("i NOT BETWEEN 1 AND 3", { i: 4 })).toBe(true);
    expect(run("i BETWEEN 1 AND j", { i: 2 })).toBe(null);
    expect(run("i BETWEEN 1 AND j", { i: 0 })).toBe(false);
    expect(run("i BETWEEN 1 AND 3")).toBe(null);
  });
});

describe("arithmetic", () => {
  test("BIGINT is exact beyond 2^53 and wraps at 64 bits", () => {
    expect(run("b + 1", { b: 9007199254740992n })).toBe(9007199254740993n);
    expect(run("b * 3", { b: 3000000000000000001n })).toBe(BigInt.asIntN(64, 9000000000000000003n));
    expect(run("b + 1", { b: 9223372036854775807n })).toBe(-9223372036854775808n);
    expect(run("b / 2", { b: -7 })).toBe(-3);
    expect(run("b % 3", { b: -7 })).toBe(-1);
    expect(run("9223372036854775807 - b", { b: 1 })).toBe(9223372036854775806n);
  });
  test("INT wraps like Java's int", () => {
    expect(run("i + 1", { i: 2147483647 })).toBe(-2147483648);
    expect(run("i * j", { i: 65536, j: 65536 })).toBe(0);
    expect(run("i / j", { i: -2147483648, j: -1 })).toBe(-2147483648);
    expect(run("-i", { i: -2147483648 })).toBe(-2147483648);
    expect(run("i / j", { i: 7, j: 2 })).toBe(3);
    expect(run("i / j", { i: -7, j: 2 })).toBe(-3);
    expect(run("i % j", { i: -7, j: 2 })).toBe(-1);
    expect(run("i + b", { i: 1, b: 2 })).toBe(3);
  });
  test("NULL propagates", () => {
    expect(run("i + j", { i: 1 })).toBe(null);
    expect(run("d * 2")).toBe(null);
    expect(run("-b")).toBe(null);
  });
  test("division by zero is an error for exact types, IEEE for DOUBLE", () => {
    expect(() => run("i / j", { i: 1, j: 0 })).toThrow(SqlRuntimeError);
    expect(() => run("b % 0", { b: 1 })).toThrow("Division by zero");
    expect(() => run("d / 0", { d: decimal(100n, 2) })).toThrow("Division by zero");
    expect(run("x / 0", { x: 1 })).toBe(Infinity);
  });
  test("DECIMAL arithmetic is exact, with Flink's result types", () => {
    const cases: [string, Record<string, SqlValue>, string, string][] = [
      ["d + 0.1", { d: decimal(20n, 2) }, "0.30", "DECIMAL(11, 2)"],
      ["d - i", { d: decimal(1005n, 2), i: 10 }, "0.05", "DECIMAL(13, 2)"],
      ["d * d", { d: decimal(-1234567891n, 2) }, "152415787748818.7881", "DECIMAL(21, 4)"],
      ["d / 3", { d: decimal(1000n, 2) }, "3.3333333333333", "DECIMAL(21, 13)"],
      ["d / 3", { d: decimal(2000n, 2) }, "6.6666666666667", "DECIMAL(21, 13)"],
      ["d % 3", { d: decimal(1050n, 2) }, "1.50", "DECIMAL(10, 2)"],
      ["b + 0.5", { b: 9007199254740993n }, "9007199254740993.5", "DECIMAL(21, 1)"],
      ["-d", { d: decimal(-5n, 2) }, "0.05", "DECIMAL(10, 2)"],
    ];
    for (const [e, row, value, type] of cases) {
      const v = run(e, row) as { unscaled: bigint; scale: number };
      const text = (v.unscaled < 0n ? "-" : "") + (() => { const a = (v.unscaled < 0n ? -v.unscaled : v.unscaled).toString().padStart(v.scale + 1, "0"); return v.scale === 0 ? a : a.slice(0, -v.scale) + "." + a.slice(-v.scale); })();
      expect([e, text, typeToString(inferType(parseExpr(e), ROW)).replace(/ NOT NULL$/, "")]).toEqual([e, value, type]);
    }
  });
  test("TIMESTAMP ± day-time INTERVAL (the watermark expression)", () => {
    expect(run("ts - INTERVAL '1' SECOND", { ts: 5000 })).toBe(4000);
    expect(run("ts + INTERVAL '0.25' SECOND", { ts: 5000 })).toBe(5250);
    expect(run("INTERVAL '2' DAY + ts", { ts: 0 })).toBe(172_800_000);
    expect(run("ts - INTERVAL '1' MINUTE")).toBe(null);
  });
  test("a rowtime ± a constant INTERVAL grows with the rowtime; other expressions are not known to", () => {
    const grows = (e: string) => growsWithField(bindExpression(parseExpr(e), ROW).eval, NAMES.indexOf("ts"));
    expect(["ts", "ts - INTERVAL '4' SECOND", "ts + INTERVAL '1' MINUTE", "INTERVAL '2' DAY + ts", "ts - INTERVAL '1' SECOND - INTERVAL '1' SECOND"].map(grows)).toEqual([true, true, true, true, true]);
    expect(["CASE WHEN t THEN ts ELSE ts - INTERVAL '1' DAY END", "i + 1", "i"].map(grows)).toEqual([false, false, false]);
  });
  test("DOUBLE mixes with DECIMAL as DOUBLE", () => {
    expect(run("x + d", { x: 0.5, d: decimal(25n, 2) })).toBe(0.75);
  });
});

describe("CAST and TRY_CAST", () => {
  test.each([
    ["CAST('42' AS INT)", 42],
    ["CAST(' -7 ' AS BIGINT)", -7],
    ["CAST('9223372036854775807' AS BIGINT)", 9223372036854775807n],
    ["CAST('1.005' AS DECIMAL(5, 2))", decimal(101n, 2)],
    ["CAST('2.5' AS DOUBLE)", 2.5],
    ["CAST('true' AS BOOLEAN)", true],
    ["CAST('2024-02-29' AS DATE)", 19782],
    ["CAST('1970-01-01 00:00:01.5' AS TIMESTAMP(3))", 1500],
    ["CAST(TIMESTAMP '1970-01-02 00:00:00' AS DATE)", 1],
    ["CAST(DATE '1970-01-02' AS TIMESTAMP)", 86_400_000],
    ["CAST(3.7 AS INT)", 3],
    ["CAST(-3.7 AS INT)", -3],
    ["CAST(1e10 AS INT)", 2147483647],
    ["CAST(300 AS TINYINT)", 44],
    ["CAST(12.345 AS DECIMAL(4, 2))", decimal(1235n, 2)],
    ["CAST(123.4 AS DECIMAL(3, 1))", null],
    ["CAST(7 AS DECIMAL(3, 1))", decimal(70n, 1)],
    ["CAST(9007199254740993 AS DECIMAL(20, 0))", decimal(9007199254740993n, 0)],
    ["CAST(9007199254740993 AS STRING)", "9007199254740993"],
    ["CAST(1.50 AS STRING)", "1.50"],
    ["CAST(2.0E0 AS STRING)", "2.0"],
    ["CAST(TRUE AS STRING)", "TRUE"],
    ["CAST(TRUE AS INT)", 1],
    ["CAST(0 AS BOOLEAN)", false],
    ["CAST(DATE '2024-01-02' AS STRING)", "2024-01-02"],
    ["CAST(TIMESTAMP '2024-01-02 03:04:05.1' AS STRING)", "2024-01-02 03:04:05.1"],
    ["CAST('abcdef' AS VARCHAR(3))", "abc"],
    ["CAST('ab' AS CHAR(4))", "ab  "],
    ["CAST(NULL AS INT)", null],
    ["TRY_CAST('x' AS INT)", null],
    ["TRY_CAST('2147483648' AS INT)", null],
    ["TRY_CAST('12' AS INT)", 12],
    ["TRY_CAST('2024-02-30' AS DATE)", null],
    ["TRY_CAST('maybe' AS BOOLEAN)", null],
    ["TRY_CAST('1.5x' AS DECIMAL(5, 2))", null],
  ])("%s", (e, v) => {
    expect(run(e)).toEqual(v);
  });
  test("a failing CAST is an error naming the value and type", () => {
    expect(() => run("CAST(s AS INT)", { s: "x1" })).toThrow("Cannot cast 'x1' to INT");
    expect(() => run("CAST(s AS TIMESTAMP(3))", { s: "yesterday" })).toThrow("Cannot cast 'yesterday' to TIMESTAMP");
    expect(() => run("CAST(s AS DECIMAL(5, 2))", { s: "1..2" })).toThrow("Cannot cast '1..2' to DECIMAL(5, 2)");
  });
});

describe("LIKE", () => {
  test.each([
    ["abc", "a%", true], ["abc", "%c", true], ["abc", "a_c", true], ["abc", "a_", false], ["abc", "%", true],
    ["", "%", true], ["", "_", false], ["a.c", "a.c", true], ["abc", "a.c", false], ["a\nb", "a_b", true],
    ["100%", "100!%", true], ["1000", "100!%", false], ["a_b", "a!_b", true], ["axb", "a!_b", false], ["a!b", "a!!b", true],
    ["(x)", "(%)", true], ["A", "a", false], ["😀x", "_x", true],
  ])("'%s' LIKE '%s' ESCAPE '!' = %s", (s, p, want) => {
    expect(run("s LIKE p ESCAPE '!'", { s, p })).toBe(want);
    expect(run(`s NOT LIKE '${p}' ESCAPE '!'`, { s })).toBe(!want);
  });
  test("NULL operand or pattern is UNKNOWN; bad escapes fail", () => {
    expect(run("s LIKE 'a%'")).toBe(null);
    expect(run("s LIKE p", { s: "a" })).toBe(null);
    expect(() => run("s LIKE 'a!x' ESCAPE '!'", { s: "a" })).toThrow("Invalid escape sequence");
  });
});

describe("functions", () => {
  test.each([
    ["UPPER(s)", { s: "aBc" }, "ABC"],
    ["LOWER(s)", { s: "aBc" }, "abc"],
    ["CHAR_LENGTH(s)", { s: "hello" }, 5],
    ["SUBSTRING(s, 2)", { s: "hello" }, "ello"],
    ["SUBSTRING(s FROM 2 FOR 3)", { s: "hello" }, "ell"],
    ["SUBSTRING(s, -3, 2)", { s: "hello" }, "ll"],
    ["SUBSTRING(s, 0, 2)", { s: "hello" }, "he"],
    ["SUBSTRING(s, 9)", { s: "hello" }, ""],
    ["TRIM(s)", { s: "  a b  " }, "a b"],
    ["TRIM(LEADING 'x' FROM s)", { s: "xxaxx" }, "axx"],
    ["TRIM(TRAILING 'x' FROM s)", { s: "xxaxx" }, "xxa"],
    ["CONCAT(s, '-', p)", { s: "a", p: "b" }, "a-b"],
    ["CONCAT(s, p)", { s: "a" }, null],
    ["CONCAT_WS('-', s, p, 'c')", { s: "a" }, "a-c"],
    ["CONCAT_WS(p, s)", { s: "a" }, null],
    ["REPLACE(s, 'l', 'L')", { s: "hello" }, "heLLo"],
    ["POSITION('l' IN s)", { s: "hello" }, 3],
    ["POSITION('z' IN s)", { s: "hello" }, 0],
    ["s || p", { s: "a", p: "b" }, "ab"],
    ["s || p", { s: "a" }, null],
    ["ABS(i)", { i: -5 }, 5],
    ["ABS(b)", { b: -9007199254740993n }, 9007199254740993n],
    ["ABS(d)", { d: decimal(-150n, 2) }, decimal(150n, 2)],
    ["MOD(i, 3)", { i: 10 }, 1],
    ["MOD(b, 3)", { b: -10 }, -1],
    ["ROUND(d, 1)", { d: decimal(125n, 2) }, decimal(13n, 1)],
    ["ROUND(d, 1)", { d: decimal(-125n, 2) }, decimal(-13n, 1)],
    ["ROUND(d)", { d: decimal(249n, 2) }, decimal(2n, 0)],
    ["ROUND(i, -1)", { i: 15 }, 20],
    ["ROUND(x, 2)", { x: 2.675 }, 2.68],
    ["FLOOR(d)", { d: decimal(-150n, 2) }, decimal(-2n, 0)],
    ["CEIL(d)", { d: decimal(101n, 2) }, decimal(2n, 0)],
    ["FLOOR(x)", { x: -1.5 }, -2],
    ["CEIL(i)", { i: 3 }, 3],
    ["POWER(i, 2)", { i: 3 }, 9],
    ["SQRT(x)", { x: 16 }, 4],
    ["COALESCE(i, j, 0)", { j: 4 }, 4],
    ["COALESCE(i, j)", {}, null],
    ["COALESCE(i, b)", { i: 1 }, 1],
    ["NULLIF(i, 0)", { i: 0 }, null],
    ["NULLIF(i, 0)", { i: 3 }, 3],
    ["IF(t, 'y', 'n')", { t: null }, "n"],
    ["IF(t, i, d)", { t: true, i: 2 }, decimal(200n, 2)],
  ] as [string, Record<string, SqlValue>, SqlValue][])("%s on %o", (e, row, want) => {
    expect(run(e, row)).toEqual(want);
  });
});

describe("constant folding", () => {
  test("expressions without columns fold once", () => {
    expect(foldConstant(parseExpr("1 + 2 * 3"), ROW)?.value).toBe(7);
    expect(foldConstant(parseExpr("UPPER('a') || 'b'"), ROW)?.value).toBe("Ab");
    expect(foldConstant(parseExpr("CAST('2024-01-02' AS DATE) = DATE '2024-01-02'"), ROW)).toMatchObject({ value: true });
    expect(foldConstant(parseExpr("i + 1"), ROW)).toBeUndefined();
    expect(foldConstant(parseExpr("1 IN (i, 2)"), ROW)).toBeUndefined();
    expect(() => foldConstant(parseExpr("1 / 0"), ROW)).toThrow("Division by zero");
  });
});
