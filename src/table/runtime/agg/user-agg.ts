/**
 * A planned call of a user-defined aggregate function over input rows:
 * skips the rows its `FILTER` rejects, passes every other row's argument
 * values (NULLs included, as Flink does) to the function, and applies
 * `DISTINCT` to the argument tuples as for built-ins. The accumulator is the
 * function's own plain data; object arguments are copied, so the function
 * may keep them in its accumulator.
 */
import { copyPlainData } from "../../../state/plain-copy.ts";
import { SqlRuntimeError } from "../../expr/sql-runtime-error.ts";
import type { ResolvedAggregateFunction } from "../../functions/aggregate-function.ts";
import type { SqlValue } from "../../types/sql-value.ts";
import type { AggregateCall } from "../aggregate-call.ts";
import type { AggFunction } from "./agg-function.ts";
import type { CallAggregator } from "./call-aggregator.ts";
import { distinctAgg } from "./distinct.ts";

function argsOf(args: readonly number[], fields: readonly SqlValue[]): SqlValue[] {
  const values = new Array<SqlValue>(args.length);
  for (let i = 0; i < args.length; i++) {
    const v = fields[args[i]!] ?? null;
    values[i] = typeof v === "object" && v !== null ? copyPlainData(v) : v;
  }
  return values;
}

/** The function over argument tuples (an array of the argument values). */
function userAgg(udf: ResolvedAggregateFunction): AggFunction<unknown> {
  return {
    usesCounts: false,
    create: () => udf.createAccumulator(),
    add(acc, v) {
      udf.accumulate(acc, v as SqlValue[]);
      return acc;
    },
    retract(acc, v) {
      if (udf.retract === undefined) {
        throw new SqlRuntimeError(`Aggregate function '${udf.name}' has no retract method, which it needs over an updating input or a bounded OVER frame`);
      }
      udf.retract(acc, v as SqlValue[]);
      return acc;
    },
    merge(acc, _counts, other) {
      if (udf.merge === undefined) {
        throw new SqlRuntimeError(`Aggregate function '${udf.name}' has no merge method, which it needs in HOP, CUMULATE and SESSION windows`);
      }
      udf.merge(acc, [copyPlainData(other)]);
      return acc;
    },
    getValue: (acc) => udf.getValue(acc),
  };
}

/**
 * The accumulator operations of a call with `fn` `USER`.
 *
 * @example
 * ```ts
 * const agg = userCallAggregator(call); // call.udf: a resolved WeightedAvg
 * let acc = agg.create();
 * acc = agg.accumulate(acc, ["Mary", 4.0, 2], new Map());
 * agg.getValue(acc, new Map()); // 4
 * ```
 */
export function userCallAggregator(call: AggregateCall): CallAggregator {
  const udf = call.udf;
  if (udf === undefined) throw new Error(`the aggregate call ${call.text} has no user-defined function`);
  const inner = userAgg(udf);
  const f = call.distinct ? distinctAgg(inner) : inner;
  const args = call.args;
  const filter = call.filterArg;
  return {
    call,
    usesCounts: f.usesCounts,
    create: () => f.create(),
    accumulate(acc, fields, c) {
      return filter !== undefined && fields[filter] !== true ? acc : f.add(acc, argsOf(args, fields), c);
    },
    retract(acc, fields, c) {
      return filter !== undefined && fields[filter] !== true ? acc : f.retract(acc, argsOf(args, fields), c);
    },
    merge: (acc, c, other, oc) => f.merge(acc, c, other, oc),
    getValue: (acc, c) => f.getValue(acc, c),
  };
}
