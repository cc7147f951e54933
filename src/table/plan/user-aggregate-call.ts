/**
 * Planning a call of a user-defined aggregate function: its arguments
 * checked against (and cast to) the declared argument types, its `FILTER`,
 * and the checks that the function has the methods its aggregation needs —
 * `retract` over an updating input or a bounded OVER frame, `merge` in HOP,
 * CUMULATE and SESSION windows — each a located validation error.
 */
import type { ExprOf } from "../sql/ast.ts";
import { parseDataType } from "../sql/parse-type.ts";
import { TokenCursor } from "../sql/token-cursor.ts";
import { exprSqlText } from "../catalog/expr-sql-text.ts";
import type { ResolvedAggregateFunction } from "../functions/aggregate-function.ts";
import type { AggregateCall } from "../runtime/aggregate-call.ts";
import type { WindowSpec } from "../runtime/window-spec.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { userAggregateCall, userArgumentCasts } from "./aggregate-call-type.ts";
import { bindPlanExpr, canonicalText } from "./bind-plan-expr.ts";
import type { PlanExpr, PlanRowType } from "./rel-node.ts";

/**
 * The planned call `c` of `udf` over rows of type `t`; `position` places an
 * argument or the filter in the aggregation's input and returns its position.
 *
 * @throws {SqlValidationError} for `*`, arguments that do not fit the declared types, a FILTER that is not BOOLEAN.
 * @example
 * ```ts
 * planUserAggregateCall(weightedAvg, call, rowType, (e) => add(e)); // { fn: "USER", udf: weightedAvg, ... }
 * ```
 */
export function planUserAggregateCall(
  udf: ResolvedAggregateFunction,
  c: ExprOf<"call">,
  t: PlanRowType,
  position: (e: PlanExpr, kind: "arg" | "filter") => number,
): AggregateCall {
  if (c.star) throw new SqlValidationError(`'*' is not an argument of the aggregate function '${udf.name}'`, c.loc);
  const bound = c.args.map((a) => bindPlanExpr(a.value, t, canonicalText(a.value, t)));
  const casts = userArgumentCasts(udf, bound.map((b) => b.type), c.loc);
  const args = c.args.map((a, i) => {
    const to = casts[i];
    if (to === undefined) return bound[i]!;
    const cast = { kind: "cast" as const, expr: a.value, type: parseDataType(new TokenCursor(to)), try: false, loc: a.value.loc };
    return bindPlanExpr(cast, t, canonicalText(cast, t));
  });
  const positions = args.map((a) => position(a, "arg"));
  let filterArg: number | undefined;
  if (c.filter !== undefined) {
    const f = bindPlanExpr(c.filter, t, canonicalText(c.filter, t));
    if (f.type.kind !== "boolean") throw new SqlValidationError("FILTER condition must be BOOLEAN", c.filter.loc);
    filterArg = position(f, "filter");
  }
  const text = exprSqlText({ ...c, over: undefined, overWindow: undefined } as ExprOf<"call">);
  return userAggregateCall(udf, positions, args.map((a) => a.type), c.distinct, filterArg, text, c.loc);
}

/**
 * Refuses user-defined calls without `retract` where rows are retracted.
 *
 * @throws {SqlValidationError} located at the first such call.
 * @example
 * ```ts
 * requireRetract(node.calls, "an updating input"); // throws for a function without retract
 * ```
 */
export function requireRetract(calls: readonly AggregateCall[], where: string): void {
  for (const c of calls) {
    if (c.udf !== undefined && c.udf.retract === undefined) {
      throw new SqlValidationError(`Aggregate function '${c.udf.name}' has no retract method, which it needs over ${where}`, c.loc);
    }
  }
}

/**
 * Refuses user-defined calls without `merge` in windows that merge slices or sessions (all but TUMBLE).
 *
 * @throws {SqlValidationError} located at the first such call.
 * @example
 * ```ts
 * requireMerge(pre.calls, window); // throws in a HOP window for a function without merge
 * ```
 */
export function requireMerge(calls: readonly AggregateCall[], window: WindowSpec): void {
  if (window.kind === "tumble") return;
  for (const c of calls) {
    if (c.udf !== undefined && c.udf.merge === undefined) {
      throw new SqlValidationError(`Aggregate function '${c.udf.name}' has no merge method, which it needs in a ${window.kind.toUpperCase()} window`, c.loc);
    }
  }
}
