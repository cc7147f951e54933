/**
 * Binding a scalar expression of the syntax tree to a node's output row:
 * columns are resolved here (qualified names, ambiguity, the nearest-name
 * hint) and replaced by their positions, then the expression layer types and
 * compiles it.
 */
import { exprSqlText } from "../catalog/expr-sql-text.ts";
import { bindExpression } from "../expr/compile-expression.ts";
import type { BindOptions } from "../expr/bound-expr.ts";
import type { ResolvedAggregateFunction } from "../functions/aggregate-function.ts";
import type { Evaluator } from "../expr/compile-expression.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { Expr } from "../sql/ast.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { builtinFunction } from "../expr/functions/builtin-functions.ts";
import { callName, columnRef, rewrite } from "./ast-walk.ts";
import { resolveColumnPath } from "./plan-row-type.ts";
import { withCode } from "../expr/expr-code.ts";
import type { PlanExpr, PlanRowType } from "./rel-node.ts";

/** The binding options of the conversion running now (see {@link withBindOptions}). */
let current: BindOptions = {};

/**
 * Runs a conversion with the session's binding options: its user-defined
 * functions and time zone reach every expression the conversion binds.
 * Conversions are synchronous, so the options are scoped to the call.
 *
 * @example
 * ```ts
 * const plan = withBindOptions({ functions, timeZone: "UTC" }, () => convertQuery(ctx, query));
 * ```
 */
export function withBindOptions<T>(options: BindOptions, convert: () => T): T {
  const saved = current;
  current = options;
  try {
    return convert();
  } finally {
    current = saved;
  }
}

/**
 * The user-defined aggregate function called `name` among the running
 * conversion's functions, or undefined.
 *
 * @example
 * ```ts
 * withBindOptions({ functions }, () => userAggregate("WeightedAvg")); // its resolved form
 * ```
 */
export function userAggregate(name: string): ResolvedAggregateFunction | undefined {
  return current.functions?.lookupAggregate?.(name);
}

/** The name a resolved column gets in the rewritten expression. */
const positional = (i: number) => `$#${i}`;

/** `expr` with its column references replaced by positional names (`$#3`). */
export function resolveColumns(expr: Expr, t: PlanRowType, reads?: Set<number>): Expr {
  return rewrite(expr, (e) => {
    if (e.kind === "column") {
      const { index, path } = resolveColumnPath(e.names, t);
      reads?.add(index);
      const ref = columnRef(positional(index), e.loc);
      return path.length === 0 ? ref : { ...ref, names: [...ref.names, ...path] };
    }
    if (e.kind === "call" && e.args.length > 0 && builtinFunction(callName(e))?.unitFirst === true) {
      // TIMESTAMPDIFF(SECOND, a, b): the first argument is a time unit, not a column
      const [unit, ...rest] = e.args;
      return { ...e, args: [unit!, ...rest.map((a) => ({ ...a, value: resolveColumns(a.value, t, reads) }))] };
    }
    if (e.kind === "inQuery" || e.kind === "exists" || e.kind === "subquery") {
      throw new SqlValidationError("Subqueries are supported only as IN/EXISTS conditions of WHERE", e.loc);
    }
    if (e.kind === "star") throw new SqlValidationError("'*' is allowed only in the select list and COUNT(*)", e.loc);
    return undefined;
  });
}

/**
 * Binds `expr` over rows of `t`.
 *
 * @throws {SqlValidationError} for unknown columns and functions and type errors.
 * @example
 * ```ts
 * const e = bindPlanExpr(parseExpr("cnt + 1"), rowType); // e.type: BIGINT, e.eval(fields)
 * ```
 */
export function bindPlanExpr(expr: Expr, t: PlanRowType, text = exprSqlText(expr)): PlanExpr {
  const reads = new Set<number>();
  const resolved = resolveColumns(expr, t, reads);
  const bound = bindExpression(resolved, { names: t.names.map((_, i) => positional(i)), types: t.types }, current);
  const inputRef = resolved.kind === "column" && resolved.names.length === 1 ? Number(resolved.names[0]!.value.slice(2)) : undefined;
  return {
    eval: bound.constant ? folded(bound.eval) : bound.eval,
    type: bound.type,
    text,
    constant: bound.constant,
    reads: [...reads].sort((a, b) => a - b),
    ...(inputRef === undefined ? {} : { inputRef }),
    ...(expr.kind === "call" && expr.args.length === 0 && callName(expr) === "PROCTIME" ? { proctime: true as const } : {}),
  };
}

/**
 * Constant folding: a constant expression is evaluated once, when planned.
 * One that fails (a division by zero) keeps failing when evaluated, as
 * Flink's, so its error has the row's context.
 */
function folded(ev: Evaluator): Evaluator {
  let value: SqlValue;
  try {
    value = ev([]);
  } catch {
    return ev;
  }
  if (value !== null && typeof value === "object") return ev; // a new DECIMAL/ARRAY per row: rows never share mutable values
  return withCode(() => value, { op: "literal", value });
}

/** A reference to field `i` of `t` as an expression. */
export function fieldRef(t: PlanRowType, i: number): PlanExpr {
  return { eval: withCode((f) => f[i]!, { op: "field", index: i }), type: t.types[i]!, text: t.names[i]!, inputRef: i, constant: false, reads: [i] };
}

/** The canonical text of `expr` over `t`: equal for expressions that read the same columns the same way. */
export function canonicalText(expr: Expr, t: PlanRowType): string {
  return exprSqlText(resolveColumns(expr, t));
}
