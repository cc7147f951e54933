import { describe, expect, test } from "vitest";
import type { SqlValue } from "../../types/sql-value.ts";
import { decimal } from "../../types/decimal.ts";
import { bindExpression } from "../compile-expression.ts";
import { bindError, evaluate, parseExpr, typeOfExpr } from "../expr-test-util.ts";
import { JavaRandom } from "./math-functions.ts";

describe("math functions", () => {
  test.each([
    ["ABS(-5)", 5],
    ["ABS(-2.50)", decimal(250n, 2)],
    ["SIGN(-7)", -1],
    ["SIGN(2.50)", decimal(100n, 2)],
    ["SIGN(CAST(0 AS BIGINT))", 0],
    ["MOD(7, 3)", 1],
    ["MOD(-7, 3)", -1],
    ["ROUND(42.345, 2)", decimal(4235n, 2)],
    ["ROUND(-42.345, 2)", decimal(-4235n, 2)],
    ["ROUND(1235, -1)", 1240],
    ["TRUNCATE(42.345, 2)", decimal(4234n, 2)],
    ["TRUNCATE(-42.345, 2)", decimal(-4234n, 2)],
    ["TRUNCATE(42.345)", decimal(42n, 0)],
    ["TRUNCATE(1239, -1)", 1230],
    ["TRUNCATE(CAST(42.345 AS DOUBLE), 1)", 42.3],
    ["FLOOR(-1.5)", decimal(-2n, 0)],
    ["CEIL(1.01)", decimal(2n, 0)],
    ["CEILING(CAST(1.5 AS DOUBLE))", 2],
    ["POWER(2, 10)", 1024],
    ["SQRT(16)", 4],
    ["EXP(0)", 1],
    ["LN(1)", 0],
    ["LOG10(1000)", 3],
    ["LOG2(8)", 3],
    ["LOG(1)", 0],
    ["GREATEST(1, 5, 3)", 5],
    ["LEAST(1, 5, 3)", 1],
    ["GREATEST(1, 2.5)", decimal(25n, 1)],
    ["GREATEST('a', 'b')", "b"],
    ["GREATEST(1, NULL, 3)", null],
    ["PI()", Math.PI],
    ["E()", Math.E],
    ["DEGREES(PI())", 180],
  ] as [string, SqlValue][])("%s = %o", (e, want) => {
    expect(evaluate(e)).toEqual(want);
  });

  test("LOG(base, x) is the logarithm of x in base", () => {
    expect(evaluate("LOG(2, 8)") as number).toBeCloseTo(3, 12);
    expect(evaluate("LOG(10, 100)") as number).toBeCloseTo(2, 12);
  });

  test("NULL in, NULL out", () => {
    for (const e of ["ABS(i)", "SIGN(i)", "MOD(i, 2)", "ROUND(d, 1)", "TRUNCATE(d, 1)", "POWER(i, 2)", "LN(x)", "LOG(2, x)", "BIN(i)"]) {
      expect(evaluate(e, "i INT, d DECIMAL(10, 2), x DOUBLE", [null, null, null]), e).toBe(null);
    }
  });

  test("result types follow Flink's rules", () => {
    expect(typeOfExpr("TRUNCATE(d, 1)", "d DECIMAL(10, 3)")).toBe("DECIMAL(9, 1)");
    expect(typeOfExpr("ROUND(d, 5)", "d DECIMAL(10, 3)")).toBe("DECIMAL(10, 3)");
    expect(typeOfExpr("SIGN(b)", "b BIGINT NOT NULL")).toBe("BIGINT NOT NULL");
    expect(typeOfExpr("LN(i)", "i INT")).toBe("DOUBLE");
    expect(typeOfExpr("GREATEST(i, b)", "i INT NOT NULL, b BIGINT")).toBe("BIGINT");
    expect(typeOfExpr("PI()")).toBe("DOUBLE NOT NULL");
  });

  test("type errors name the argument types", () => {
    expect(bindError("SQRT('x')")).toBe("line 1, column 8: Cannot apply 'SQRT' to arguments of type <CHAR(1)>");
    expect(bindError("MOD(1, 'x')")).toBe("line 1, column 8: Cannot apply 'MOD' to arguments of type <INT>, <CHAR(1)>");
    expect(bindError("GREATEST(1, 'x')")).toBe("line 1, column 8: Cannot apply 'GREATEST' to arguments of type <INT>, <CHAR(1)>: no common type of <INT> and <CHAR(1)>");
    expect(bindError("TRUNCATE(1.5, 1.5)")).toBe("line 1, column 8: Cannot apply 'TRUNCATE' to arguments of type <DECIMAL(2, 1)>, <DECIMAL(2, 1)>");
  });

  test("RAND(seed) and RAND_INTEGER(seed, bound) follow java.util.Random; no unseeded RAND", () => {
    const r = new JavaRandom(42);
    expect(r.nextDouble()).toBe(0.7275636800328681);
    expect(new JavaRandom(42).nextInt(10)).toBe(0);
    expect(new JavaRandom(42).nextInt(16)).toBe(new JavaRandom(42).nextInt(16));
    const rand = bindExpression(parseExpr("RAND(42)"), { names: [], types: [] });
    expect(rand.constant).toBe(false);
    const first = rand.eval([]) as number;
    expect(first).toBe(0.7275636800328681);
    expect(rand.eval([])).not.toBe(first);
    expect(evaluate("RAND_INTEGER(42, 10)")).toBe(0);
    for (let i = 0; i < 200; i++) {
      const v = new JavaRandom(i).nextInt(7);
      expect(v >= 0 && v < 7, `seed ${i}`).toBe(true);
    }
    expect(bindError("RAND()")).toMatch(/RAND without a seed is not supported/);
    expect(bindError("RAND(i)", { names: ["i"], types: [{ kind: "int", nullable: true }] })).toBe("line 1, column 8: The seed of RAND must be a constant");
  });
});

