/**
 * The result types of the built-in aggregate functions, by Flink's rules:
 * `COUNT` is `BIGINT NOT NULL`; `SUM` keeps an integer or floating type and
 * widens a `DECIMAL(p, s)` to `DECIMAL(38, s)`; `AVG` keeps the argument's
 * type (an integer average truncates, as Flink's); `MIN`, `MAX`,
 * `FIRST_VALUE` and `LAST_VALUE` keep it; `LISTAGG` is `STRING`. Every result
 * but COUNT's is nullable.
 */
import { MAX_LENGTH } from "../sql/parse-type.ts";
import type { SourceLoc } from "../sql/ast.ts";
import { avgType, sumType } from "../types/decimal.ts";
import { formatLogicalType, type LogicalType } from "../types/logical-type.ts";
import { isNumericType } from "../expr/type-rules.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { AggFunctionName, AggregateCall } from "../runtime/aggregate-call.ts";
import type { ResolvedAggregateFunction } from "../functions/aggregate-function.ts";
import { isImplicitlyCastable, showType } from "../expr/bound-expr.ts";

/** The names the planner treats as built-in aggregate functions. */
export const AGGREGATE_FUNCTIONS: ReadonlySet<string> = new Set<AggFunctionName>([
  "COUNT", "SUM", "SUM0", "MIN", "MAX", "AVG", "LISTAGG", "FIRST_VALUE", "LAST_VALUE",
]);

/**
 * An aggregate call with its result type.
 *
 * @throws {SqlValidationError} for an argument type the function does not take.
 * @example
 * ```ts
 * aggregateCall("SUM", [2], [{ kind: "int", nullable: true }], false, undefined, "SUM(price)").resultType; // INT
 * ```
 */
export function aggregateCall(
  fn: AggFunctionName,
  args: number[],
  argTypes: LogicalType[],
  distinct: boolean,
  filterArg: number | undefined,
  text: string,
  loc?: SourceLoc,
  separator?: string,
): AggregateCall {
  const arity = fn === "COUNT" ? [0, Infinity] : fn === "LISTAGG" ? [1, 1] : [1, 1];
  if (args.length < arity[0]! || args.length > arity[1]!) {
    throw new SqlValidationError(`Invalid number of arguments to function '${fn}'. Was expecting ${arity[0]} arguments`, loc);
  }
  return {
    fn,
    args,
    argTypes,
    distinct,
    ...(filterArg === undefined ? {} : { filterArg }),
    ...(separator === undefined ? {} : { separator }),
    resultType: resultType(fn, argTypes[0], loc),
    text,
  };
}

/**
 * A call of the user-defined aggregate function `udf`. Arguments of other
 * types than the declared ones must have been cast first (see
 * {@link userArgumentCasts}).
 *
 * @example
 * ```ts
 * userAggregateCall(weightedAvg, [2, 3], [DOUBLE, INT], false, undefined, "WeightedAvg(points, level)", loc).resultType; // DOUBLE
 * ```
 */
export function userAggregateCall(
  udf: ResolvedAggregateFunction,
  args: number[],
  argTypes: LogicalType[],
  distinct: boolean,
  filterArg: number | undefined,
  text: string,
  loc: SourceLoc,
): AggregateCall {
  return {
    fn: "USER",
    args,
    argTypes,
    distinct,
    ...(filterArg === undefined ? {} : { filterArg }),
    resultType: udf.resultType,
    text,
    udf,
    loc,
  };
}

/**
 * For each argument of a call of `udf` with these types: the SQL type text
 * to cast it to, or undefined when it is passed as it is.
 *
 * @throws {SqlValidationError} when the number of arguments or a type does not fit the declared argument types.
 * @example
 * ```ts
 * userArgumentCasts(weightedAvg, [INT, INT], loc); // ["DOUBLE", undefined]
 * ```
 */
export function userArgumentCasts(udf: ResolvedAggregateFunction, argTypes: readonly LogicalType[], loc: SourceLoc): (string | undefined)[] {
  const declared = udf.argumentTypes;
  if (declared === undefined) return argTypes.map(() => undefined);
  const mismatch = () => new SqlValidationError(
    `Cannot apply '${udf.name}' to arguments of type ${argTypes.map((a) => `<${showType(a)}>`).join(", ") || "()"}; it takes ${declared.map((t) => `<${showType(t.type)}>`).join(", ") || "()"}`,
    loc,
  );
  if (declared.length !== argTypes.length) throw mismatch();
  return argTypes.map((a, i) => {
    const d = declared[i]!;
    if (!isImplicitlyCastable(a, d.type)) throw mismatch();
    return showType({ ...a, nullable: true }) === showType({ ...d.type, nullable: true }) ? undefined : d.text;
  });
}

function resultType(fn: AggFunctionName, arg: LogicalType | undefined, loc: SourceLoc | undefined): LogicalType {
  const numeric = () => {
    if (arg === undefined || (!isNumericType(arg) && arg.kind !== "null")) {
      throw new SqlValidationError(`Cannot apply '${fn}' to arguments of type '${fn}(<${arg === undefined ? "" : formatLogicalType(arg)}>)'`, loc);
    }
    return arg.kind === "null" ? ({ kind: "int", nullable: true } as LogicalType) : arg;
  };
  switch (fn) {
    case "COUNT":
      return { kind: "bigint", nullable: false };
    case "SUM":
    case "SUM0": {
      const t = numeric();
      if (t.kind === "decimal") return { ...sumType(t), kind: "decimal", nullable: fn === "SUM" };
      return { ...t, nullable: fn === "SUM" };
    }
    case "AVG": {
      const t = numeric();
      if (t.kind === "decimal") return { ...avgType(t), kind: "decimal", nullable: true };
      return { ...t, nullable: true };
    }
    case "LISTAGG":
      return { kind: "varchar", length: MAX_LENGTH, nullable: true };
    default:
      return { ...(arg as LogicalType), nullable: true };
  }
}
