import { describe, expect, test } from "vitest";
import type { SqlValue } from "../types/sql-value.ts";
import { decimal } from "../types/decimal.ts";
import { bindExpression } from "../expr/compile-expression.ts";
import { bindError, parseExpr, rowTypeOf } from "../expr/expr-test-util.ts";
import { SqlRuntimeError } from "../expr/sql-runtime-error.ts";
import { typeToString } from "../expr/type-rules.ts";
import { FunctionAlreadyExistsError, FunctionCatalog } from "./function-catalog.ts";
import { InvalidFunctionDefinitionError, ScalarFunction } from "./scalar-function.ts";
import { parseSqlType } from "./sql-type-text.ts";

class SubstringFunction extends ScalarFunction {
  readonly resultType = "STRING";
  override readonly argumentTypes = ["STRING", "INT", "INT"];
  eval(s: string | null, begin: number | null, end: number | null): string | null {
    return s === null || begin === null || end === null ? null : s.substring(begin, end);
  }
}

class Counter extends ScalarFunction {
  readonly resultType = "BIGINT NOT NULL";
  private n = 0n;
  eval(): bigint {
    return ++this.n;
  }
  override isDeterministic(): boolean {
    return false;
  }
}

const ROW_TYPE = rowTypeOf("s STRING, i INT, b BIGINT, d DECIMAL(10, 2)");

function catalog(): FunctionCatalog {
  const c = new FunctionCatalog();
  c.registerTemporarySystemFunction("SubstringFunction", new SubstringFunction());
  c.registerTemporarySystemFunction("add_tax", { resultType: "DECIMAL(12, 2)", eval: (d: { unscaled: bigint; scale: number } | null) => (d === null ? null : { unscaled: (d.unscaled * 120n) / 100n, scale: 2 }) });
  c.registerTemporarySystemFunction("twice", Object.assign((x: bigint | null) => (x === null ? null : Number(x) * 2), { resultType: "BIGINT" }));
  c.registerTemporarySystemFunction("nullSafeLen", { resultType: "INT NOT NULL", eval: (s: string | null) => (s === null ? -1 : s.length) });
  c.registerTemporarySystemFunction("counter", new Counter());
  return c;
}

function run(e: string, row: SqlValue[], functions = catalog()): SqlValue {
  return bindExpression(parseExpr(e), ROW_TYPE, { functions }).eval(row);
}

