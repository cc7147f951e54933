/**
 * Keyed state on local disk: an LMDB store per backend (one operator
 * subtask) behind a bounded write-back cache of decoded values, for state
 * larger than memory. Same contract and snapshot format as the heap backend
 * (see {@link KeyedStateBackend}); layout, cache, snapshots and local
 * recovery are described in docs/architecture.md ("The disk backend").
 */

import { randomUUID } from "node:crypto";
import type { StateKind } from "../descriptors.ts";
import { StateRestoreError, UnsupportedKeyError } from "../errors.ts";
import { ChangedKeys } from "../incremental/changed-keys.ts";
import { KeyedStateBackend, type KeyedStateBackendOptions, type SnapshotType, type StateTable } from "../keyed-state-backend.ts";
import type { StateSnapshot } from "../state-snapshot.ts";
import { describeStateKey, type StateKey } from "../state-key.ts";
import { entryKey, keyGroupOfEntry, MAX_STATE_KEY_BYTES, stateIdOfEntry, stateKeyOfEntry, statePrefix } from "./disk-key-codec.ts";
import { takeDiskSnapshot } from "./disk-full-snapshot.ts";
import { type DeltaState, takeDiskDelta } from "./disk-delta-snapshot.ts";
import { CheckpointFlush } from "./checkpoint-flush.ts";
import { decodeStoredValue, encodeStoredValue } from "./disk-value-codec.ts";
import { DiskKeyedStateMap, type DiskMapHost } from "./disk-keyed-state-map.ts";
import { DiskStore, type LocalSnapshotId, type StoreWrite } from "./disk-store.ts";
import { type CacheEntry, type FrozenEntries, WriteBackCache } from "./write-back-cache.ts";

export type { LocalSnapshotId } from "./disk-store.ts";

/** Default of {@link DiskKeyedStateBackendOptions.cacheEntries}. */
export const DEFAULT_CACHE_ENTRIES = 100_000;

/**
 * Store entries per key group (all states, overlay included) up to which a
 * scan of one state reads the backend's whole key-group range in one store
 * range rather than one range per key group: reading an entry of another
 * state costs about as much as a range that finds nothing, a few µs against
 * tens of µs.
 */
const WHOLE_RANGE_SCAN_PER_GROUP = 16;

/** Restored entries written per transaction. */
const RESTORE_BATCH = 16_384;

/** Options of a {@link DiskKeyedStateBackend}. */
export interface DiskKeyedStateBackendOptions extends KeyedStateBackendOptions {
  /**
   * The backend's own working directory (created if missing), e.g.
   * `<workdir>/<operator uid>-<subtask>`. Deleted on `dispose()` unless
   * `keepLocal`.
   */
  readonly localDirectory: string;
  /** Decoded values kept in memory (hot keys), over all states. Default {@link DEFAULT_CACHE_ENTRIES}. */
  readonly cacheEntries?: number;
  /**
   * Local recovery: keep the directory on `dispose()`, and on open keep an
   * existing store whose marker is valid until the caller decides with
   * `restoreLocal` or `restore` (see {@link DiskKeyedStateBackend.localSnapshotId}).
   * Default false: any existing content is deleted at open.
   */
  readonly keepLocal?: boolean;
}

/** A snapshot of the disk backend: also says which snapshot the local store now holds. */
export interface DiskStateSnapshot extends StateSnapshot {
  /** Written to the store with this snapshot's flush; valid until the next write reaches the store. */
  readonly local: LocalSnapshotId;
}

/** Cache and store counters, for metrics and tests. */
export interface DiskStateStats {
  readonly cachedEntries: number;
  readonly dirtyEntries: number;
  readonly evictions: number;
  readonly liveSnapshots: number;
  /** Checkpoints whose frozen entries are not yet all in the store. */
  readonly flushingCheckpoints: number;
}

