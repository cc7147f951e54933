/**
 * One aggregate call of a plan's aggregation node, after planning: the
 * function, the input positions it reads and its result type. The planner
 * projects every argument and every `FILTER (WHERE …)` condition into a
 * column of the aggregation's input first (as Calcite does), so an operator
 * only reads field positions.
 */
import type { LogicalType } from "../types/logical-type.ts";
import type { SourceLoc } from "../sql/ast.ts";
import type { ResolvedAggregateFunction } from "../functions/aggregate-function.ts";

/** The built-in aggregate functions, and `USER` for a user-defined one (see {@link AggregateCall.udf}). */
export type AggFunctionName = "COUNT" | "SUM" | "SUM0" | "MIN" | "MAX" | "AVG" | "LISTAGG" | "FIRST_VALUE" | "LAST_VALUE" | "USER";

/** An aggregate call as the operators see it. */
export interface AggregateCall {
  fn: AggFunctionName;
  /** Input field positions of the arguments; empty for `COUNT(*)`. `LISTAGG`'s separator is `separator`. */
  args: readonly number[];
  /** The types of the arguments, by position in `args`. */
  argTypes: readonly LogicalType[];
  /** `COUNT(DISTINCT x)` and the like. */
  distinct: boolean;
  /** Input field position of the `FILTER (WHERE …)` condition (a BOOLEAN; a row counts only when it is TRUE). */
  filterArg?: number;
  /** `LISTAGG(x, sep)`: the constant separator (`,` when not given). */
  separator?: string;
  /** The type of the result (SUM of INT is INT, AVG of INT is INT, as Flink). */
  resultType: LogicalType;
  /** How EXPLAIN names the call, e.g. `COUNT(DISTINCT url)`. */
  text: string;
  /** `fn` `USER`: the user-defined aggregate function (planning runs in every worker, so it is carried as it is). */
  udf?: ResolvedAggregateFunction;
  /** Where the call is in the statement (for errors found after planning, such as a missing `retract`). */
  loc?: SourceLoc;
}
