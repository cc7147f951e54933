/**
 * `MIN(x)` and `MAX(x)` over any comparable type (`sqlCompare`). The
 * retractable form keeps every value with its count in the multiset (Flink's
 * `MinWithRetractAggFunction`) and the current extreme beside it: adding is
 * one comparison, retracting the extreme's last copy scans the multiset
 * once. The insert-only form keeps the extreme alone.
 */
import { sqlCompare } from "../../types/sql-compare.ts";
import type { SqlValue } from "../../types/sql-value.ts";
import { sqlValueKey } from "../../types/sql-value-key.ts";
import type { AggFunction } from "./agg-function.ts";
import type { ValueCounts } from "./value-counts.ts";

/** The current extreme (NULL without values). */
export interface ExtremeAcc {
  best: SqlValue;
}

/** True when `v` should replace `best` (`sign` 1 for MAX, -1 for MIN). */
function better(v: SqlValue, best: SqlValue, sign: number): boolean {
  return best === null || sqlCompare(v, best)! * sign > 0;
}

function rescan(counts: ValueCounts, sign: number): SqlValue {
  let best: SqlValue = null;
  for (const [, e] of counts.entries()) if (better(e.value, best, sign)) best = e.value;
  return best;
}

/**
 * `MIN` (`fn` "MIN") or `MAX`; `retractable` keeps the multiset of values.
 *
 * @example
 * ```ts
 * const f = minMaxAgg("MAX", true);
 * const counts = new Map<string, ValueCount>();
 * let acc = f.add(f.add(f.create(), 3, counts), 5, counts);
 * acc = f.retract(acc, 5, counts);
 * f.getValue(acc, counts); // 3
 * ```
 */
export function minMaxAgg(fn: "MIN" | "MAX", retractable: boolean): AggFunction<ExtremeAcc> {
  const sign = fn === "MAX" ? 1 : -1;
  if (!retractable) {
    return {
      usesCounts: false,
      create: () => ({ best: null }),
      add(acc, v) {
        if (better(v, acc.best, sign)) acc.best = v;
        return acc;
      },
      retract() {
        throw new Error(`${fn} was created insert-only and cannot retract`);
      },
      merge(acc, _c, other) {
        if (other.best !== null && better(other.best, acc.best, sign)) acc.best = other.best;
        return acc;
      },
      getValue: (acc) => acc.best,
    };
  }
  return {
    usesCounts: true,
    create: () => ({ best: null }),
    add(acc, v, counts) {
      const key = sqlValueKey(v);
      const e = counts.get(key);
      counts.set(key, { value: v, count: (e?.count ?? 0) + 1 });
      if (better(v, acc.best, sign)) acc.best = v;
      return acc;
    },
    retract(acc, v, counts) {
      const key = sqlValueKey(v);
      const e = counts.get(key);
      if (e === undefined) return acc;
      if (e.count > 1) {
        counts.set(key, { value: e.value, count: e.count - 1 });
        return acc;
      }
      counts.delete(key);
      if (acc.best !== null && sqlValueKey(acc.best) === key) acc.best = rescan(counts, sign);
      return acc;
    },
    merge(acc, counts, other, otherCounts) {
      for (const [key, o] of otherCounts.entries()) {
        const e = counts.get(key);
        counts.set(key, { value: e?.value ?? o.value, count: (e?.count ?? 0) + o.count });
      }
      if (other.best !== null && better(other.best, acc.best, sign)) acc.best = other.best;
      return acc;
    },
    getValue: (acc) => acc.best,
  };
}