/**
 * Keyed state in an embedded LMDB store on local disk, with a bounded cache.
 *
 * Values obtained with `getForUpdate` (and the engine's `getOwned`) may be
 * changed in place until the current key changes; a holder of such an object
 * across records must fetch it again when {@link ownedValuesEpoch} moved.
 *
 * @example
 * ```ts
 * const backend = new DiskKeyedStateBackend({
 *   operatorUid: "count", maxParallelism: 128, keyGroupRange: [0, 127],
 *   localDirectory: "/tmp/weir-state/count-0", cacheEntries: 10_000,
 * });
 * const count = backend.getState(new ValueStateDescriptor<number>("count", 0));
 * backend.setCurrentKey("apple");
 * count.update(count.value()! + 1);
 * const snap = backend.snapshot(1);       // freezes the dirty cache entries (written in the background)
 * const bytes = await snap.serialize();   // once they are in the store: the heap backend's format
 * snap.release();
 * backend.dispose();                      // closes the store and deletes its directory
 * ```
 */
export class DiskKeyedStateBackend extends KeyedStateBackend implements DiskMapHost {
  private readonly store: DiskStore;
  private readonly cacheOf: WriteBackCache;
  private readonly flush: CheckpointFlush;
  private readonly keepLocal: boolean;
  /** False while a store with a valid marker awaits `restoreLocal` or its clearing. */
  private decided: boolean;
  private readonly snapshots = new Set<StateSnapshot>();
  private restoreQueue: StoreWrite[] = [];
  private disposed = false;
  /** @internal True while blobs are restored. */
  restoring = false;

  constructor(opts: DiskKeyedStateBackendOptions) {
    super(opts);
    this.keepLocal = opts.keepLocal ?? false;
    this.cacheOf = new WriteBackCache(opts.cacheEntries ?? DEFAULT_CACHE_ENTRIES, (entries) => this.writeEntries(entries));
    this.store = new DiskStore({
      directory: opts.localDirectory,
      operatorUid: opts.operatorUid,
      maxParallelism: opts.maxParallelism,
      keyGroupRange: opts.keyGroupRange,
      keepLocal: this.keepLocal,
    });
    this.decided = this.store.localAtOpen === undefined;
    this.flush = new CheckpointFlush(this.store, this.cacheOf, (e, v) => [
      this.keyBytes(e.keyGroup, e.stateId, e.key),
      v === undefined ? undefined : encodeStoredValue(v),
    ]);
  }

  /** @internal First key group of the range. */
  get firstKeyGroup(): number {
    return this.rangeStart;
  }

  /** The store's directory. */
  get localDirectory(): string {
    return this.store.directory;
  }

  /**
   * The snapshot the existing local store held exactly when this backend
   * opened it (with `keepLocal`), or undefined. The caller compares it with
   * the checkpoint it restores: equal → {@link restoreLocal}; otherwise
   * `restore(blobs)`, which clears the store first.
   */
  localSnapshotId(): LocalSnapshotId | undefined {
    return this.store.localAtOpen;
  }

  /**
   * Restores from the local store, which holds exactly snapshot `expected`
   * (see {@link localSnapshotId}): keeps its content instead of reading blobs.
   * Call before any state is used.
   *
   * @throws StateRestoreError when the store does not hold that snapshot, or state was used already
   */
  restoreLocal(expected: LocalSnapshotId): void {
    const local = this.store.localAtOpen;
    if (this.decided || local === undefined || local.checkpointId !== expected.checkpointId || local.token !== expected.token) {
      const held = local === undefined ? "no snapshot" : `snapshot ${local.checkpointId} (token ${local.token})`;
      throw new StateRestoreError(
        this.operatorUid,
        `the local store at ${this.store.directory} holds ${this.decided ? "no usable snapshot any more" : held}, not snapshot ${expected.checkpointId} (token ${expected.token}); restore from the checkpoint's blobs instead`,
      );
    }
    this.decided = true;
    this.store.discardOverlay();
    for (const [name, s] of this.store.storedStates()) {
      const changes = this.trackChanges ? new ChangedKeys(this.groups) : undefined;
      const table: StateTable = { name, kind: s.kind, map: new DiskKeyedStateMap(this, name, s.id, changes), changes, ttl: s.ttl ?? false };
      this.tables.set(name, table);
    }
  }

  /** Clears a kept store nobody adopted (before its first use): stale local data is never mixed in. */
  private decide(): void {
    if (this.decided) return;
    this.decided = true;
    this.store.clearContent();
  }

  protected override ttlChanged(t: StateTable): void {
    this.store.setStateTtl(t.name, t.ttl);
  }

