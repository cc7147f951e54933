/**
 * The `p`-th percentile of `values` by the nearest-rank method: the smallest
 * value such that at least `p` percent of the values are less than or equal to
 * it. Returns `undefined` for an empty list. Does not modify `values`.
 *
 * @param values - the samples, in any order.
 * @param p - the percentile, from 0 to 100 (0 gives the minimum, 100 the maximum).
 *
 * @example
 * ```ts
 * const durations = coordinator.stats().history.completed.map((c) => c.durationMs);
 * console.log(`p50 ${percentile(durations, 50)} ms, p99 ${percentile(durations, 99)} ms`);
 * ```
 */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile: p must be between 0 and 100, got ${p}`);
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}
