/**
 * One keyed state of the disk backend ({@link KeyedStateMap}): an index of
 * its cached entries in front of the store. Reads come from the cache, or
 * from the store (and are cached, absence too); writes go to the cache and
 * reach the store when the backend flushes or evicts (write-back-cache.ts). Every
 * write is recorded in the state's {@link ChangedKeys} exactly as the heap
 * map does (`set`, a `delete` of a present key, `getForUpdate`).
 */

import type { ChangedKeys } from "../incremental/changed-keys.ts";
import type { KeyedStateMap } from "../keyed-state-map.ts";
import { copyPlainData } from "../plain-copy.ts";
import type { StateKey } from "../state-key.ts";
import type { CacheEntry } from "./write-back-cache.ts";

/** What a {@link DiskKeyedStateMap} needs of its backend. */
export interface DiskMapHost {
  /** First key group of the backend's range (group index 0). */
  readonly firstKeyGroup: number;
  /** True while blobs are restored: writes bypass the cache. */
  readonly restoring: boolean;
  /** The stored value of `k` (decoded), or undefined. */
  readValue(map: DiskKeyedStateMap<unknown>, keyGroup: number, k: StateKey): unknown;
  /** Caches a new entry. */
  cache(e: CacheEntry): void;
  markDirty(e: CacheEntry): void;
  /** During a restore: writes (or, with undefined, deletes) `k` in a batch. */
  restoreWrite(map: DiskKeyedStateMap<unknown>, keyGroup: number, k: StateKey, v: unknown): void;
  /** Calls `fn` for every stored entry of `map` after writing the dirty cache entries, from the cached value where there is one. */
  scan(map: DiskKeyedStateMap<unknown>, fn: (v: unknown, k: StateKey, g: number) => void): void;
}

/**
 * A keyed state's entries on disk, cached.
 *
 * @example
 * ```ts
 * // created by DiskKeyedStateBackend.createMap; used through the state handles
 * map.set(g, "apple", code, 1);
 * map.get(g, "apple", code); // 1 (from the cache)
 * ```
 */
export class DiskKeyedStateMap<V> implements KeyedStateMap<V> {
  /** Cached entries of this state, by key. */
  readonly index = new Map<StateKey, CacheEntry>();

  constructor(
    private readonly host: DiskMapHost,
    readonly name: string,
    readonly stateId: number,
    private readonly changes: ChangedKeys | undefined,
  ) {}

  private load(g: number, k: StateKey): CacheEntry {
    const cached = this.index.get(k);
    if (cached !== undefined) {
      cached.hot = true;
      return cached;
    }
    const keyGroup = this.host.firstKeyGroup + g;
    const e: CacheEntry = {
      index: this.index,
      stateId: this.stateId,
      keyGroup,
      key: k,
      value: this.host.readValue(this as DiskKeyedStateMap<unknown>, keyGroup, k),
      dirty: false,
      hot: false,
      shared: false,
      unwritten: 0,
    };
    this.host.cache(e);
    return e;
  }

  get(g: number, k: StateKey, _code: number): V | undefined {
    return this.load(g, k).value as V | undefined;
  }

  peek(g: number, k: StateKey, _code: number): V | undefined {
    const cached = this.index.get(k);
    if (cached !== undefined) return cached.value as V | undefined;
    return this.host.readValue(this as DiskKeyedStateMap<unknown>, this.host.firstKeyGroup + g, k) as V | undefined;
  }

  getForUpdate(g: number, k: StateKey, code: number): V | undefined {
    this.changes?.record(g, k, code);
    const e = this.load(g, k);
    if (e.value !== undefined) {
      if (e.shared) {
        // a checkpoint's frozen generation still holds this object: change a copy
        if (typeof e.value === "object" && e.value !== null) e.value = copyPlainData(e.value);
        e.shared = false;
      }
      this.host.markDirty(e);
    }
    return e.value as V | undefined;
  }

  set(g: number, k: StateKey, code: number, v: V | undefined): void {
    if (v === undefined) return this.delete(g, k, code);
    this.changes?.record(g, k, code);
    if (this.host.restoring && !this.index.has(k)) return this.host.restoreWrite(this as DiskKeyedStateMap<unknown>, this.host.firstKeyGroup + g, k, v);
    const cached = this.index.get(k);
    if (cached !== undefined) {
      cached.value = v;
      cached.hot = true;
      cached.shared = false;
      this.host.markDirty(cached);
      return;
    }
    // No read needed: the new value replaces whatever is stored.
    this.host.cache({ index: this.index, stateId: this.stateId, keyGroup: this.host.firstKeyGroup + g, key: k, value: v, dirty: true, hot: false, shared: false, unwritten: 0 });
  }

  delete(g: number, k: StateKey, code: number): void {
    if (this.host.restoring && !this.index.has(k)) return this.host.restoreWrite(this as DiskKeyedStateMap<unknown>, this.host.firstKeyGroup + g, k, undefined);
    const e = this.load(g, k);
    if (e.value === undefined) return;
    this.changes?.record(g, k, code);
    e.value = undefined;
    e.shared = false;
    this.host.markDirty(e);
  }

  forEach(fn: (v: V, k: StateKey, g: number) => void): void {
    this.host.scan(this as DiskKeyedStateMap<unknown>, fn as (v: unknown, k: StateKey, g: number) => void);
  }
}
