/**
 * Key groups: the unit of keyed state redistribution. A key hashes into one of
 * `maxParallelism` key groups; each parallel subtask owns a contiguous range of
 * them (Flink's `KeyGroupRangeAssignment`).
 */

import { flinkMurmurHash, murmur3String } from "./murmur-hash.ts";

export { canonicalKey } from "./canonical-key.ts";

/** Default number of key groups (Flink's default for parallelism ≤ 128). */
export const DEFAULT_MAX_PARALLELISM = 128;

/**
 * The key group of a canonical key: murmur3-32 (seed 0) over the UTF-8 bytes of
 * the canonical string, then Flink's `murmurHash(hash) % maxParallelism`.
 * Deterministic across threads and processes.
 *
 * @example
 * ```ts
 * keyGroupOf(canonicalKey("word"), 128); // a number in 0..127
 * ```
 */
export function keyGroupOf(canonical: string, maxParallelism: number): number {
  return flinkMurmurHash(murmur3String(canonical) | 0) % maxParallelism;
}

function checkParallelism(maxParallelism: number, parallelism: number): void {
  if (!Number.isInteger(maxParallelism) || maxParallelism < 1) {
    throw new RangeError(`maxParallelism must be a positive integer, got ${maxParallelism}`);
  }
  if (!Number.isInteger(parallelism) || parallelism < 1 || parallelism > maxParallelism) {
    throw new RangeError(`parallelism must be an integer in [1, maxParallelism=${maxParallelism}], got ${parallelism}`);
  }
}

/**
 * Flink's `computeKeyGroupRangeForOperatorIndex`: the inclusive key-group range
 * `[start, end]` owned by subtask `subtaskIndex` of `parallelism`.
 *
 * @example
 * ```ts
 * keyGroupRangeForSubtask(128, 3, 0); // [0, 42]
 * ```
 */
export function keyGroupRangeForSubtask(
  maxParallelism: number,
  parallelism: number,
  subtaskIndex: number,
): readonly [number, number] {
  checkParallelism(maxParallelism, parallelism);
  if (!Number.isInteger(subtaskIndex) || subtaskIndex < 0 || subtaskIndex >= parallelism) {
    throw new RangeError(`subtaskIndex must be an integer in [0, ${parallelism - 1}], got ${subtaskIndex}`);
  }
  const start = Math.floor((subtaskIndex * maxParallelism + parallelism - 1) / parallelism);
  const end = Math.floor(((subtaskIndex + 1) * maxParallelism - 1) / parallelism);
  return [start, end];
}

/**
 * Flink's `computeOperatorIndexForKeyGroup`: the subtask that owns `keyGroup`,
 * `floor(keyGroup * parallelism / maxParallelism)`.
 *
 * @example
 * ```ts
 * subtaskForKeyGroup(128, 3, 42); // 0
 * ```
 */
export function subtaskForKeyGroup(maxParallelism: number, parallelism: number, keyGroup: number): number {
  return Math.floor((keyGroup * parallelism) / maxParallelism);
}