describe("user-defined scalar functions", () => {
  test("called from expressions, by any case, with implicit casts to declared argument types", () => {
    expect(run("SubstringFunction(s, 1, 3)", ["hello", null, null, null])).toBe("el");
    expect(run("substringfunction(s, i, 3) || '!'", ["hello", 0, null, null])).toBe("hel!");
    expect(run("UPPER(SUBSTRINGFUNCTION(s, 0, 2))", ["hello", null, null, null])).toBe("HE");
    expect(run("add_tax(d)", [null, null, null, decimal(1000n, 2)])).toEqual(decimal(1200n, 2));
    expect(run("twice(b) + 1", [null, null, 21n, null])).toBe(43);
  });

  test("NULL arguments are passed to eval, which decides", () => {
    expect(run("nullSafeLen(s)", [null, null, null, null])).toBe(-1);
    expect(run("SubstringFunction(s, 1, 3)", [null, null, null, null])).toBe(null);
    expect(run("twice(b)", [null, null, null, null])).toBe(null);
  });

  test("result types come from the declared type text; constant folding only for deterministic functions", () => {
    const functions = catalog();
    const bind = (e: string) => bindExpression(parseExpr(e), ROW_TYPE, { functions });
    expect(typeToString(bind("add_tax(d)").type)).toBe("DECIMAL(12, 2)");
    expect(typeToString(bind("twice(1)").type)).toBe("BIGINT");
    expect(typeToString(bind("counter()").type)).toBe("BIGINT NOT NULL");
    expect(bind("twice(1)").constant).toBe(true);
    const c = bind("counter()");
    expect(c.constant).toBe(false);
    expect([c.eval([]), c.eval([])]).toEqual([1, 2]); // bigint results become canonical BIGINTs
  });

  test("argument type mismatches name both sides; unknown names suggest registered functions too", () => {
    const functions = catalog();
    expect(bindError("SubstringFunction(i, 1, 2)", ROW_TYPE, { functions })).toBe(
      "line 1, column 8: Cannot apply 'SubstringFunction' to arguments of type <INT>, <INT>, <INT>; it takes <VARCHAR(2147483647)>, <INT>, <INT>",
    );
    expect(bindError("SubstringFunction(s)", ROW_TYPE, { functions })).toBe(
      "line 1, column 8: Cannot apply 'SubstringFunction' to arguments of type <VARCHAR(2147483647)>; it takes <VARCHAR(2147483647)>, <INT>, <INT>",
    );
    expect(bindError("add_taxes(d)", ROW_TYPE, { functions })).toBe("line 1, column 8: No match found for function 'ADD_TAXES'; did you mean 'ADD_TAX'?");
    expect(bindError("add_tax(d)", ROW_TYPE)).toBe("line 1, column 8: No match found for function 'ADD_TAX'");
  });

  test("results that do not fit the declared type are run-time errors naming the function", () => {
    const c = new FunctionCatalog();
    c.registerTemporarySystemFunction("bad", { resultType: "INT", eval: () => "x" });
    c.registerTemporarySystemFunction("undef", { resultType: "INT", eval: () => undefined });
    c.registerTemporarySystemFunction("frac", { resultType: "BIGINT", eval: () => 1.5 });
    c.registerTemporarySystemFunction("never_null", { resultType: "STRING NOT NULL", eval: () => null });
    expect(() => run("never_null()", [], c)).toThrow("Function 'never_null' returned null, but its result type is VARCHAR(2147483647) NOT NULL");
    expect(() => run("bad()", [], c)).toThrow(SqlRuntimeError);
    expect(() => run("bad()", [], c)).toThrow(`Function 'bad' returned "x" (string), which is not a value of its result type INT`);
    expect(() => run("undef()", [], c)).toThrow("Function 'undef' returned undefined; return null for SQL NULL");
    expect(() => run("frac()", [], c)).toThrow("Function 'frac' returned 1.5 (number), which is not a value of its result type BIGINT");
  });

  test("registration: names are case-insensitive, built-ins and duplicates are refused, definitions are checked", () => {
    const c = catalog();
    expect(() => c.registerTemporarySystemFunction("TWICE", { resultType: "INT", eval: () => 1 })).toThrow(FunctionAlreadyExistsError);
    expect(() => c.registerTemporarySystemFunction("upper", { resultType: "INT", eval: () => 1 })).toThrow(FunctionAlreadyExistsError);
    expect(() => c.registerTemporarySystemFunction("f", { resultType: "DECIMAL(10, ", eval: () => 1 })).toThrow(InvalidFunctionDefinitionError);
    expect(() => c.registerTemporarySystemFunction("g", { eval: () => 1 } as never)).toThrow("Function 'g' needs a result type given as SQL type text");
    expect(() => c.registerTemporarySystemFunction("h", { resultType: "INT" } as never)).toThrow("Function 'h' has no eval method");
    expect(c.names()).toContain("SubstringFunction");
    expect(c.dropTemporarySystemFunction("substringFUNCTION")).toBe(true);
    expect(c.lookup("SubstringFunction")).toBeUndefined();
  });

  test("object semantics: eval may mutate its arguments and keep its results without effect on rows", () => {
    const c = new FunctionCatalog();
    const kept: SqlValue[][] = [];
    c.registerTemporarySystemFunction("push_x", { resultType: "ARRAY<STRING>", eval: (a: string[] | null) => { if (a === null) return null; a.push("x"); kept.push(a); return a; } });
    const rowType = rowTypeOf("tags ARRAY<STRING>");
    const row: SqlValue[] = [["a"]];
    const out = bindExpression(parseExpr("push_x(tags)"), rowType, { functions: c }).eval(row) as string[];
    expect(out).toEqual(["a", "x"]);
    expect(row[0]).toEqual(["a"]);
    kept[0]!.push("later");
    expect(out).toEqual(["a", "x"]);
  });

  test("type text", () => {
    expect(parseSqlType("DECIMAL(10, 2)")).toEqual({ kind: "decimal", precision: 10, scale: 2, nullable: true });
    expect(typeToString(parseSqlType("ARRAY<STRING NOT NULL>"))).toBe("ARRAY<VARCHAR(2147483647) NOT NULL>");
    expect(() => parseSqlType("INT INT")).toThrow();
  });
});
