/**
 * The generated event-time data of the window and interval-join benchmarks,
 * as pure functions of a sequence number (no I/O, no clock), so the expected
 * results can be computed in closed form and every run sees the same data.
 *
 * `fromSequence(1, N)` at parallelism P hands each reader a contiguous range
 * of N / P numbers. `eventIndex` interleaves them: the k-th number of reader
 * i becomes event `k·P + i`, so all readers advance through event time
 * together (1 ms of event time per event) instead of reader 3 starting N·3/4
 * ms ahead of reader 0, which would hold every window open until the end.
 */

/** Event time of event 0 (2026-01-01T00:00:00Z): keeps every timestamp positive. */
export const EVENT_TIME_BASE = 1_767_225_600_000;

/**
 * The global event index (0-based) of sequence number `n` (1-based) of
 * `fromSequence(1, records)` split over `parallelism` readers.
 *
 * @throws RangeError when `records` is not a multiple of `parallelism` (the readers' ranges would differ in length)
 *
 * @example
 * ```ts
 * eventIndex(1, 8, 4); // 0 (first number of reader 0)
 * eventIndex(3, 8, 4); // 1 (first number of reader 1)
 * eventIndex(2, 8, 4); // 4 (second number of reader 0)
 * ```
 */
export function eventIndex(n: number, records: number, parallelism: number): number {
  if (records % parallelism !== 0) throw new RangeError(`eventIndex: ${records} records do not split evenly over ${parallelism} readers`);
  const perReader = records / parallelism;
  const i = n - 1;
  return (i % perReader) * parallelism + Math.floor(i / perReader);
}

/**
 * A deterministic pseudo-random integer in `[0, range)` for event `index`
 * and `seed` (an integer hash: the same inputs give the same value on every
 * run, thread and restore).
 *
 * @example
 * ```ts
 * const lag = seededOffset(42, 5_000, 1); // 0 ≤ lag < 5_000, always the same
 * ```
 */
export function seededOffset(index: number, range: number, seed: number): number {
  let h = Math.imul((index | 0) ^ Math.imul(seed, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h ^ Math.floor(index / 2 ** 32), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % range;
}