  protected createMap(name: string, kind: StateKind, changes: ChangedKeys | undefined): DiskKeyedStateMap<unknown> {
    this.decide();
    return new DiskKeyedStateMap(this, name, this.store.registerState(name, kind), changes);
  }

  /**
   * Sets the current key; when the cache grew over its capacity while the
   * previous key was processed, evicts a batch first (dirty entries are
   * written in one transaction). While a checkpoint's flush is in flight
   * nothing but the flush may write entries: only entries whose value is in
   * the store are evicted then (clean ones the flush does not still have to
   * write), and the cache grows by the others; once it holds twice its
   * capacity, the flushes in flight are written at once (the cache stays
   * bounded however slowly they progress), and it shrinks a batch per key
   * change.
   */
  override setCurrentKey(key: unknown): void {
    super.setCurrentKey(key);
    if (!this.cacheOf.overCapacity) return;
    if (this.flush.pending > 0 && this.cacheOf.size < 2 * this.cacheOf.capacity) return this.cacheOf.evictWritten();
    this.flush.drain();
    this.cacheOf.evict();
  }

  /** @internal The states are on local disk (a bounded cache of them in memory): they may exceed memory. */
  override get statesInMemory(): boolean {
    return false;
  }

  /**
   * @internal Bumped by every eviction and every snapshot: a value obtained
   * with `getForUpdate` and held across records must be fetched again (after
   * a snapshot, the held object belongs to the checkpoint; fetching it again
   * gives a copy).
   */
  override get ownedValuesEpoch(): number {
    return this.cacheOf.evictions + this.cacheOf.freezes;
  }

  /**
   * The synchronous part of a checkpoint: freezes the dirty cache entries
   * with their values (no encoding, no store write) and, for a delta, takes
   * the changed keys and opens a read transaction. The frozen entries are
   * written in the background, in slices (checkpoint-flush.ts), after those
   * of earlier snapshots, with a new local marker. A delta serializes at
   * once, beside that flush: its changed keys' values are the frozen ones,
   * or (keys evicted since the previous barrier) in the store as the read
   * transaction sees it. A full snapshot opens its read transaction once
   * its frozen entries are in the store, and `serialize()` (which waits for
   * that) scans it.
   */
  override snapshot(checkpointId: number, type?: SnapshotType): DiskStateSnapshot {
    return this.takeSnapshots(checkpointId, type, false).snapshot;
  }

  /** A delta and a full snapshot of the same barrier (one frozen generation): the full one serializes once it is in the store. */
  override snapshotWithBase(checkpointId: number): { readonly delta: DiskStateSnapshot; readonly base: StateSnapshot } {
    const { snapshot, base } = this.takeSnapshots(checkpointId, "delta", true);
    return { delta: snapshot, base: base! };
  }

  private takeSnapshots(checkpointId: number, type: SnapshotType, withBase: boolean): { snapshot: DiskStateSnapshot; base?: StateSnapshot } {
    this.decide();
    if (type === "delta" && !this.trackChanges) throw new Error(`weir: operator '${this.operatorUid}': a delta snapshot needs trackChanges`);
    const local: LocalSnapshotId = { checkpointId, token: randomUUID() };
    const tables = [...this.tables.values()];
    const deltaStates: DeltaState[] | undefined =
      type === "delta"
        ? tables.map((t) => {
            const map = t.map as DiskKeyedStateMap<unknown>;
            return { name: t.name, kind: t.kind, ttl: t.ttl, stateId: map.stateId, index: map.index, changed: t.changes!.take() };
          })
        : undefined;
    if (type === "base") for (const t of tables) t.changes?.take();
    const frozen = this.cacheOf.freeze();
    // a delta reads the frozen values and, for keys evicted since the previous barrier, the store as of now: it is ready at once
    const delta = deltaStates ? this.deltaView(checkpointId, deltaStates, [frozen, ...this.flush.inFlight().reverse()]) : undefined;
    const full = delta === undefined || withBase ? this.afterFlush(checkpointId, tables) : undefined;
    this.flush.add({
      frozen,
      marker: local,
      durable: () => full?.open(),
      failed: (e) => full?.fail(e), // a delta is ready already: its content does not depend on the flush
    });
    return { snapshot: { ...(delta ? this.tracked(delta) : full!.snapshot), local }, ...(withBase ? { base: full!.snapshot } : {}) };
  }

