/**
 * User-defined table functions in FROM: `FROM t, LATERAL TABLE(fn(t.a))`
 * (or `JOIN LATERAL TABLE(…) ON TRUE`, `LEFT JOIN LATERAL TABLE(…) ON TRUE`)
 * joins each row of `t` with the rows the function gives for it (Flink's
 * correlate); `FROM TABLE(fn(1))` alone reads the rows of one call.
 */
import type { Expr, ExprOf, Identifier } from "../sql/ast.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { callName } from "./ast-walk.ts";
import { bindPlanExpr } from "./bind-plan-expr.ts";
import { castExpr, filterNode } from "./convert-query.ts";
import type { PlannerContext } from "./planner-context.ts";
import { fieldsOf, planRowType } from "./plan-row-type.ts";
import type { RelNode } from "./rel-node.ts";

/** True when `call` names a registered table function. */
export function isTableFunctionCall(ctx: PlannerContext, call: ExprOf<"call">): boolean {
  return ctx.tableFunctions.has(callName(call));
}

/**
 * `input` joined with the rows of the table function `call` per input row.
 *
 * @throws {SqlValidationError} for arguments of the wrong number or type, and for a LEFT join with a condition other than TRUE.
 */
export function convertCorrelate(
  ctx: PlannerContext,
  input: RelNode,
  call: ExprOf<"call">,
  joinType: "INNER" | "LEFT",
  on: Expr | undefined,
  alias: string | undefined,
  columnAliases: Identifier[] | undefined,
): RelNode {
  const fn = ctx.tableFunctions.get(callName(call))!;
  const declared = fn.argumentTypes;
  if (declared !== undefined && declared.length !== call.args.length) {
    throw new SqlValidationError(`Table function '${fn.name}' takes ${declared.length} arguments, got ${call.args.length}`, call.loc);
  }
  const args = call.args.map((a, i) => {
    const e = bindPlanExpr(a.value, input.rowType);
    return declared === undefined ? e : castExpr(e, declared[i]!);
  });
  if (columnAliases !== undefined && columnAliases.length !== fn.columns.length) {
    throw new SqlValidationError(`Table function '${fn.name}' gives ${fn.columns.length} columns, the alias names ${columnAliases.length}`, columnAliases[0]!.loc);
  }
  const columns = fn.columns.map((c, i) => ({
    name: columnAliases?.[i]?.value ?? c.name,
    type: joinType === "LEFT" ? { ...c.type, nullable: true } : c.type,
    qualifier: alias ?? fn.name,
  }));
  const node: RelNode = { kind: "correlate", input, fn, args, joinType, rowType: planRowType([...fieldsOf(input.rowType), ...columns]) };
  const trivial = on === undefined || (on.kind === "boolean" && on.value);
  if (trivial) return node;
  if (joinType === "LEFT") throw new SqlValidationError("LEFT JOIN LATERAL TABLE supports only ON TRUE", on.loc);
  return filterNode(node, on);
}
