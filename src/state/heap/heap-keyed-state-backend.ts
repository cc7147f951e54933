/**
 * The heap keyed state backend: keyed state in JavaScript maps, one
 * {@link KeyGroupedMap} per registered state (a map per key group), keyed by
 * the primitive key itself where it is one, checkpointed with an O(key
 * groups) synchronous capture, encode-on-write and an asynchronous, sliced
 * encoding of the rest that reuses unchanged key groups.
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
} from "../descriptors.ts";
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
} from "../errors.ts";
import type { PlainDataError } from "../plain-copy.ts";
import { hashCodeOfStateKey, keyGroupOfHashCode } from "../key-groups.ts";
import { describeStateKey, keyOfStateKey, stateKeyOf, type StateKey } from "../state-key.ts";
import type { AggregatingState, ListState, MapState, ReducingState, ValueState } from "../state-handles.ts";
import type { StateSnapshot } from "../state-snapshot.ts";
import { createKeyedStateHandle } from "../ttl/create-keyed-state-handle.ts";
import { type Clock, systemClock } from "../../util/clock.ts";
import {
  type CurrentKeySource,
  HeapAggregatingState,
  HeapListState,
  HeapMapState,
  HeapReducingState,
  HeapValueState,
} from "./heap-states.ts";
import { encodeKeyGroupChunk } from "./key-group-chunk.ts";
import { KeyGroupedMap, type KeyGroupedView } from "./key-grouped-map.ts";
import { decodeKeyedSnapshot, serializeKeyedSnapshot } from "./keyed-snapshot-format.ts";

/** Options of a {@link HeapKeyedStateBackend}. */
export interface HeapKeyedStateBackendOptions {
  /** Uid of the operator whose state this is (named in errors and snapshots). */
  readonly operatorUid: string;
  /** Number of key groups of the job; must not change across restores. */
  readonly maxParallelism: number;
  /** Inclusive key-group range owned by this subtask. */
  readonly keyGroupRange: readonly [number, number];
  /** Processing time for state TTL; the system clock by default. */
  readonly clock?: Clock;
}

interface StateTable {
  readonly name: string;
  readonly kind: StateKind;
  readonly map: KeyGroupedMap<unknown>;
  handle?: unknown;
  /** The descriptor of the first registration (a restored state has none until registered). */
  descriptor?: AnyStateDescriptor;
  /** Values are stored in the TTL form (from the descriptor, or from the snapshot restored). */
  ttl: boolean;
}

/** Snapshot and encoding counters of a backend, over all states, for metrics and tests. */
export interface HeapStateStats {
  /** Registered states. */
  readonly states: number;
  /** Snapshots not yet released (the most over the states). */
  readonly liveSnapshots: number;
  /** Key groups encoded by a write to a group a snapshot had captured and not yet encoded. */
  readonly groupsEncodedOnWrite: number;
  /** Key groups encoded by snapshot serializers. */
  readonly groupsEncodedBySerializer: number;
  /** Key groups whose encoding of an earlier snapshot was reused (unchanged since). */
  readonly groupsReused: number;
}

/**
 * @internal Keyed state owned by the engine (window contents, timers, join
 * buffers): values that user code never receives, so they are not copied on
 * access. `get` returns the stored value (read only); `getOwned` returns it for
 * changes in place (as `getForUpdate`: a key group a pending snapshot still
 * needs is encoded before its first change); `set(undefined)` removes it.
 * Values must be plain data.
 */
export interface EngineKeyedState<V> {
  get(): V | undefined;
  getOwned(): V | undefined;
  set(value: V | undefined): void;
}

/**
 * Keyed state on the JavaScript heap.
 *
 * State holds its own copies of object values: what user code passes to
 * `update`/`add`/`put` is copied in (and checked to be plain data), what it
 * reads is a copy, so mutating either never changes the state or a snapshot
 * in progress; only the handles' write methods change state (as with a
 * serializing backend in Flink). Primitive values are not copied.
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
 * const snap = backend.snapshot(1);         // synchronous, O(states × key groups)
 * const bytes = await snap.serialize();     // asynchronous, sliced
 * snap.release();
 * const restored = new HeapKeyedStateBackend({ operatorUid: "count", maxParallelism: 128, keyGroupRange: [0, 63] });
 * restored.restore([bytes]);                // keeps key groups 0..63 only
 * ```
 */
export class HeapKeyedStateBackend implements CurrentKeySource {
  private readonly operatorUid: string;
  private readonly maxParallelism: number;
  private readonly rangeStart: number;
  private readonly rangeEnd: number;
  private readonly tables = new Map<string, StateTable>();
  private readonly snapshots = new Set<StateSnapshot>();
  private currentKey: unknown = undefined;
  private currentStateKey: StateKey | undefined = undefined;
  private group = 0;
  private code = 0;
  private readonly clock: Clock;
  private readonly keySelectionListeners: (() => void)[] = [];

