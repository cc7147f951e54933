/**
 * `COUNT(*)` and `COUNT(x)`: the number of rows (the caller passes only the
 * rows that count: all for `COUNT(*)`, those with non-NULL arguments
 * otherwise). The result is a number: a count is a safe integer, and a
 * BIGINT that is one is a `number` (see `types/bigint-value.ts`), as is a
 * count typed as a smaller integer.
 */
import type { AggFunction } from "./agg-function.ts";

/**
 * `COUNT`.
 *
 * @example
 * ```ts
 * const f = countAgg();
 * const counts = new Map<string, ValueCount>();
 * f.getValue(f.add(f.create(), "x", counts), counts); // 1
 * ```
 */
export function countAgg(): AggFunction<number> {
  return {
    usesCounts: false,
    create: () => 0,
    add: (n) => n + 1,
    retract: (n) => n - 1,
    merge: (n, _c, m) => n + m,
    getValue: (n) => n,
  };
}
