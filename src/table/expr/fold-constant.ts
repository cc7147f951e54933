/**
 * Constant folding for the planner: an expression that reads no column is
 * evaluated once, at planning time.
 */
import type { Expr } from "../sql/ast.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { bindExpression } from "./compile-expression.ts";
import type { RowType } from "./type-rules.ts";
import type { LogicalType } from "../types/logical-type.ts";

const NO_FIELDS: SqlValue[] = [];

/**
 * The value and type of `expr` when it reads no column, else undefined.
 * Evaluation errors (division by zero, a failing CAST) propagate: Flink
 * reports them when planning, too.
 *
 * @example
 * ```ts
 * foldConstant(expr("1 + 2 * 3"), { names: [], types: [] }); // { value: 7, type: INT NOT NULL }
 * ```
 */
export function foldConstant(expr: Expr, rowType: RowType): { value: SqlValue; type: LogicalType } | undefined {
  const bound = bindExpression(expr, rowType);
  if (!bound.constant) return undefined;
  return { value: bound.eval(NO_FIELDS), type: bound.type };
}
