/**
 * The keyed state backend: what operators use to keep state per key (the
 * current key, the state handles, engine-owned state, snapshots and restore),
 * with everything that does not depend on where entries live. A subclass
 * supplies the storage of one state ({@link KeyedStateMap}) and the full
 * snapshot: `HeapKeyedStateBackend` (JavaScript maps) and
 * `DiskKeyedStateBackend` (an embedded store on local disk).
 *
 * Incremental checkpoints: with `trackChanges`, every write is noted per
 * state and key group ({@link ChangedKeys}), and `snapshot(id, "delta")`
 * writes only the keys written since the previous snapshot of the chain
 * (their values, or their deletion). A chain is a full snapshot taken with
 * `"base"` followed by deltas; restoring its blobs in order gives the state
 * at its last snapshot.
 */

import {
  AggregatingStateDescriptor,
  type AnyStateDescriptor,
  descriptorDifference,
  ListStateDescriptor,
  MapStateDescriptor,
  ReducingStateDescriptor,
  type StateKind,
  ValueStateDescriptor,
} from "./descriptors.ts";
import {
  ALLOWED_STATE_VALUES,
  KeyGroupOutOfRangeError,
  NoCurrentKeyError,
  StateDescriptorMismatchError,
  StateKindMismatchError,
  StateRestoreError,
  StateSerializationError,
  StateTtlMismatchError,
  UnsupportedKeyError,
} from "./errors.ts";
import { ChangedKeys } from "./incremental/changed-keys.ts";
import { hashCodeOfStateKey, keyGroupOfHashCode } from "./key-groups.ts";
import type { KeyedStateMap } from "./keyed-state-map.ts";
import {
  type CurrentKeySource,
  KeyedAggregatingState,
  KeyedListState,
  KeyedMapState,
  KeyedReducingState,
  KeyedValueState,
} from "./keyed-states.ts";
import type { PlainDataError } from "./plain-copy.ts";
import { packPlainData } from "./serializer.ts";
import { encodeKeyGroupChunk } from "./snapshot/key-group-chunk.ts";
import {
  decodeKeyedSnapshot,
  type KeyedSnapshotHeader,
  packKeyedSnapshot,
  type SerializedKeyedState,
  ttlMarker,
} from "./snapshot/keyed-snapshot-format.ts";
import type { AggregatingState, ListState, MapState, ReducingState, ValueState } from "./state-handles.ts";
import { describeStateKey, keyOfStateKey, stateKeyOf, type StateKey } from "./state-key.ts";
import type { StateSnapshot } from "./state-snapshot.ts";
import { createKeyedStateHandle } from "./ttl/create-keyed-state-handle.ts";
import { type Clock, systemClock } from "../util/clock.ts";

/** Options of every keyed state backend. */
export interface KeyedStateBackendOptions {
  /** Uid of the operator whose state this is (named in errors and snapshots). */
  readonly operatorUid: string;
  /** Number of key groups of the job; must not change across restores. */
  readonly maxParallelism: number;
  /** Inclusive key-group range owned by this subtask. */
  readonly keyGroupRange: readonly [number, number];
  /** Note every write, for delta snapshots (incremental checkpoints). Default false. */
  readonly trackChanges?: boolean;
  /** Processing time for state TTL; the system clock by default. */
  readonly clock?: Clock;
}

/**
 * What a snapshot is for: undefined for a self-contained full snapshot that
 * leaves the incremental chain alone (savepoints, or no incremental
 * checkpoints); `"base"` for a full snapshot that starts a new chain;
 * `"delta"` for the changes since the previous snapshot of the chain.
 */
export type SnapshotType = "base" | "delta" | undefined;

/** One registered state. */
export interface StateTable {
  readonly name: string;
  readonly kind: StateKind;
  readonly map: KeyedStateMap<unknown>;
  /** Writes since the last snapshot of the chain (with `trackChanges`). */
  readonly changes: ChangedKeys | undefined;
  handle?: unknown;
  /** The descriptor of the first registration (a restored state has none until registered). */
  descriptor?: AnyStateDescriptor;
  /** Values are stored in the TTL form (from the descriptor, or from the snapshot restored). */
  ttl: boolean;
}

/**
 * @internal Keyed state owned by the engine (window contents, timers, join
 * buffers): values that user code never receives, so they are not copied on
 * access. `get` returns the stored value (read only); `getOwned` returns it for
 * changes in place (a write); `set(undefined)` removes it. Values must be plain data.
 */
