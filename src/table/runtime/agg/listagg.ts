/**
 * `LISTAGG(x[, sep])`: the non-NULL values joined by the separator (`,` by
 * default), in the order they were added; NULL without values. The values
 * are kept in order so that a retraction removes one occurrence (the first,
 * as Flink's `ListAggWithRetractAggFunction`) and the result stays exact.
 */
import type { SqlValue } from "../../types/sql-value.ts";
import type { AggFunction } from "./agg-function.ts";

/** The values in order. */
export interface ListAcc {
  values: string[];
}

/**
 * `LISTAGG` with `separator`.
 *
 * @example
 * ```ts
 * const f = listAggAgg(";");
 * const counts = new Map<string, ValueCount>();
 * f.getValue(f.add(f.add(f.create(), "a", counts), "b", counts), counts); // "a;b"
 * ```
 */
export function listAggAgg(separator: string): AggFunction<ListAcc> {
  return {
    usesCounts: false,
    create: () => ({ values: [] }),
    add(acc, v) {
      acc.values.push(String(v));
      return acc;
    },
    retract(acc, v) {
      const i = acc.values.indexOf(String(v));
      if (i >= 0) acc.values.splice(i, 1);
      return acc;
    },
    merge(acc, _c, other) {
      for (const v of other.values) acc.values.push(v);
      return acc;
    },
    getValue: (acc: ListAcc): SqlValue => (acc.values.length === 0 ? null : acc.values.join(separator)),
  };
}
