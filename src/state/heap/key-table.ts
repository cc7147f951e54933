/**
 * A hash table from state key to value for one key group: open addressing
 * with linear probing over one array of `[key, value]` pairs, indexed by the
 * key's hash code (which the backend computes once per record for the key
 * group anyway, so a lookup hashes nothing).
 *
 * Why not a `Map`: with a million keys a lookup misses the CPU caches, and a
 * `Map` (a bucket array, then a chain of entries) may miss more than once
 * where neighbouring pairs of one array miss about once; a `set` right after
 * a `get` of the same key (read-modify-write) also skips the probe. The
 * keyed count at 1 000 000 keys ran 6 % faster without checkpoints and 14 %
 * with (medians of alternating runs), the same at 10 000 keys within the
 * noise: see docs/benchmarks.md.
 */

import { hashCodeOfStateKey } from "../key-groups.ts";
import type { StateKey } from "../state-key.ts";

/** A deleted pair's key: lookups probe past it, inserts may reuse it. */
const DELETED: unique symbol = Symbol("weir.deleted");
/** Golden-ratio multiplier of Fibonacci hashing: spreads sequential hash codes over the table. */
const FIBONACCI = 0x9e3779b9 | 0;
const MIN_CAPACITY = 8;

/**
 * Open-addressing hash table keyed by {@link StateKey}, with the key's hash
 * code ({@link hashCodeOfStateKey}) passed in by the caller.
 *
 * @example
 * ```ts
 * const t = new KeyTable<number>();
 * t.set("a", hashCodeOfStateKey("a"), 1);
 * t.get("a", hashCodeOfStateKey("a")); // 1
 * ```
 */
export class KeyTable<V> {
  /** `[key0, value0, key1, value1, …]`; an empty pair has key undefined. */
  private pairs: unknown[];
  private capacity: number;
  /** `32 - log2(capacity)`: Fibonacci hashing keeps the top bits. */
  private shift: number;
  private live = 0;
  /** Live and deleted pairs (what lengthens probes). */
  private used = 0;
  /** Index of the pair the last `get` found: a `set` of the same key (read, then update) writes there without probing. */
  private last = 0;

  constructor() {
    this.capacity = MIN_CAPACITY;
    this.shift = 32 - Math.log2(MIN_CAPACITY);
    this.pairs = emptyPairs(MIN_CAPACITY);
  }

  /** Number of keys. */
  get size(): number {
    return this.live;
  }

  /** The value of `k` (whose hash code is `code`), or undefined. */
  get(k: StateKey, code: number): V | undefined {
    const pairs = this.pairs;
    const mask = this.capacity - 1;
    for (let i = Math.imul(code, FIBONACCI) >>> this.shift; ; i = (i + 1) & mask) {
      const x = pairs[2 * i];
      if (x === k) {
        this.last = i;
        return pairs[2 * i + 1] as V;
      }
      if (x === undefined) return undefined;
    }
  }

  /** True when `k` has a value. */
  has(k: StateKey, code: number): boolean {
    return this.get(k, code) !== undefined;
  }

  /** Sets the value of `k` (never undefined: use {@link delete}). */
  set(k: StateKey, code: number, v: V): void {
    const pairs = this.pairs;
    if (pairs[2 * this.last] === k) {
      pairs[2 * this.last + 1] = v; // keys are unique: where k is, is k's pair
      return;
    }
    const mask = this.capacity - 1;
    let free = -1;
    let i = Math.imul(code, FIBONACCI) >>> this.shift;
    for (; ; i = (i + 1) & mask) {
      const x = pairs[2 * i];
      if (x === k) {
        pairs[2 * i + 1] = v;
        return;
      }
      if (x === undefined) break;
      if (x === DELETED && free < 0) free = i;
    }
    if (free >= 0) i = free;
    else this.used++;
    pairs[2 * i] = k;
    pairs[2 * i + 1] = v;
    this.live++;
    if (this.used * 4 > this.capacity * 3) this.rehash();
  }

  /** Deletes `k`; true when it had a value. */
  delete(k: StateKey, code: number): boolean {
    const pairs = this.pairs;
    const mask = this.capacity - 1;
    for (let i = Math.imul(code, FIBONACCI) >>> this.shift; ; i = (i + 1) & mask) {
      const x = pairs[2 * i];
      if (x === undefined) return false;
      if (x === k) {
        // A pair followed by an empty one ends no probe sequence: it becomes empty, not deleted.
        const end = pairs[2 * ((i + 1) & mask)] === undefined;
        pairs[2 * i] = end ? undefined : DELETED;
        pairs[2 * i + 1] = undefined;
        if (end) this.used--;
        this.live--;
        return true;
      }
    }
  }