export interface EngineKeyedState<V> {
  get(): V | undefined;
  getOwned(): V | undefined;
  set(value: V | undefined): void;
}

/**
 * The keyed state of one operator subtask.
 *
 * State holds its own copies of object values: what user code passes to
 * `update`/`add`/`put` is copied in (and checked to be plain data), what it
 * reads is a copy, so mutating either never changes the state or a snapshot
 * in progress; only the handles' write methods change state. Primitive
 * values are not copied.
 *
 * Keys: a number, bigint, boolean or string key is the map key itself
 * (see state-key.ts); the key group is computed once per `setCurrentKey`,
 * with a numeric hash for numbers (the same function as the `keyBy`
 * partitioner, key-groups.ts).
 *
 * @example
 * ```ts
 * const backend = new HeapKeyedStateBackend({ operatorUid: "count", maxParallelism: 128, keyGroupRange: [0, 127] });
 * const count = backend.getState(new ValueStateDescriptor<number>("count", 0));
 * backend.setCurrentKey("apple");
 * count.update(count.value()! + 1);
 * const snap = backend.snapshot(1);
 * const bytes = await snap.serialize();
 * snap.release();
 * ```
 */
export abstract class KeyedStateBackend implements CurrentKeySource {
  readonly operatorUid: string;
  readonly maxParallelism: number;
  protected readonly rangeStart: number;
  protected readonly rangeEnd: number;
  protected readonly trackChanges: boolean;
  protected readonly tables = new Map<string, StateTable>();
  private currentKey: unknown = undefined;
  private currentStateKey: StateKey | undefined = undefined;
  private group = 0;
  private code = 0;
  private readonly clock: Clock;
  private readonly keySelectionListeners: (() => void)[] = [];

  constructor(opts: KeyedStateBackendOptions) {
    const [start, end] = opts.keyGroupRange;
    if (!(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end && end < opts.maxParallelism)) {
      throw new RangeError(
        `operator '${opts.operatorUid}': key-group range [${start}, ${end}] is not within [0, ${opts.maxParallelism - 1}]`,
      );
    }
    this.operatorUid = opts.operatorUid;
    this.maxParallelism = opts.maxParallelism;
    this.rangeStart = start;
    this.rangeEnd = end;
    this.trackChanges = opts.trackChanges ?? false;
    this.clock = opts.clock ?? systemClock;
  }

  /** Inclusive key-group range owned by this backend. */
  get keyGroupRange(): readonly [number, number] {
    return [this.rangeStart, this.rangeEnd];
  }

  /** Number of key groups in the range. */
  protected get groups(): number {
    return this.rangeEnd - this.rangeStart + 1;
  }

  /** The storage of a newly registered state; it records its writes in `changes` when given. */
  protected abstract createMap(name: string, kind: StateKind, changes: ChangedKeys | undefined): KeyedStateMap<unknown>;

  /** The stored form of `t` changed to or from TTL (a backend that persists its states' settings notes it). */
  protected ttlChanged(_t: StateTable): void {}

  /** Synchronous part of a full snapshot of `tables`; the result serializes to a full blob (keyed-snapshot-format.ts). */
  protected abstract fullSnapshot(checkpointId: number, tables: readonly StateTable[]): StateSnapshot;

  /**
   * Sets the key all state handles refer to. Hot path: called per record.
   *
   * @throws UnsupportedKeyError when the key cannot be hashed
   * @throws KeyGroupOutOfRangeError when the key's group is not owned by this backend
   */
  setCurrentKey(key: unknown): void {
    for (let i = 0; i < this.keySelectionListeners.length; i++) this.keySelectionListeners[i]!();
    if (key === this.currentKey && this.currentStateKey !== undefined && typeof key !== "object") return;
    let k: StateKey;
    try {
      k = stateKeyOf(key);
    } catch (e) {
      if (e instanceof UnsupportedKeyError) throw new UnsupportedKeyError(e.description, e.path, this.operatorUid);
      throw e;
    }
    const code = hashCodeOfStateKey(k);
    const kg = keyGroupOfHashCode(code, this.maxParallelism);
    if (kg < this.rangeStart || kg > this.rangeEnd) {
      throw new KeyGroupOutOfRangeError(this.operatorUid, describeStateKey(k), kg, [this.rangeStart, this.rangeEnd]);
    }
    this.currentKey = key;
    this.currentStateKey = k;
    this.group = kg - this.rangeStart;
    this.code = code;
  }

