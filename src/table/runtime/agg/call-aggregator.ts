/**
 * One planned {@link AggregateCall} over input rows: reads its argument
 * fields, skips the rows its `FILTER` rejects and the NULL arguments (all
 * aggregates but `COUNT(*)` ignore NULLs), applies `DISTINCT`, and delegates
 * to the built-in function's accumulator.
 */
import type { AggregateCall } from "../aggregate-call.ts";
import type { SqlValue } from "../../types/sql-value.ts";
import type { AggFunction } from "./agg-function.ts";
import { countAgg } from "./count.ts";
import { distinctAgg } from "./distinct.ts";
import { firstLastValueAgg } from "./first-last-value.ts";
import { listAggAgg } from "./listagg.ts";
import { minMaxAgg } from "./min-max.ts";
import { avgAgg, sumAgg } from "./numeric-sum.ts";
import type { ValueCounts } from "./value-counts.ts";
import { userCallAggregator } from "./user-agg.ts";

/** An aggregate call's accumulator operations over whole input rows. */
export interface CallAggregator {
  readonly call: AggregateCall;
  /** True when the call keeps a multiset of values (retractable MIN/MAX, DISTINCT): pass it to every method. */
  readonly usesCounts: boolean;
  create(): unknown;
  /** Adds the row (when it counts for this call); returns the accumulator to keep. */
  accumulate(acc: unknown, fields: readonly SqlValue[], counts: ValueCounts): unknown;
  /** Removes the row (when it counts for this call); returns the accumulator to keep. */
  retract(acc: unknown, fields: readonly SqlValue[], counts: ValueCounts): unknown;
  /** Adds `other` (later rows) into `acc` (see {@link AggFunction.merge}). */
  merge(acc: unknown, counts: ValueCounts, other: unknown, otherCounts: ValueCounts): unknown;
  getValue(acc: unknown, counts: ValueCounts): SqlValue;
}

/** Options of {@link callAggregator}. */
export interface CallAggregatorOptions {
  /** Whether rows will be retracted (group and bounded OVER aggregation); insert-only MIN/MAX then keep no multiset. */
  retractable: boolean;
}

function builtin(call: AggregateCall, retractable: boolean): AggFunction<unknown> {
  const argType = call.argTypes[0] ?? call.resultType;
  let f: AggFunction<unknown>;
  switch (call.fn) {
    case "COUNT":
      f = countAgg() as AggFunction<unknown>;
      break;
    case "SUM":
    case "SUM0":
      f = sumAgg(call.resultType, call.fn === "SUM0") as AggFunction<unknown>;
      break;
    case "AVG":
      f = avgAgg(argType, call.resultType) as AggFunction<unknown>;
      break;
    case "LISTAGG":
      f = listAggAgg(call.separator ?? ",") as AggFunction<unknown>;
      break;
    case "MIN":
    case "MAX":
      return minMaxAgg(call.fn, retractable) as AggFunction<unknown>;
    case "FIRST_VALUE":
    case "LAST_VALUE":
      return firstLastValueAgg(call.fn, retractable) as AggFunction<unknown>;
    case "USER":
      throw new Error("a user-defined aggregate call has its own aggregator");
  }
  return call.distinct ? distinctAgg(f) : f;
}

/** The argument value of a row for the call: `true` for `COUNT(*)`, the field, or the fields as an array; null when a field is NULL. */
function argumentOf(args: readonly number[]): (fields: readonly SqlValue[]) => SqlValue {
  if (args.length === 0) return () => true;
  if (args.length === 1) {
    const a = args[0]!;
    return (fields) => fields[a] ?? null;
  }
  return (fields) => {
    const values: SqlValue[] = [];
    for (const a of args) {
      const v = fields[a] ?? null;
      if (v === null) return null;
      values.push(v);
    }
    return values;
  };
}

/**
 * The accumulator operations of `call`.
 *
 * @example
 * ```ts
 * const count = callAggregator({ fn: "COUNT", args: [1], argTypes: [STRING], distinct: true, resultType: BIGINT, text: "COUNT(DISTINCT url)" }, { retractable: true });
 * const counts = new Map<string, ValueCount>();
 * let acc = count.create();
 * acc = count.accumulate(acc, ["Mary", "/home"], counts);
 * acc = count.accumulate(acc, ["Mary", "/home"], counts);
 * count.getValue(acc, counts); // 1n
 * ```
 */
export function callAggregator(call: AggregateCall, options: CallAggregatorOptions): CallAggregator {
  if (call.fn === "USER") return userCallAggregator(call);
  const f = builtin(call, options.retractable);
  const arg = argumentOf(call.args);
  const filter = call.filterArg;
  const valueOf = (fields: readonly SqlValue[]): SqlValue => {
    if (filter !== undefined && fields[filter] !== true) return null;
    return arg(fields);
  };
  return {
    call,
    usesCounts: f.usesCounts,
    create: () => f.create(),
    accumulate(acc, fields, c) {
      const v = valueOf(fields);
      return v === null ? acc : f.add(acc, v, c);
    },
    retract(acc, fields, c) {
      const v = valueOf(fields);
      return v === null ? acc : f.retract(acc, v, c);
    },
    merge: (acc, c, other, oc) => f.merge(acc, c, other, oc),
    getValue: (acc, c) => f.getValue(acc, c),
  };
}
