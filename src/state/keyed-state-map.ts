/**
 * The storage of one keyed state inside a keyed state backend: a map from
 * state key to value per key group of the backend's range. The heap backend
 * keeps it in JavaScript maps ({@link KeyGroupedMap}); the disk backend in an
 * embedded store behind a cache. The state handles (keyed-states.ts) read and
 * write only through this interface.
 */

import type { StateKey } from "./state-key.ts";

/**
 * One keyed state's entries. `g` is the index of the key's group in the
 * backend's range, `code` the key's hash code (computed once per record).
 */
export interface KeyedStateMap<V> {
  /** The stored value of `k`, or undefined; the caller must not mutate it. Never stores undefined. */
  get(g: number, k: StateKey, code: number): V | undefined;
  /** As `get`, without keeping the value in a cache (a snapshot reading many keys once); `get` where there is none. */
  peek?(g: number, k: StateKey, code: number): V | undefined;
  /** The stored value of `k`, which the caller may mutate in place (counts as a write). */
  getForUpdate(g: number, k: StateKey, code: number): V | undefined;
  /** Sets `k`; `undefined` deletes. */
  set(g: number, k: StateKey, code: number, v: V | undefined): void;
  delete(g: number, k: StateKey, code: number): void;
  /** Makes room for `n` more keys in group index `g` (a restore is about to add them); a hint. */
  reserve?(g: number, n: number): void;
  /** Calls `fn` for every entry, group by group. */
  forEach(fn: (v: V, k: StateKey, g: number) => void): void;
}