  /** @internal Calls `listener` at each {@link setCurrentKey}, before the key changes (incremental TTL cleanup per record). */
  addKeySelectionListener(listener: () => void): void {
    this.keySelectionListeners.push(listener);
  }

  /** @internal Used by the state handles: index of the current key's group in this backend's range. */
  get currentGroup(): number {
    return this.group;
  }

  /** @internal Used by the state handles: hash code of the current key. */
  get currentCode(): number {
    return this.code;
  }

  /** Every key that has state `name`, with the state's stored value (timers rebuild their queues from it on restore). */
  *entriesOf(name: string): IterableIterator<[key: unknown, value: unknown]> {
    const t = this.tables.get(name);
    if (!t) return;
    const entries: [unknown, unknown][] = [];
    t.map.forEach((v, k) => entries.push([keyOfStateKey(k), v]));
    yield* entries;
  }

  /**
   * @internal Engine-owned keyed state `name` at the current key, without copies
   * (see {@link EngineKeyedState}). Stored as value state.
   */
  getEngineState<V>(name: string): EngineKeyedState<V> {
    const map = this.table({ name, kind: "value" } as AnyStateDescriptor).map as KeyedStateMap<V>;
    return {
      get: () => {
        const k = this.currentKeyFor(name);
        return map.get(this.group, k, this.code);
      },
      getOwned: () => {
        const k = this.currentKeyFor(name);
        return map.getForUpdate(this.group, k, this.code);
      },
      set: (value) => {
        const k = this.currentKeyFor(name);
        map.set(this.group, k, this.code, value);
      },
    };
  }

  /**
   * @internal Whether this backend keeps its states in the JavaScript heap (the heap backend: true), so
   * that an engine component may hold what it keeps per key in memory itself and write it to state
   * behind, before each snapshot, at no cost in memory; false for a backend whose state may be larger
   * than memory (the disk backend): read and write it through the backend, per key.
   *
   * @example
   * ```ts
   * // the SQL interval join's rows of a side (interval-join.ts)
   * const rows = ctx.keyedState!.statesInMemory ? new SideRows(offset, pads) : new KeyedSideRows(state, offset, pads, setKey);
   * ```
   */
  abstract get statesInMemory(): boolean;

  /**
   * @internal Changes when values obtained with `getForUpdate`/`getOwned` may
   * no longer be the stored ones (the disk backend's cache evictions; never
   * on the heap): an engine component that keeps such an object across
   * records must fetch it again when this moved.
   */
  get ownedValuesEpoch(): number {
    return 0;
  }

  /** The key set by the last {@link setCurrentKey}, or undefined. */
  getCurrentKey(): unknown {
    return this.currentKey;
  }

  /** @internal Used by the state handles. */
  currentKeyFor(stateName: string): StateKey {
    const k = this.currentStateKey;
    if (k === undefined) throw new NoCurrentKeyError(this.operatorUid, stateName);
    return k;
  }

  /** @internal Used by the state handles: a value that is not plain data, located. */
  valueError(stateName: string, e: PlainDataError): Error {
    const key = this.currentStateKey === undefined ? "" : ` at key ${describeStateKey(this.currentStateKey)}`;
    return new StateSerializationError(
      `value${key} of state '${stateName}' in operator '${this.operatorUid}' ${e.message}; ${ALLOWED_STATE_VALUES}`,
      this.operatorUid,
      stateName,
    );
  }

  private table(d: AnyStateDescriptor): StateTable {
    const existing = this.tables.get(d.name);
    if (existing !== undefined) {
      if (existing.kind !== d.kind) throw new StateKindMismatchError(this.operatorUid, d.name, existing.kind, d.kind);
      return existing;
    }
    const changes = this.trackChanges ? new ChangedKeys(this.groups) : undefined;
    const created: StateTable = {
      name: d.name,
      kind: d.kind,
      map: this.createMap(d.name, d.kind, changes),
      changes,
      ttl: d.ttlConfig !== undefined,
    };
    this.tables.set(d.name, created);
    if (created.ttl) this.ttlChanged(created);
    return created;
  }

