/**
 * `AGG(DISTINCT x)`: counts each distinct value in the multiset (so a
 * retraction removes a value only when its last copy goes) and feeds the
 * inner function each distinct value once. `MIN`, `MAX`, `FIRST_VALUE` and
 * `LAST_VALUE` do not need it (DISTINCT does not change them).
 */
import { sqlValueKey } from "../../types/sql-value-key.ts";
import type { AggFunction } from "./agg-function.ts";

/**
 * The DISTINCT form of `inner` (which must not use counts itself).
 *
 * @example
 * ```ts
 * const f = distinctAgg(countAgg());
 * const counts = new Map<string, ValueCount>();
 * f.getValue(f.add(f.add(f.create(), "a", counts), "a", counts), counts); // 1n
 * ```
 */
export function distinctAgg<A>(inner: AggFunction<A>): AggFunction<A> {
  if (inner.usesCounts) throw new Error("a DISTINCT aggregate's inner function cannot keep a multiset itself");
  return {
    usesCounts: true,
    create: () => inner.create(),
    add(acc, v, counts) {
      const key = sqlValueKey(v);
      const e = counts.get(key);
      if (e === undefined) {
        counts.set(key, { value: v, count: 1 });
        return inner.add(acc, v, counts);
      }
      counts.set(key, { value: e.value, count: e.count + 1 });
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
      return inner.retract(acc, e.value, counts);
    },
    merge(acc, counts, _other, otherCounts) {
      for (const [key, o] of otherCounts.entries()) {
        const e = counts.get(key);
        if (e === undefined) {
          counts.set(key, { value: o.value, count: o.count });
          acc = inner.add(acc, o.value, counts);
        } else counts.set(key, { value: e.value, count: e.count + o.count });
      }
      return acc;
    },
    getValue: (acc, counts) => inner.getValue(acc, counts),
  };
}
