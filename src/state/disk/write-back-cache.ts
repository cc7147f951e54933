/**
 * The bounded write-back cache of decoded values in front of the disk
 * backend's store, shared by all states of a backend.
 *
 * An entry is a key of one state with its decoded value (or `undefined`:
 * known absent, or deleted). Reads fill the cache; writes change the entry and
 * mark it dirty without touching the store; `getForUpdate` marks the entry
 * dirty too, because the caller mutates the returned object in place. Dirty
 * entries reach the store in batches: when a snapshot flushes them, and when
 * eviction drops them.
 *
 * Eviction is second-chance FIFO: entries sit in insertion order, a read
 * sets the entry's `hot` bit, and eviction moves a hot entry to the back
 * (clearing the bit) instead of evicting it. It runs only when the backend
 * switches to another key (and evicts a batch of an eighth of the capacity
 * at once, written in one transaction), never while a record is processed:
 * an object handed out by `getForUpdate` stays the cached one until the key
 * changes. Each eviction round bumps `evictions`, so a holder of such an
 * object across records knows to fetch it again.
 */

import type { StateKey } from "../state-key.ts";

/** One cached key of one state. */
export interface CacheEntry {
  /** The state's index of cached entries, to drop the entry from on eviction. */
  readonly index: Map<StateKey, CacheEntry>;
  /** The state's id in store keys. */
  readonly stateId: number;
  /** Key group (absolute) of the key. */
  readonly keyGroup: number;
  readonly key: StateKey;
  /** Decoded value; undefined when the key has no value. */
  value: unknown;
  dirty: boolean;
  hot: boolean;
}

/**
 * Second-chance FIFO cache with dirty tracking.
 *
 * @example
 * ```ts
 * const cache = new WriteBackCache(10, (dirty) => writeToStore(dirty));
 * cache.add(entry);
 * cache.markDirty(entry);
 * if (cache.overCapacity) cache.evict();   // writes the dirty victims in one batch
 * cache.flush();                           // writes every dirty entry, all stay cached
 * ```
 */
export class WriteBackCache {
  private readonly order = new Set<CacheEntry>();
  private readonly dirty = new Set<CacheEntry>();
  /** Eviction rounds so far. */
  evictions = 0;

  /**
   * @param capacity entries kept once a key's processing is over (at least 1)
   * @param writeOut writes dirty entries to the store in one batch (with the marker of a snapshot's flush)
   */
  constructor(
    readonly capacity: number,
    private readonly writeOut: (entries: readonly CacheEntry[], marker?: unknown) => void,
  ) {
    if (!(Number.isInteger(capacity) && capacity >= 1)) throw new RangeError(`cacheEntries must be an integer ≥ 1, got ${capacity}`);
  }

  /** Entries cached. */
  get size(): number {
    return this.order.size;
  }

  /** Dirty entries cached. */
  get dirtyCount(): number {
    return this.dirty.size;
  }

  get overCapacity(): boolean {
    return this.order.size > this.capacity;
  }

  add(e: CacheEntry): void {
    this.order.add(e);
    e.index.set(e.key, e);
    if (e.dirty) this.dirty.add(e);
  }

  markDirty(e: CacheEntry): void {
    if (e.dirty) return;
    e.dirty = true;
    this.dirty.add(e);
  }

  /** Evicts down to capacity minus an eighth, writing the dirty victims in one batch first. */
  evict(): void {
    const target = this.capacity - (this.capacity >> 3);
    const victims: CacheEntry[] = [];
    const toWrite: CacheEntry[] = [];
    let excess = this.order.size - target;
    for (const e of this.order) {
      if (excess <= 0) break;
      if (e.hot) {
        e.hot = false;
        this.order.delete(e);
        this.order.add(e); // visited again by this loop, then cold
        continue;
      }
      victims.push(e);
      if (e.dirty) toWrite.push(e);
      excess--;
    }
    this.writeOut(toWrite); // before dropping anything: a failed write loses nothing
    for (const e of victims) {
      this.order.delete(e);
      this.dirty.delete(e);
      e.index.delete(e.key);
      e.dirty = false;
    }
    this.evictions++;
  }

  /** Writes every dirty entry in one batch (with `marker`, when given); all stay cached, clean. */
  flush(marker?: unknown): void {
    const entries = [...this.dirty];
    this.writeOut(entries, marker);
    for (const e of entries) e.dirty = false;
    this.dirty.clear();
  }

  /** Drops every entry without writing (the backend is disposed, or the store cleared). */
  clear(): void {
    for (const e of this.order) e.index.delete(e.key);
    this.order.clear();
    this.dirty.clear();
  }
}
