import { describe, expect, it } from "vitest";
import { bindExpression } from "./compile-expression.ts";
import { parseExpr, rowTypeOf } from "./expr-test-util.ts";
import { generateEvaluator } from "./expr-writer.ts";
import type { SqlValue } from "../types/sql-value.ts";

const ROWS = rowTypeOf("k INT, p ROW<t TIMESTAMP(3)>, a ROW<t TIMESTAMP(3)>, s STRING");

describe("generateEvaluator", () => {
  it("computes what the evaluator computes: a computed rowtime over ROW fields, NULLs included", () => {
    const ev = bindExpression(parseExpr("CASE WHEN k = 0 THEN p.t WHEN k = 1 THEN a.t ELSE p.t - INTERVAL '4' SECOND END"), ROWS).eval;
    const generated = generateEvaluator(ev);
    expect(generated).not.toBe(ev);
    const rows: SqlValue[][] = [[0, [10], [20], "x"], [1, [10], [20], "x"], [2, [10], null, "x"], [null, null, [20], null], [1, null, null, "x"], [2, [null], null, "x"]];
    for (const r of rows) expect(generated(r), JSON.stringify(r)).toBe(ev(r));
  });

  it("returns an evaluator without a shape as it is", () => {
    const ev = bindExpression(parseExpr("UPPER(s)"), ROWS).eval;
    expect(generateEvaluator(ev)).toBe(ev);
  });
});
