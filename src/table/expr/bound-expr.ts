/**
 * What binding produces and what the function families share: a bound
 * expression (type, evaluator, constness), the options of binding (session
 * time zone, clock, user-defined functions), implicit coercion between
 * representations, and type names as error messages print them.
 */
import type { SqlValue } from "../types/sql-value.ts";
import type { LogicalType } from "../types/logical-type.ts";
import type { ResolvedAggregateFunction } from "../functions/aggregate-function.ts";
import { castFunction } from "./cast.ts";
import { strictCall, withCode } from "./expr-code.ts";
import { timeZoneOffset } from "../types/time-zone.ts";
import { commonType, isStringType, typeToString, withNullable } from "./type-rules.ts";

/** A compiled expression: evaluates on the field values of one row. */
export type Evaluator = (fields: SqlValue[]) => SqlValue;

/**
 * An expression after binding: its type, its evaluator, and whether it is
 * constant (reads no column and is deterministic, so the planner may fold it).
 */
export interface BoundExpr {
  type: LogicalType;
  eval: Evaluator;
  constant: boolean;
}

/**
 * A user-defined scalar function as the binder sees it (what
 * `FunctionCatalog` resolves a registered function to): argument and result
 * types and a call on {@link SqlValue}s.
 */
export interface ResolvedScalarFunction {
  /** The name it was registered under, for messages. */
  readonly name: string;
  /** The declared result type. */
  readonly resultType: LogicalType;
  /** Declared argument types: arguments are checked and implicitly cast to them; absent: any arguments. */
  readonly argumentTypes?: readonly LogicalType[];
  /** False for a function whose result may differ between calls with the same arguments (never folded). */
  readonly deterministic: boolean;
  /** Calls the function; NULL arguments are passed as `null`. Returns a value of `resultType`. */
  invoke(args: SqlValue[]): SqlValue;
}

/** A lookup of user-defined scalar functions by name (case-insensitive, as Flink). */
export interface FunctionLookup {
  lookup(name: string): ResolvedScalarFunction | undefined;
  /** The user-defined aggregate function called `name`, for the planner's aggregations. */
  lookupAggregate?(name: string): ResolvedAggregateFunction | undefined;
  /** The registered names, for "did you mean" suggestions. */
  names(): Iterable<string>;
}

/** Options of {@link bindExpression}. */
export interface BindOptions {
  /** User-defined scalar functions, consulted after the built-in ones. */
  functions?: FunctionLookup;
  /**
   * The session time zone (`table.local-time-zone`): an IANA name or an
   * offset such as `+08:00`. Used to convert TIMESTAMP_LTZ to and from
   * TIMESTAMP, DATE and text, and for the current date/time functions. Default `UTC`.
   */
  timeZone?: string;
  /** The clock of CURRENT_TIMESTAMP, NOW, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME, PROCTIME: epoch ms. Default `Date.now`. */
  clock?: () => number;
}

/** {@link BindOptions} with defaults applied. */
export interface BindContext {
  functions: FunctionLookup | undefined;
  timeZone: string;
  clock: () => number;
}

/**
 * The options with their defaults.
 *
 * @throws RangeError for a time zone that is not an IANA name or an offset
 */
export function bindContext(options: BindOptions | undefined): BindContext {
  const timeZone = options?.timeZone ?? "UTC";
  timeZoneOffset(0, timeZone); // an unknown zone fails here, not on the first row
  return { functions: options?.functions, timeZone, clock: options?.clock ?? Date.now };
}

/** A type as error messages name it: without NOT NULL, as Flink's validator. */
export function showType(t: LogicalType): string {
  return typeToString(withNullable(t, true));
}

/** Whether any of `xs` is nullable. */
export function anyNullable(...xs: BoundExpr[]): boolean {
  return xs.some((x) => x.type.nullable);
}

/** A constant of the given type and value. */
export function constantExpr(type: LogicalType, value: SqlValue): BoundExpr {
  return { type, eval: withCode(() => value, { op: "literal", value }), constant: true };
}

/**
 * The evaluator of `b` with its values converted to `target`'s
 * representation (an implicit cast that the typing rules allow).
 */
export function coerce(b: BoundExpr, target: LogicalType, timeZone = "UTC"): Evaluator {
  const from = b.type;
  if (from.kind === "null" || sameRepresentation(from, target)) return b.eval;
  const cast = castFunction(from, target, timeZone);
  if (cast === undefined) throw new Error(`internal: no coercion from ${showType(from)} to ${showType(target)}`);
  return strictCall(cast, b.eval);
}

function sameRepresentation(a: LogicalType, b: LogicalType): boolean {
  if (showType(a) === showType(b)) return true;
  if (a.kind === "decimal" && b.kind === "decimal") return a.scale === b.scale && a.precision <= b.precision;
  const num = (k: string) => k === "tinyint" || k === "smallint" || k === "int";
  if (num(a.kind) && num(b.kind)) return rank(a.kind) <= rank(b.kind);
  if (num(a.kind) && b.kind === "bigint") return true; // a BIGINT that fits in a number is that number
  if (isStringType(a) && b.kind === "varchar") return true;
  if (a.kind === "timestamp" && b.kind === "timestamp") return a.withLocalTimeZone === b.withLocalTimeZone;
  return a.kind === b.kind && a.kind !== "char" && a.kind !== "array" && a.kind !== "map" && a.kind !== "row" && a.kind !== "multiset";
}

function rank(k: string): number {
  return k === "tinyint" ? 1 : k === "smallint" ? 2 : 3;
}

/**
 * Whether a value of type `from` may be passed where `to` is declared
 * without an explicit CAST: NULL, equal types, strings to strings, and
 * widening (a numeric type to a wider one, TIMESTAMP(p) to a higher precision).
 */
export function isImplicitlyCastable(from: LogicalType, to: LogicalType): boolean {
  if (from.kind === "null" || showType(from) === showType(to)) return true;
  if (isStringType(from) && isStringType(to)) return true;
  const common = commonType(from, to);
  return common !== undefined && showType(common) === showType(to);
}