  private handle<H>(d: AnyStateDescriptor): H {
    const t = this.table(d);
    const difference = t.descriptor && descriptorDifference(t.descriptor, d);
    if (difference) throw new StateDescriptorMismatchError(this.operatorUid, d.name, difference);
    t.descriptor ??= d;
    t.handle ??= createKeyedStateHandle(
      d,
      { operatorUid: this.operatorUid, clock: this.clock, backend: this, storedWithTtl: t.ttl },
      (stored) => this.plainHandle(t.map, stored),
    );
    return t.handle as H;
  }

  /** A plain handle of `d`'s kind over `map` (the storage of state `d.name`). */
  private plainHandle(map: KeyedStateMap<unknown>, d: AnyStateDescriptor): unknown {
    const m = map as KeyedStateMap<never>;
    switch (d.kind) {
      case "value":
        return new KeyedValueState(this, d.name, m, d.defaultValue);
      case "list":
        return new KeyedListState(this, d.name, m);
      case "map":
        return new KeyedMapState(this, d.name, m);
      case "reducing":
        return new KeyedReducingState(this, d.name, m, d.reduce);
      case "aggregating":
        return new KeyedAggregatingState(this, d.name, m, d.agg);
    }
  }

  /** The {@link ValueState} named by `d` (the same handle for the same name). */
  getState<T>(d: ValueStateDescriptor<T>): ValueState<T> {
    return this.handle(d as ValueStateDescriptor<unknown>);
  }

  /** The keyed {@link ListState} named by `d`. */
  getListState<T>(d: ListStateDescriptor<T>): ListState<T> {
    return this.handle(d);
  }

  /** The {@link MapState} named by `d`. */
  getMapState<K, V>(d: MapStateDescriptor<K, V>): MapState<K, V> {
    return this.handle(d);
  }

  /** The {@link ReducingState} named by `d`. */
  getReducingState<T>(d: ReducingStateDescriptor<T>): ReducingState<T> {
    return this.handle(d as ReducingStateDescriptor<unknown>);
  }

  /** The {@link AggregatingState} named by `d`. */
  getAggregatingState<IN, ACC, OUT>(d: AggregatingStateDescriptor<IN, ACC, OUT>): AggregatingState<IN, OUT> {
    return this.handle(d as AggregatingStateDescriptor<unknown, unknown, unknown>);
  }

  /**
   * About how many entries the states hold, cheaply (for the choice between
   * a delta and a new base: a delta of most keys costs more than a base).
   */
  abstract approximateEntries(): number;

  /** Keys written since the last snapshot of the chain, over all states (0 without `trackChanges`). */
  changedKeyCount(): number {
    let n = 0;
    for (const t of this.tables.values()) n += t.changes?.size ?? 0;
    return n;
  }

  /**
   * Synchronous part of a checkpoint. A full snapshot (`type` undefined or
   * `"base"`) is captured without copying entries and serialized later; a
   * `"base"` also starts a new incremental chain. A `"delta"` (needs
   * `trackChanges`) encodes the keys written since the previous snapshot of
   * the chain now, in O(changes). Writes after this call never change what
   * the snapshot serializes. Call `release()` on the result when done or aborted.
   */
  snapshot(checkpointId: number, type?: SnapshotType): StateSnapshot {
    if (type === "delta") return this.deltaSnapshot(checkpointId);
    if (type === "base") for (const t of this.tables.values()) t.changes?.take();
    return this.fullSnapshot(checkpointId, [...this.tables.values()]);
  }

  /**
   * A `"delta"` snapshot and, of the same moment, a full snapshot that is to
   * become the chain's next base: the delta is written with this checkpoint,
   * the full snapshot serialized in the background and written with a later
   * one (see `KeyedSnapshotChain`), so no checkpoint waits for a whole base.
   * Release both.
   *
   * @example
   * ```ts
   * const { delta, base } = backend.snapshotWithBase(9);
   * const deltaBytes = await delta.serialize(); // for checkpoint 9
   * const baseBytes = await base.serialize();   // the state at checkpoint 9, in full
   * ```
   */
  snapshotWithBase(checkpointId: number): { readonly delta: StateSnapshot; readonly base: StateSnapshot } {
    const delta = this.deltaSnapshot(checkpointId);
    return { delta, base: this.fullSnapshot(checkpointId, [...this.tables.values()]) };
  }

  /** The header every snapshot blob of this backend starts with. */
  protected snapshotHeader(checkpointId: number): KeyedSnapshotHeader {
    return {
      operatorUid: this.operatorUid,
      checkpointId,
      maxParallelism: this.maxParallelism,
      keyGroupRange: [this.rangeStart, this.rangeEnd] as const,
    };
  }