describe("conditional functions", () => {
  test.each([
    ["COALESCE(NULL, 2, 3)", 2],
    ["IFNULL(NULL, 'x')", "x"],
    ["IFNULL('a', 'x')", "a"],
    ["NULLIF(1, 1)", null],
    ["NULLIF(1, 2)", 1],
    ["IF(1 > 2, 'a', 'b')", "b"],
    ["IF(NULL, 'a', 'b')", "b"],
    ["IF(TRUE, 1, 2.5)", decimal(10n, 1)],
    ["IS_ALPHA('abc')", true],
    ["IS_ALPHA('ab1')", false],
    ["IS_ALPHA(NULL)", false],
    ["IS_DIGIT('0123')", true],
    ["IS_DIGIT('')", false],
    ["IS_DECIMAL('-1.5e3')", true],
    ["IS_DECIMAL('1.2.3')", false],
  ] as [string, SqlValue][])("%s = %o", (e, want) => {
    expect(evaluate(e)).toEqual(want);
  });

  test("types and errors", () => {
    expect(typeOfExpr("IFNULL(i, 0)", "i INT")).toBe("INT NOT NULL");
    expect(typeOfExpr("IFNULL(i, j)", "i INT NOT NULL, j INT")).toBe("INT");
    expect(typeOfExpr("IS_ALPHA(s)", "s STRING")).toBe("BOOLEAN NOT NULL");
    expect(typeOfExpr("COALESCE(i, j)", "i INT, j BIGINT")).toBe("BIGINT");
    expect(bindError("IF(1, 2, 3)")).toBe("line 1, column 8: Cannot apply 'IF' to arguments of type <INT>, <INT>, <INT>");
    expect(bindError("COALESCE(1, 'a')")).toBe("line 1, column 8: Cannot apply 'COALESCE' to arguments of type <INT>, <CHAR(1)>: no common type of <INT> and <CHAR(1)>");
  });
});