  /** Calls `fn` for every pair (in table order, not insertion order). */
  forEach(fn: (v: V, k: StateKey) => void): void {
    const pairs = this.pairs;
    for (let i = 0; i < pairs.length; i += 2) {
      const x = pairs[i];
      if (x !== undefined && x !== DELETED) fn(pairs[i + 1] as V, x as StateKey);
    }
  }

  /** The keys and the values, in the same (table) order. */
  columns(): [keys: StateKey[], values: V[]] {
    const keys = new Array<StateKey>(this.live);
    const values = new Array<V>(this.live);
    let n = 0;
    const pairs = this.pairs;
    for (let i = 0; i < pairs.length; i += 2) {
      const x = pairs[i];
      if (x !== undefined && x !== DELETED) {
        keys[n] = x as StateKey;
        values[n++] = pairs[i + 1] as V;
      }
    }
    return [keys, values];
  }

  /**
   * The keys and the values as number columns, in one pass over the table,
   * when every key and every value is a number (else undefined): an
   * `Int32Array` for a column of int32 numbers (`-0` is not one), a
   * `Float64Array` for any other numbers. Same order as {@link columns}.
   * The running counts of a keyed count encode from these without an array
   * of boxed entries in between. The `Int32Array`s are views of scratch
   * buffers shared by all tables: valid until the next call (copy them out).
   */
  numberColumns(): [keys: Int32Array | Float64Array, values: Int32Array | Float64Array] | undefined {
    const pairs = this.pairs;
    if (scratchKeys.length < this.live) {
      scratchKeys = new Int32Array(this.live * 2);
      scratchValues = new Int32Array(this.live * 2);
    }
    let keys: Int32Array | Float64Array = scratchKeys.subarray(0, this.live);
    let values: Int32Array | Float64Array = scratchValues.subarray(0, this.live);
    let keyInts = true;
    let valueInts = true;
    let n = 0;
    for (let i = 0; i < pairs.length; i += 2) {
      const k = pairs[i];
      if (k === undefined || k === DELETED) continue;
      const v = pairs[i + 1];
      if (typeof k !== "number" || typeof v !== "number") return undefined;
      if (keyInts && !isInt32(k)) {
        keys = Float64Array.from(keys);
        keyInts = false;
      }
      if (valueInts && !isInt32(v)) {
        values = Float64Array.from(values);
        valueInts = false;
      }
      keys[n] = k;
      values[n++] = v;
    }
    return [keys, values];
  }

  /**
   * Makes room for `n` more keys at once. Restoring a snapshot inserts keys in
   * the table order of the table they came from, that is ordered by hash:
   * inserted so into a smaller table they pile up in one probe run (quadratic
   * time); into a table of the final size each lands where it belongs.
   */
  reserve(n: number): void {
    let capacity = this.capacity;
    while ((this.live + n) * 8 > capacity * 3) capacity *= 2;
    if (capacity !== this.capacity) this.rebuild(capacity);
  }

  /** Rebuilds the table without deleted pairs, twice as large when more than 3/8 full. */
  private rehash(): void {
    this.rebuild(this.live * 8 > this.capacity * 3 ? this.capacity * 2 : this.capacity);
  }

  /** Re-inserts the live pairs into an empty table of `capacity` pairs (a power of two). */
  private rebuild(capacity: number): void {
    const old = this.pairs;
    this.shift -= Math.log2(capacity / this.capacity);
    this.capacity = capacity;
    this.pairs = emptyPairs(capacity);
    this.live = 0;
    this.used = 0;
    for (let i = 0; i < old.length; i += 2) {
      const x = old[i];
      if (x !== undefined && x !== DELETED) this.set(x as StateKey, hashCodeOfStateKey(x as StateKey), old[i + 1] as V);
    }
  }
}

/** Reused by {@link KeyTable.numberColumns} (a checkpoint encodes every key group: no new buffers per group). */
let scratchKeys = new Int32Array(1024);
let scratchValues = new Int32Array(1024);

/** True for an int32 number other than `-0` (which an `Int32Array` would turn into 0). */
function isInt32(x: number): boolean {
  return (x | 0) === x && (x !== 0 || 1 / x > 0);
}

function emptyPairs(capacity: number): unknown[] {
  return new Array<unknown>(2 * capacity).fill(undefined);
}