  private deltaSnapshot(checkpointId: number): StateSnapshot {
    if (!this.trackChanges) throw new Error(`weir: operator '${this.operatorUid}': a delta snapshot needs trackChanges`);
    const states: SerializedKeyedState[] = [];
    for (const t of this.tables.values()) {
      const keyGroups: number[] = [];
      const chunks: Uint8Array[] = [];
      const removedKeyGroups: number[] = [];
      const removed: Uint8Array[] = [];
      for (const [g, changed] of t.changes!.take()) {
        const keys: StateKey[] = [];
        const values: unknown[] = [];
        const gone: StateKey[] = [];
        for (const [k, code] of changed) {
          const v = t.map.peek ? t.map.peek(g, k, code) : t.map.get(g, k, code);
          if (v === undefined) gone.push(k);
          else {
            keys.push(k);
            values.push(v);
          }
        }
        if (keys.length > 0) {
          keyGroups.push(this.rangeStart + g);
          chunks.push(encodeKeyGroupChunk(keys, values));
        }
        if (gone.length > 0) {
          removedKeyGroups.push(this.rangeStart + g);
          removed.push(packPlainData(gone));
        }
      }
      states.push({ name: t.name, kind: t.kind, ...ttlMarker(t.ttl), keyGroups, chunks, removedKeyGroups, removed });
    }
    const bytes = Promise.resolve(packKeyedSnapshot(this.snapshotHeader(checkpointId), states, true));
    return { serialize: () => bytes, release: () => {} };
  }

  /**
   * Restores from serialized snapshots (of any subtasks, at any previous
   * parallelism), decoding only the key groups in this backend's range, in
   * order: a chain's full blob, then its deltas. Entries are added to the
   * current content. Restored entries are not changes: the next delta holds
   * only what is written after the restore.
   *
   * @throws StateRestoreError on a corrupt blob, a different max parallelism, or a format-1 blob with number keys
   * @throws StateKindMismatchError when a restored state's kind differs from a registered one
   */
  restore(blobs: readonly Uint8Array[]): void {
    blobs.forEach((bytes, index) => {
      const blob = decodeKeyedSnapshot(bytes, this.operatorUid, index);
      if (blob.maxParallelism !== this.maxParallelism) {
        throw new StateRestoreError(
          this.operatorUid,
          `blob #${index} was written with maxParallelism ${blob.maxParallelism}, this job uses ${this.maxParallelism} (it cannot change across restores)`,
        );
      }
      for (const s of blob.states) {
        const t = this.table({ name: s.name, kind: s.kind } as AnyStateDescriptor);
        if (t.handle !== undefined && t.ttl !== s.ttl) throw new StateTtlMismatchError(this.operatorUid, s.name, s.ttl);
        if (t.ttl !== s.ttl) {
          t.ttl = s.ttl;
          this.ttlChanged(t);
        }
        const { map, changes } = t;
        if (changes) changes.recording = false;
        for (const group of s.groups) {
          if (group.keyGroup < this.rangeStart || group.keyGroup > this.rangeEnd) continue;
          const g = group.keyGroup - this.rangeStart;
          const [keys, values] = group.read();
          map.reserve?.(g, keys.length);
          for (let i = 0; i < keys.length; i++) map.set(g, keys[i]!, hashCodeOfStateKey(keys[i]!), values[i]);
        }
        for (const group of s.removed) {
          if (group.keyGroup < this.rangeStart || group.keyGroup > this.rangeEnd) continue;
          const g = group.keyGroup - this.rangeStart;
          for (const k of group.read()) map.delete(g, k, hashCodeOfStateKey(k));
        }
      }
    });
    for (const t of this.tables.values()) if (t.changes) t.changes.recording = true;
  }

  /** Number of distinct keys with any state. O(entries): for metrics and tests. */
  numKeys(): number {
    const keys = new Set<StateKey>();
    for (const t of this.tables.values()) t.map.forEach((_, k) => keys.add(k));
    return keys.size;
  }

  /** Releases outstanding snapshots and drops all state (and, for the disk backend, closes its store). */
  dispose(): void {
    this.tables.clear();
    this.keySelectionListeners.length = 0;
    this.currentKey = undefined;
    this.currentStateKey = undefined;
  }
}
