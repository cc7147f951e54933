import { describe, expect, it } from "vitest";
import type { StatementOf } from "../sql/ast.ts";
import { parseStatement } from "../sql/parser.ts";
import { exprSqlText } from "./expr-sql-text.ts";

/** The SQL text of the first select item of `SELECT <expr>`. */
function text(expr: string): string {
  const q = (parseStatement(`SELECT ${expr}`) as StatementOf<"query">).query;
  if (q.body.kind !== "select") throw new Error("expected SELECT");
  return exprSqlText(q.body.items[0]!.expr);
}

describe("exprSqlText", () => {
  it("prints expressions as Flink's DESCRIBE does, parenthesizing nested operators", () => {
    expect(text("cTime - INTERVAL '5' SECOND")).toBe("`cTime` - INTERVAL '5' SECOND");
    expect(text("(a + b) * c")).toBe("(`a` + `b`) * `c`");
    expect(text("CAST(price AS DECIMAL(10, 2))")).toBe("CAST(`price` AS DECIMAL(10, 2))");
    expect(text("TO_TIMESTAMP(FROM_UNIXTIME(ts / 1000))")).toBe("TO_TIMESTAMP(FROM_UNIXTIME(`ts` / 1000))");
    expect(text("CASE WHEN a IS NULL THEN 'it''s' ELSE t.b END")).toBe("CASE WHEN `a` IS NULL THEN 'it''s' ELSE `t`.`b` END");
    expect(text("NOT a BETWEEN 1 AND 2")).toBe("NOT (`a` BETWEEN 1 AND 2)");
    expect(text("COUNT(DISTINCT u) FILTER (WHERE u <> 'x')")).toBe("COUNT(DISTINCT `u`) FILTER (WHERE `u` <> 'x')");
  });
});
