/**
 * Builders of planned aggregate calls and logical types for the tests of the
 * table aggregation operators (what the planner would hand them).
 */
import type { AggFunctionName, AggregateCall } from "../../src/table/runtime/aggregate-call.ts";
import type { LogicalType } from "../../src/table/types/logical-type.ts";

export const INT: LogicalType = { kind: "int", nullable: true };
export const BIGINT: LogicalType = { kind: "bigint", nullable: true };
export const BIGINT_NOT_NULL: LogicalType = { kind: "bigint", nullable: false };
export const DOUBLE: LogicalType = { kind: "double", nullable: true };
export const STRING: LogicalType = { kind: "varchar", length: 2147483647, nullable: true };
export const BOOLEAN: LogicalType = { kind: "boolean", nullable: true };
export const decimalType = (precision: number, scale: number): LogicalType => ({ kind: "decimal", precision, scale, nullable: true });

/** Options of {@link aggCall}. */
export interface CallOptions {
  distinct?: boolean;
  filterArg?: number;
  separator?: string;
}

/** A call of `fn` over `args` (positions, types); the result type as Flink derives it. */
export function aggCall(fn: AggFunctionName, args: readonly [number, LogicalType][], options: CallOptions = {}): AggregateCall {
  const argTypes = args.map(([, t]) => t);
  const t = argTypes[0];
  let resultType: LogicalType;
  switch (fn) {
    case "COUNT":
      resultType = BIGINT_NOT_NULL;
      break;
    case "SUM":
    case "SUM0":
      resultType = t!.kind === "decimal" ? decimalType(38, t!.scale) : t!;
      break;
    case "AVG":
      resultType = t!.kind === "decimal" ? decimalType(38, Math.max(6, t!.scale)) : t!;
      break;
    case "LISTAGG":
      resultType = STRING;
      break;
    default:
      resultType = t!;
  }
  const text = `${fn}(${options.distinct ? "DISTINCT " : ""}${args.length === 0 ? "*" : args.map(([p]) => `$${p}`).join(", ")})`;
  return {
    fn,
    args: args.map(([p]) => p),
    argTypes,
    distinct: options.distinct ?? false,
    ...(options.filterArg === undefined ? {} : { filterArg: options.filterArg }),
    ...(options.separator === undefined ? {} : { separator: options.separator }),
    resultType,
    text,
  };
}
