import { describe, expect, test } from "vitest";
import { inferType } from "./compile-expression.ts";
import { parseExpr, rowTypeOf } from "./expr-test-util.ts";
import { typeToString } from "./type-rules.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

const ROW = rowTypeOf(
  "ti TINYINT, si SMALLINT, i INT, n INT NOT NULL, b BIGINT, d DECIMAL(10, 2), dn DECIMAL(5, 3) NOT NULL, f FLOAT, x DOUBLE, " +
    "s STRING, c CHAR(3) NOT NULL, flag BOOLEAN, dt DATE, ts TIMESTAMP(3), `user` STRING",
);

function typeOf(e: string): string {
  return typeToString(inferType(parseExpr(e), ROW));
}

function errorOf(e: string): string {
  try {
    inferType(parseExpr(e), ROW);
  } catch (err) {
    expect(err).toBeInstanceOf(SqlValidationError);
    return (err as Error).message;
  }
  throw new Error(`no error for ${e}`);
}

describe("type inference", () => {
  test.each([
    ["1", "INT NOT NULL"],
    ["3000000000", "BIGINT NOT NULL"],
    ["-2147483648", "INT NOT NULL"],
    ["-3000000000", "BIGINT NOT NULL"],
    ["-9223372036854775808", "BIGINT NOT NULL"],
    ["12.50", "DECIMAL(4, 2) NOT NULL"],
    ["1e3", "DOUBLE NOT NULL"],
    ["'ab'", "CHAR(2) NOT NULL"],
    ["TRUE", "BOOLEAN NOT NULL"],
    ["DATE '2024-01-02'", "DATE NOT NULL"],
    ["TIMESTAMP '2024-01-02 03:04:05.123'", "TIMESTAMP(3) NOT NULL"],
    ["ti + si", "SMALLINT"],
    ["i + n", "INT"],
    ["n + n", "INT NOT NULL"],
    ["i + b", "BIGINT"],
    ["i + d", "DECIMAL(13, 2)"],
    ["b + d", "DECIMAL(22, 2)"],
    ["d * dn", "DECIMAL(16, 5)"],
    ["d / dn", "DECIMAL(19, 8)"],
    ["d % i", "DECIMAL(10, 2)"],
    ["d + f", "FLOAT"],
    ["d + x", "DOUBLE"],
    ["f * x", "DOUBLE"],
    ["i + 1.5", "DECIMAL(12, 1)"],
    ["-n", "INT NOT NULL"],
    ["i = b", "BOOLEAN"],
    ["n < 1", "BOOLEAN NOT NULL"],
    ["s = c", "BOOLEAN"],
    ["flag AND n > 0", "BOOLEAN"],
    ["NOT flag", "BOOLEAN"],
    ["i IS NULL", "BOOLEAN NOT NULL"],
    ["flag IS NOT TRUE", "BOOLEAN NOT NULL"],
    ["i IS DISTINCT FROM b", "BOOLEAN NOT NULL"],
    ["s || c", "VARCHAR(2147483647)"],
    ["c || 'xy'", "CHAR(5) NOT NULL"],
    ["CASE WHEN flag THEN i ELSE d END", "DECIMAL(12, 2)"],
    ["CASE WHEN flag THEN n ELSE 2 END", "INT NOT NULL"],
    ["CASE WHEN flag THEN n END", "INT"],
    ["CASE i WHEN 1 THEN 'a' WHEN 2 THEN 'bcd' ELSE 'x' END", "VARCHAR(3) NOT NULL"],
    ["CAST(s AS INT)", "INT"],
    ["CAST(n AS STRING)", "VARCHAR(2147483647) NOT NULL"],
    ["TRY_CAST(c AS INT)", "INT"],
    ["CAST(NULL AS DATE)", "DATE"],
    ["COALESCE(i, n)", "INT NOT NULL"],
    ["COALESCE(i, b)", "BIGINT"],
    ["NULLIF(n, 0)", "INT"],
    ["IF(flag, n, 2.5)", "DECIMAL(11, 1) NOT NULL"],
    ["i IN (1, 2, NULL)", "BOOLEAN"],
    ["n BETWEEN 1 AND 3", "BOOLEAN NOT NULL"],
    ["s LIKE 'a%'", "BOOLEAN"],
    ["UPPER(c)", "VARCHAR(2147483647) NOT NULL"],
    ["CHAR_LENGTH(s)", "INT"],
    ["SUBSTRING(s FROM 2 FOR 3)", "VARCHAR(2147483647)"],
    ["POSITION('a' IN c)", "INT NOT NULL"],
    ["TRIM(BOTH 'x' FROM s)", "VARCHAR(2147483647)"],
    ["ABS(b)", "BIGINT"],
    ["MOD(n, 3)", "INT NOT NULL"],
    ["ROUND(d, 1)", "DECIMAL(10, 1)"],
    ["ROUND(dn)", "DECIMAL(3, 0) NOT NULL"],
    ["FLOOR(d)", "DECIMAL(9, 0)"],
    ["CEIL(x)", "DOUBLE"],
    ["POWER(n, 2)", "DOUBLE NOT NULL"],
    ["SQRT(d)", "DOUBLE"],
    ["`user`", "VARCHAR(2147483647)"],
    ["ts - INTERVAL '1' SECOND", "TIMESTAMP(3)"],
    ["INTERVAL '2' HOUR + ts", "TIMESTAMP(3)"],
  ])("%s : %s", (e, t) => {
    expect(typeOf(e)).toBe(t);
  });
});

