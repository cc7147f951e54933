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
 * (clearing the bit) instead of evicting it; clean entries go before dirty
 * ones. It runs only when the backend switches to another key (and evicts a
 * batch of an eighth of the capacity at once, the dirty victims written in
 * one transaction), never while a record is processed:
 * an object handed out by `getForUpdate` stays the cached one until the key
 * changes. Each eviction round that drops entries bumps `evictions`, so a holder of such an
 * object across records knows to fetch it again.
 *
 * A checkpoint does not write the dirty entries at its barrier: it freezes
 * them ({@link WriteBackCache.freeze}: the entries with their values of that
 * moment, O(dirty) pointer work) and starts a fresh dirty set; the frozen
 * generation is written afterwards, in slices (checkpoint-flush.ts). A frozen
 * entry's value object is `shared` with its generation until the entry is
 * written again: `getForUpdate` then hands out a copy (copy on write), so a
 * change in place after the barrier never reaches the checkpoint. Until its
 * generation's flush wrote it, a frozen entry is `unwritten` and stays
 * cached, so reads never need the generation; while a flush is in flight the
 * backend evicts only entries whose value is in the store
 * ({@link WriteBackCache.evictWritten}): their keys are read anew from it.
 */

import type { StateKey } from "../state-key.ts";

/** Entries an eviction round takes beyond an eighth of the capacity, at most: more than one key's processing adds. */
const EVICT_SLACK = 1_024;

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
  /** The value object is also held by a frozen generation not yet written: copy it before a change in place. */
  shared: boolean;
  /**
   * The generation (see {@link FrozenEntries.generation}) whose frozen value
   * of this key is not yet in the store, or 0: while it is not, the entry is
   * the only place its value is read from, and is not evicted.
   */
  unwritten: number;
}

/** Dirty entries frozen at a checkpoint's barrier, with their values of that moment. */
export interface FrozenEntries {
  /** Which freeze of the cache took them (1, 2, …). */
  readonly generation: number;
  readonly entries: readonly CacheEntry[];
  readonly values: readonly unknown[];
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
 * const frozen = cache.freeze();            // a barrier: the dirty entries and their values, all now clean
 * cache.written(frozen, 0, frozen.entries.length); // its flush wrote them: they may be evicted
 * if (cache.overCapacity) cache.evictWritten(); // during a flush: evicts written clean entries, writes nothing
 * ```
 */
export class WriteBackCache {
  private readonly order = new Set<CacheEntry>();
  private dirty = new Set<CacheEntry>();
  /** Eviction rounds that evicted something, so far. */
  evictions = 0;
  /** Generations frozen so far. */
  freezes = 0;
  /** Size below which {@link evictWritten} does nothing (its last call found too few victims). */
  private stalledAt = 0;

  /**
   * @param capacity entries kept once a key's processing is over (at least 1)
   * @param writeOut writes dirty entries to the store in one batch
   */
  constructor(
    readonly capacity: number,
    private readonly writeOut: (entries: readonly CacheEntry[]) => void,
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

  /**
   * Evicts down to capacity minus an eighth, at most an eighth of the
   * capacity plus {@link EVICT_SLACK} entries per call (a cache that grew
   * while a checkpoint's flush was in flight shrinks over several calls
   * rather than in one long write): entries whose value is in the store
   * first, oldest first, then, if too few, dirty ones, written in one batch
   * first. Keeping the dirty ones while clean ones can go means the next
   * checkpoint's flush writes them once, where eviction would write them to
   * the overlay and that flush again.
   */
  evict(): void {
    const excess = this.evictSome(Math.min(this.order.size - this.target, (this.capacity >> 3) + EVICT_SLACK), false);
    if (excess > 0) this.evictSome(excess, true);
  }

  /**
   * Evicts like {@link evict}, but only entries whose value is in the store
   * (clean, not {@link CacheEntry.unwritten}), writing nothing: while a
   * checkpoint's flush is in flight nothing else may write to the store. When
   * too few are found, further calls do nothing until the cache grew by
   * another eighth of its capacity or the flush wrote entries
   * ({@link written}): a cache full of dirty entries is not walked per key.
   */
  evictWritten(): void {
    if (this.order.size < this.stalledAt) return;
    if (this.evictSome(Math.min(this.order.size - this.target, (this.capacity >> 3) + EVICT_SLACK), false) > 0) {
      this.stalledAt = this.order.size + (this.capacity >> 3);
    }
  }

  /** Size eviction brings the cache down to. */
  private get target(): number {
    return this.capacity - (this.capacity >> 3);
  }

  /** Evicts up to `excess` entries, oldest first: dirty ones too (written first) if `dirtyToo`. Returns how many it fell short. */
  private evictSome(excess: number, dirtyToo: boolean): number {
    const victims: CacheEntry[] = [];
    const toWrite: CacheEntry[] = [];
    for (const e of this.order) {
      if (excess <= 0) break;
      if (e.hot) {
        e.hot = false;
        this.order.delete(e);
        this.order.add(e); // visited again by this loop, then cold
        continue;
      }
      if (e.unwritten !== 0 || (e.dirty && !dirtyToo)) continue;
      victims.push(e);
      if (e.dirty) toWrite.push(e);
      excess--;
    }
    if (toWrite.length > 0) this.writeOut(toWrite); // before dropping anything: a failed write loses nothing
    for (const e of victims) {
      this.order.delete(e);
      this.dirty.delete(e);
      e.index.delete(e.key);
      e.dirty = false;
    }
    if (victims.length > 0) this.evictions++;
    return excess;
  }

  /** Writes every dirty entry in one batch; all stay cached, clean. */
  flush(): void {
    const entries = [...this.dirty];
    this.writeOut(entries);
    for (const e of entries) e.dirty = false;
    this.dirty.clear();
  }

  /**
   * A checkpoint's barrier: takes the dirty entries with their current values
   * and marks them clean, `shared` and `unwritten` by this generation; a
   * fresh dirty set starts. O(dirty), nothing encoded or written.
   */
  freeze(): FrozenEntries {
    const generation = ++this.freezes;
    const entries = [...this.dirty];
    const values = new Array<unknown>(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      values[i] = e.value;
      e.dirty = false;
      e.shared = true;
      e.unwritten = generation;
    }
    this.dirty = new Set();
    return { generation, entries, values };
  }

  /**
   * Entries `from` (inclusive) to `to` (exclusive) of a frozen generation are
   * in the store: those not frozen again by a newer generation may be evicted
   * (their clean value is the stored one).
   */
  written(frozen: FrozenEntries, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const e = frozen.entries[i]!;
      if (e.unwritten === frozen.generation) e.unwritten = 0;
    }
    this.stalledAt = 0;
  }

  /**
   * A frozen generation (from entry `from` on) could not be written: its
   * entries are dirty again (a clean one still holds its frozen value, or a
   * copy of it), so the next flush or eviction writes them.
   */
  refreeze(frozen: FrozenEntries, from: number): void {
    for (let i = from; i < frozen.entries.length; i++) {
      const e = frozen.entries[i]!;
      e.unwritten = 0;
      if (e.index.get(e.key) === e) this.markDirty(e);
    }
  }

  /** Drops every entry without writing (the backend is disposed, or the store cleared). */
  clear(): void {
    for (const e of this.order) e.index.delete(e.key);
    this.order.clear();
    this.dirty.clear();
  }
}