  /** `view`, counted among the live snapshots until released (`dispose()` releases them). */
  private tracked(view: StateSnapshot): StateSnapshot {
    const snap: StateSnapshot = {
      serialize: () => view.serialize(),
      release: () => {
        view.release();
        this.snapshots.delete(snap);
      },
    };
    this.snapshots.add(snap);
    return snap;
  }

  /**
   * A full snapshot whose read transaction opens once its generation is in the
   * store (`open`, called by the flush in the turn of its last transaction):
   * `serialize()` waits for that and scans it.
   */
  private afterFlush(checkpointId: number, tables: readonly StateTable[]): { snapshot: StateSnapshot; open(): void; fail(e: unknown): void } {
    let view: StateSnapshot | undefined;
    let released = false;
    let serialized: Promise<Uint8Array> | undefined;
    const releasedError = (): Error => new Error(`snapshot ${checkpointId} of operator '${this.operatorUid}' was released while serializing`);
    let settle!: { resolve: () => void; reject: (e: unknown) => void };
    const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    ready.catch(() => {}); // an aborted checkpoint never serializes
    const snapshot = this.tracked({
      serialize: () =>
        (serialized ??= ready.then(
          () => {
            if (view === undefined) throw releasedError();
            return view.serialize();
          },
          (e: unknown) => {
            throw released ? releasedError() : e;
          },
        )),
      release: () => {
        released = true;
        view?.release();
      },
    });
    return {
      snapshot,
      open: () => {
        if (released) return settle.resolve();
        try {
          view = this.fullSnapshot(checkpointId, tables);
          settle.resolve();
        } catch (e) {
          settle.reject(e);
        }
      },
      fail: (e) => settle.reject(e),
    };
  }

  /** A full snapshot's read of the store, opened now (when the snapshot's frozen entries are in the store). */
  protected fullSnapshot(checkpointId: number, tables: readonly StateTable[]): StateSnapshot {
    const states = tables.map((t) => ({ id: (t.map as DiskKeyedStateMap<unknown>).stateId, name: t.name, kind: t.kind, ttl: t.ttl }));
    return takeDiskSnapshot(this.store, this.snapshotHeader(checkpointId), states, [this.rangeStart, this.rangeEnd], () => {});
  }

  /** A delta's read of the store, opened now (at the barrier: the frozen entries need not be in the store). */
  private deltaView(checkpointId: number, states: readonly DeltaState[], frozen: readonly FrozenEntries[]): StateSnapshot {
    return takeDiskDelta(
      this.store,
      this.snapshotHeader(checkpointId),
      states,
      this.rangeStart,
      frozen,
      (s, g, k, view) => {
        const bytes = this.store.read(this.keyBytes(this.rangeStart + g, s.stateId, k), view);
        return bytes === undefined ? undefined : this.decode(bytes, s.name, k);
      },
      () => {},
    );
  }

  /**
   * Restores blobs (heap or disk snapshots, any parallelism) in batches of
   * store writes that bypass the cache. A kept local store nobody adopted is
   * cleared first.
   */
  override restore(blobs: readonly Uint8Array[]): void {
    this.decide();
    this.flush.drain();
    this.restoring = true;
    try {
      super.restore(blobs);
      this.store.write(this.restoreQueue);
    } finally {
      this.restoring = false;
      this.restoreQueue = [];
    }
  }

  /** @internal */
  restoreWrite(map: DiskKeyedStateMap<unknown>, keyGroup: number, k: StateKey, v: unknown): void {
    this.restoreQueue.push([this.keyBytes(keyGroup, map.stateId, k), v === undefined ? undefined : encodeStoredValue(v)]);
    if (this.restoreQueue.length >= RESTORE_BATCH) {
      this.store.write(this.restoreQueue);
      this.restoreQueue = [];
    }
  }

  /** @internal */
  readValue(map: DiskKeyedStateMap<unknown>, keyGroup: number, k: StateKey): unknown {
    const bytes = this.store.read(this.keyBytes(keyGroup, map.stateId, k));
    return bytes === undefined ? undefined : this.decode(bytes, map.name, k);
  }