  constructor(opts: HeapKeyedStateBackendOptions) {
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
    this.clock = opts.clock ?? systemClock;
  }

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
    const map = this.table({ name, kind: "value" } as AnyStateDescriptor).map as KeyGroupedMap<V>;
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
    const created: StateTable = {
      name: d.name,
      kind: d.kind,
      map: new KeyGroupedMap(this.rangeStart, this.rangeEnd - this.rangeStart + 1, encodeKeyGroupChunk),
      ttl: d.ttlConfig !== undefined,
    };
    this.tables.set(d.name, created);
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

  /** A heap handle of `d`'s kind over `map` (the table of state `d.name`). */
  private plainHandle(map: KeyGroupedMap<unknown>, d: AnyStateDescriptor): unknown {
    const m = map as KeyGroupedMap<never>;
    switch (d.kind) {
      case "value":
        return new HeapValueState(this, d.name, m, d.defaultValue);
      case "list":
        return new HeapListState(this, d.name, m);
      case "map":
        return new HeapMapState(this, d.name, m);
      case "reducing":
        return new HeapReducingState(this, d.name, m, d.reduce);
      case "aggregating":
        return new HeapAggregatingState(this, d.name, m, d.agg);
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
   * Synchronous part of a checkpoint: captures every state in O(key groups)
   * each (no entry is copied or encoded). Writes after this call do not
   * change what the snapshot serializes: the first write to a captured key
   * group encodes it for the snapshot first. Call `release()` on the result
   * when done or aborted.
   */
  snapshot(checkpointId: number): StateSnapshot {
    const captured = [...this.tables.values()].map((t) => ({ t, view: t.map.capture() as KeyGroupedView }));
    let released = false;
    let serialized: Promise<Uint8Array> | undefined;
    const header = {
      operatorUid: this.operatorUid,
      checkpointId,
      maxParallelism: this.maxParallelism,
      keyGroupRange: [this.rangeStart, this.rangeEnd] as const,
    };
    const snap: StateSnapshot = {
      serialize: () =>
        (serialized ??= serializeKeyedSnapshot(
          header,
          captured.map(({ t, view }) => ({ name: t.name, kind: t.kind, ttl: t.ttl, map: t.map, view })),
          () => released,
        )),
      release: () => {
        if (released) return;
        released = true;
        for (const { t, view } of captured) t.map.release(view);
        this.snapshots.delete(snap);
      },
    };
    this.snapshots.add(snap);
    return snap;
  }

  /**
   * Restores from serialized snapshots (of any subtasks, at any previous
   * parallelism), decoding only the key groups in this backend's range.
   * Entries are added to the current content.
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
        t.ttl = s.ttl;
        const { map } = t;
        for (const group of s.groups) {
          if (group.keyGroup < this.rangeStart || group.keyGroup > this.rangeEnd) continue;
          const g = group.keyGroup - this.rangeStart;
          const [keys, values] = group.read();
          for (let i = 0; i < keys.length; i++) map.set(g, keys[i]!, hashCodeOfStateKey(keys[i]!), values[i]);
        }
      }
    });
  }

  /** Number of distinct keys with any state. O(entries): for metrics and tests. */
  numKeys(): number {
    const keys = new Set<StateKey>();
    for (const t of this.tables.values()) t.map.forEach((_, k) => keys.add(k));
    return keys.size;
  }

  /** Snapshot and encoding counters (for metrics and tests). */
  stats(): HeapStateStats {
    let liveSnapshots = 0;
    let groupsEncodedOnWrite = 0;
    let groupsEncodedBySerializer = 0;
    let groupsReused = 0;
    for (const t of this.tables.values()) {
      const m = t.map.stats();
      liveSnapshots = Math.max(liveSnapshots, m.liveViews);
      groupsEncodedOnWrite += m.encodedOnWrite;
      groupsEncodedBySerializer += m.encodedBySerializer;
      groupsReused += m.reused;
    }
    return { states: this.tables.size, liveSnapshots, groupsEncodedOnWrite, groupsEncodedBySerializer, groupsReused };
  }

  /** Releases outstanding snapshots and drops all state. */
  dispose(): void {
    for (const s of [...this.snapshots]) s.release();
    for (const t of this.tables.values()) t.map.clearAll();
    this.tables.clear();
    this.keySelectionListeners.length = 0;
    this.currentKey = undefined;
    this.currentStateKey = undefined;
  }
}