describe("type errors name both types and the location", () => {
  test.each([
    ["s + 1", "line 1, column 8: Cannot apply '+' to arguments of type <VARCHAR(2147483647)> and <INT>"],
    ["i +\n  flag", "line 1, column 8: Cannot apply '+' to arguments of type <INT> and <BOOLEAN>"],
    ["n = 'a'", "line 1, column 8: Cannot apply '=' to arguments of type <INT> and <CHAR(1)>"],
    ["s || n", "line 1, column 8: Cannot apply '||' to arguments of type <VARCHAR(2147483647)> and <INT>"],
    ["flag AND i", "line 1, column 8: Cannot apply 'AND' to arguments of type <BOOLEAN> and <INT>"],
    ["NOT i", "line 1, column 8: Cannot apply 'NOT' to arguments of type <INT>"],
    ["1 + usr", "line 1, column 12: Column 'usr' not found in any table; did you mean 'user'?"],
    ["zzz", "line 1, column 8: Column 'zzz' not found in any table"],
    ["UPER(s)", "line 1, column 8: No match found for function 'UPER'; did you mean 'UPPER'?"],
    ["frobnicate(s)", "line 1, column 8: No match found for function 'FROBNICATE'"],
    ["UPPER(s, s)", "line 1, column 8: Invalid number of arguments to function 'UPPER'. Was expecting 1 arguments"],
    ["UPPER(n)", "line 1, column 8: Cannot apply 'UPPER' to arguments of type <INT>"],
    ["CAST(flag AS DATE)", "line 1, column 8: Cast function cannot convert value of type BOOLEAN to type DATE"],
    ["CAST(dt AS INT)", "line 1, column 8: Cast function cannot convert value of type DATE to type INT"],
    ["CASE WHEN flag THEN 1 ELSE 'a' END", "line 1, column 8: Cannot infer a common type of CASE for <INT> and <CHAR(1)>"],
    ["CASE WHEN i THEN 1 END", "line 1, column 18: Expected a BOOLEAN condition in WHEN but got <INT>"],
    ["i IN (1, 'a')", "line 1, column 8: Values passed to IN operator must have compatible types: <INT> and <CHAR(1)>"],
    ["n LIKE 'a'", "line 1, column 8: Cannot apply 'LIKE' to arguments of type <INT> and <CHAR(1)>"],
    ["COUNT(i)", "line 1, column 8: No match found for function 'COUNT'"],
    ["INTERVAL '1-2' YEAR TO MONTH", "line 1, column 8: INTERVAL YEAR TO MONTH is not supported in scalar expressions yet"],
    ["ts + 1", "line 1, column 8: Cannot apply '+' to arguments of type <TIMESTAMP(3)> and <INT>"],
    ["DATE '2024-13-01'", "line 1, column 8: Illegal DATE literal '2024-13-01'"],
  ])("%s", (e, msg) => {
    expect(errorOf(e)).toBe(msg);
  });
});