  private decode(bytes: Uint8Array, state: string, k: StateKey): unknown {
    try {
      return decodeStoredValue(bytes);
    } catch (e) {
      throw this.store.error(
        `the store file ${this.store.file} is corrupt: the value of state '${state}' at key ${describeStateKey(k)} is not valid msgpack (${(e as Error).message})`,
        e,
      );
    }
  }

  /** @internal */
  cache(e: CacheEntry): void {
    this.cacheOf.add(e);
  }

  /** @internal */
  markDirty(e: CacheEntry): void {
    this.cacheOf.markDirty(e);
  }

  /**
   * @internal Reads the state's entries with one store range per key group,
   * or, when the whole store holds at most {@link WHOLE_RANGE_SCAN_PER_GROUP}
   * entries per key group, with a single range over the backend's key groups
   * (every state), keeping this state's: a range costs tens of µs however few
   * entries it holds, so a small state spread over many key groups (a few
   * entries in each) is read in one range instead of one per key group (TTL
   * cleanup scans a state each time its cursor wraps around: every few records
   * when the state is small).
   */
  scan(map: DiskKeyedStateMap<unknown>, fn: (v: unknown, k: StateKey, g: number) => void): void {
    this.flush.drain(); // the flush of a checkpoint in flight completes first: then the store may take later writes
    if (this.cacheOf.dirtyCount > 0) this.cacheOf.flush();
    const entries: [StateKey, number, Uint8Array][] = [];
    const collect = (range: Iterable<{ key: Uint8Array; value: Uint8Array }>): void => {
      for (const { key, value } of range) {
        if (stateIdOfEntry(key) === map.stateId) entries.push([stateKeyOfEntry(key)!, keyGroupOfEntry(key) - this.rangeStart, value]);
      }
    };
    if (this.store.entryCount() <= WHOLE_RANGE_SCAN_PER_GROUP * (this.rangeEnd - this.rangeStart + 1)) {
      collect(this.store.scan(this.rangeStart, this.rangeEnd));
    } else {
      for (let kg = this.rangeStart; kg <= this.rangeEnd; kg++) collect(this.store.range(statePrefix(kg, map.stateId), statePrefix(kg, map.stateId + 1)));
    }
    for (const [k, g, bytes] of entries) {
      const cached = map.index.get(k);
      fn(cached !== undefined ? cached.value : decodeStoredValue(bytes), k, g);
    }
  }

  private keyBytes(keyGroup: number, stateId: number, k: StateKey): Buffer {
    const key = entryKey(keyGroup, stateId, k);
    if (key === undefined) {
      throw new UnsupportedKeyError(`a key longer than ${MAX_STATE_KEY_BYTES} bytes (${describeStateKey(k).slice(0, 60)}…) for the disk backend`, "", this.operatorUid);
    }
    return key;
  }

  /** Writes evicted or flushed entries (between snapshots: the store's local-recovery marker no longer holds). */
  private writeEntries(entries: readonly CacheEntry[]): void {
    const writes: StoreWrite[] = entries.map((e): StoreWrite => [
      this.keyBytes(e.keyGroup, e.stateId, e.key),
      e.value === undefined ? undefined : encodeStoredValue(e.value),
    ]);
    this.store.write(writes);
  }

  /** The store's entry count (LMDB keeps it: O(1); includes a few metadata entries and the overlay). */
  approximateEntries(): number {
    return this.store.entryCount();
  }

  /** Cache and snapshot counters. */
  stats(): DiskStateStats {
    return {
      cachedEntries: this.cacheOf.size,
      dirtyEntries: this.cacheOf.dirtyCount,
      evictions: this.cacheOf.evictions,
      liveSnapshots: this.snapshots.size,
      flushingCheckpoints: this.flush.pending,
    };
  }

  /**
   * Releases outstanding snapshots (ending their read transactions), closes
   * the store without writing the cache (a kept store stays exactly at its
   * last marker, or is known stale), and deletes the directory unless
   * `keepLocal`. Idempotent.
   */
  override dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of [...this.snapshots]) s.release();
    this.flush.close();
    this.cacheOf.clear();
    if (this.keepLocal) this.store.close();
    else this.store.destroy();
    super.dispose();
  }
}
