/**
 * Key groups: the unit of keyed state redistribution. A key hashes into one of
 * `maxParallelism` key groups; each parallel subtask owns a contiguous range of
 * them (Flink's `KeyGroupRangeAssignment`).
 */

import { canonicalKey } from "./canonical-key.ts";
import { flinkMurmurHash, murmur3String } from "./murmur-hash.ts";
import { stateKeyOf, type StateKey } from "./state-key.ts";

/** Default number of key groups (Flink's default for parallelism ≤ 128). */
export const DEFAULT_MAX_PARALLELISM = 128;

const float = new Float64Array(1);
const floatWords = new Int32Array(float.buffer);

/**
 * The 32-bit hash code of a finite number: the value itself when it is an
 * int32 (as Java's `Integer.hashCode`; `-0` is `0`), otherwise the two
 * halves of its IEEE-754 bits XORed (as Java's `Double.hashCode`; the XOR
 * makes it independent of the platform's byte order).
 */
function numberHashCode(n: number): number {
  if ((n | 0) === n) return n | 0;
  float[0] = n;
  return floatWords[0]! ^ floatWords[1]!;
}

/**
 * The 32-bit hash code of a state key (see {@link stateKeyOf}): numeric for
 * a number (an int32 is its own hash code, as an `Integer` key in Flink),
 * murmur3-32 (seed 0) over the UTF-8 bytes of the canonical string for any
 * other key (a plain string is its own canonical string). Deterministic
 * across threads and processes.
 *
 * @example
 * ```ts
 * hashCodeOfStateKey(42);     // 42
 * hashCodeOfStateKey("word"); // murmur3String("word") | 0
 * ```
 */
export function hashCodeOfStateKey(k: StateKey): number {
  switch (typeof k) {
    case "number":
      return numberHashCode(k);
    case "string":
      return murmur3String(k) | 0;
    default:
      return murmur3String(canonicalKey(k)) | 0;
  }
}

/** The key group of a hash code: Flink's `murmurHash(hashCode) % maxParallelism`. */
export function keyGroupOfHashCode(code: number, maxParallelism: number): number {
  return flinkMurmurHash(code) % maxParallelism;
}

/**
 * The key group of a state key: {@link keyGroupOfHashCode} of its {@link hashCodeOfStateKey}.
 *
 * @example
 * ```ts
 * keyGroupOfStateKey(stateKeyOf("word"), 128); // a number in 0..127
 * ```
 */
export function keyGroupOfStateKey(k: StateKey, maxParallelism: number): number {
  return keyGroupOfHashCode(hashCodeOfStateKey(k), maxParallelism);
}

/**
 * The key group of a key value: the one function the `keyBy` partitioner and
 * keyed state both use, so a key is routed to the subtask that owns its state.
 *
 * @throws UnsupportedKeyError for what is not a key
 * @example
 * ```ts
 * keyGroupOf(42, 128);         // 29
 * keyGroupOf(["a", 1], 128);   // 10
 * ```
 */
export function keyGroupOf(key: unknown, maxParallelism: number): number {
  return keyGroupOfStateKey(stateKeyOf(key), maxParallelism);
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
