/**
 * `FIRST_VALUE(x)` and `LAST_VALUE(x)`: the first or last non-NULL value in
 * the order rows were added (NULL without values). The retractable form keeps
 * all values in order, and a retraction removes the first occurrence of the
 * value; the insert-only form keeps one value.
 */
import type { SqlValue } from "../../types/sql-value.ts";
import { sqlValueKey } from "../../types/sql-value-key.ts";
import type { AggFunction } from "./agg-function.ts";

/** The values in order (retractable), or the one value kept (insert-only). */
export interface OrderedValuesAcc {
  values: SqlValue[];
}

/**
 * `FIRST_VALUE` (`fn` "FIRST_VALUE") or `LAST_VALUE`.
 *
 * @example
 * ```ts
 * const f = firstLastValueAgg("LAST_VALUE", true);
 * const counts = new Map<string, ValueCount>();
 * f.getValue(f.add(f.add(f.create(), 1, counts), 2, counts), counts); // 2
 * ```
 */
export function firstLastValueAgg(fn: "FIRST_VALUE" | "LAST_VALUE", retractable: boolean): AggFunction<OrderedValuesAcc> {
  const first = fn === "FIRST_VALUE";
  return {
    usesCounts: false,
    create: () => ({ values: [] }),
    add(acc, v) {
      if (retractable) acc.values.push(v);
      else if (!first || acc.values.length === 0) acc.values[0] = v;
      return acc;
    },
    retract(acc, v) {
      const key = sqlValueKey(v);
      const i = acc.values.findIndex((x) => sqlValueKey(x) === key);
      if (i >= 0) acc.values.splice(i, 1);
      return acc;
    },
    merge(acc, _c, other) {
      if (retractable) for (const v of other.values) acc.values.push(v);
      else if (other.values.length > 0 && (!first || acc.values.length === 0)) acc.values[0] = other.values[0]!;
      return acc;
    },
    getValue(acc) {
      const n = acc.values.length;
      return n === 0 ? null : first ? acc.values[0]! : acc.values[n - 1]!;
    },
  };
}
