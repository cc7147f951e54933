/**
 * The heap keyed state backend: keyed state in JavaScript maps, one
 * copy-on-write {@link LayeredMap} per registered state, checkpointed with an
 * O(1) synchronous capture and an asynchronous, sliced serialization.
 */

import { canonicalKey, decodeCanonicalKey, describeCanonicalKey } from "../canonical-key.ts";
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
  UnsupportedKeyError,
} from "../errors.ts";
import type { PlainDataError } from "../plain-copy.ts";
import { keyGroupOf } from "../key-groups.ts";
import type { AggregatingState, ListState, MapState, ReducingState, ValueState } from "../state-handles.ts";
import type { StateSnapshot } from "../state-snapshot.ts";
import {
  type CurrentKeySource,
  HeapAggregatingState,
  HeapListState,
  HeapMapState,
  HeapReducingState,
  HeapValueState,
} from "./heap-states.ts";
import { decodeKeyedSnapshot, forEachChunkEntry, serializeKeyedSnapshot } from "./keyed-snapshot-format.ts";
import { LayeredMap, type LayerView } from "./layered-map.ts";

/** Options of a {@link HeapKeyedStateBackend}. */
export interface HeapKeyedStateBackendOptions {
  /** Uid of the operator whose state this is (named in errors and snapshots). */
  readonly operatorUid: string;
  /** Number of key groups of the job; must not change across restores. */
  readonly maxParallelism: number;
  /** Inclusive key-group range owned by this subtask. */
  readonly keyGroupRange: readonly [number, number];
}

interface StateTable {
  readonly name: string;
  readonly kind: StateKind;
  readonly map: LayeredMap<unknown>;
  handle?: unknown;
  /** The descriptor of the first registration (a restored state has none until registered). */
  descriptor?: AnyStateDescriptor;
}

/** Layer and copy counters of a backend, for metrics and tests. */
export interface HeapStateStats {
  /** Registered states. */
  readonly states: number;
  /** Largest number of layers of any state (1 when no snapshot holds a view). */
  readonly maxLayers: number;
  /** Entries copied so far by copy-on-write and layer merges, over all states. */
  readonly copiedEntries: number;
}

/**
 * @internal Keyed state owned by the engine (window contents, timers): values
 * that user code never receives, so they are not copied on access. `get`
 * returns the stored value (read only); `getOwned` returns it for in-place
 * mutation, first copied with the state's `copy` when a pending snapshot
 * still shares it (copy-on-write); `set(undefined)` removes it. Values must
 * be plain data (they are serialized unchecked).
 */
export interface EngineKeyedState<V> {
  get(): V | undefined;
  getOwned(): V | undefined;
  set(value: V | undefined): void;
}

/** Primitive keys whose checked canonical form is cached (the cache is cleared when full). */
const KEY_CACHE_LIMIT = 1 << 16;

/**
 * Keyed state on the JavaScript heap.
 *
 * State holds its own copies of object values: what user code passes to
 * `update`/`add`/`put` is copied in (and checked to be plain data), what it
 * reads is a copy, so mutating either never changes the state or a snapshot
 * in progress; only the handles' write methods change state (as with a
 * serializing backend in Flink). Primitive values are not copied.
 *
 * @example
 * ```ts
 * const backend = new HeapKeyedStateBackend({ operatorUid: "count", maxParallelism: 128, keyGroupRange: [0, 127] });
 * const count = backend.getState(new ValueStateDescriptor<number>("count", 0));
 * backend.setCurrentKey("apple");
 * count.update(count.value()! + 1);
 * const snap = backend.snapshot(1);         // synchronous, O(number of states)
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
  private currentCanonical: string | undefined = undefined;
  /** Checked canonical form of recent primitive keys: saves encoding and hashing per record (and the same string object hashes once). */
  private readonly keyCache = new Map<unknown, string>();

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
  }

  /**
   * Sets the key all state handles refer to. Hot path: called per record.
   *
   * @throws UnsupportedKeyError when the key cannot be hashed
   * @throws KeyGroupOutOfRangeError when the key's group is not owned by this backend
   */
  setCurrentKey(key: unknown): void {
    if (key === this.currentKey && this.currentCanonical !== undefined && typeof key !== "object") return;
    const primitive = typeof key !== "object";
    if (primitive) {
      const cached = this.keyCache.get(key);
      if (cached !== undefined) {
        this.currentKey = key;
        this.currentCanonical = cached;
        return;
      }
    }
    let canonical: string;
    try {
      canonical = canonicalKey(key);
    } catch (e) {
      if (e instanceof UnsupportedKeyError) throw new UnsupportedKeyError(e.description, e.path, this.operatorUid);
      throw e;
    }
    const kg = keyGroupOf(canonical, this.maxParallelism);
    if (kg < this.rangeStart || kg > this.rangeEnd) {
      throw new KeyGroupOutOfRangeError(this.operatorUid, describeCanonicalKey(canonical), kg, [this.rangeStart, this.rangeEnd]);
    }
    this.currentKey = key;
    this.currentCanonical = canonical;
    if (primitive) {
      if (this.keyCache.size >= KEY_CACHE_LIMIT) this.keyCache.clear();
      this.keyCache.set(key, canonical);
    }
  }

  /** Every key that has state `name`, with the state's stored value (timers rebuild their queues from it on restore). */
  *entriesOf(name: string): IterableIterator<[key: unknown, value: unknown]> {
    const t = this.tables.get(name);
    if (!t) return;
    for (const [k, v] of t.map.entries()) yield [decodeCanonicalKey(k), v];
  }

  /**
   * @internal Engine-owned keyed state `name` at the current key, without copies
   * (see {@link EngineKeyedState}); `copy` must deep-copy whatever the engine
   * mutates in place. Stored as value state.
   */
  getEngineState<V>(name: string, copy: (value: V) => V): EngineKeyedState<V> {
    const map = this.table({ name, kind: "value" } as AnyStateDescriptor).map as LayeredMap<V>;
    return {
      get: () => map.get(this.currentKeyFor(name)),
      getOwned: () => map.getOwned(this.currentKeyFor(name), copy),
      set: (value) => map.set(this.currentKeyFor(name), value),
    };
  }

  /** The key set by the last {@link setCurrentKey}, or undefined. */
  getCurrentKey(): unknown {
    return this.currentKey;
  }

  /** @internal Used by the state handles. */
  currentKeyFor(stateName: string): string {
    const k = this.currentCanonical;
    if (k === undefined) throw new NoCurrentKeyError(this.operatorUid, stateName);
    return k;
  }

  /** @internal Used by the state handles: a value that is not plain data, located. */
  valueError(stateName: string, e: PlainDataError): Error {
    const key = this.currentCanonical === undefined ? "" : ` at key ${describeCanonicalKey(this.currentCanonical)}`;
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
    const created: StateTable = { name: d.name, kind: d.kind, map: new LayeredMap() };
    this.tables.set(d.name, created);
    return created;
  }

  private handle<H>(d: AnyStateDescriptor, make: (map: LayeredMap<never>) => H): H {
    const t = this.table(d);
    const difference = t.descriptor && descriptorDifference(t.descriptor, d);
    if (difference) throw new StateDescriptorMismatchError(this.operatorUid, d.name, difference);
    t.descriptor ??= d;
    t.handle ??= make(t.map as LayeredMap<never>);
    return t.handle as H;
  }

  /** The {@link ValueState} named by `d` (the same handle for the same name). */
  getState<T>(d: ValueStateDescriptor<T>): ValueState<T> {
    return this.handle(d as ValueStateDescriptor<unknown>, (m) => new HeapValueState<T>(this, d.name, m, d.defaultValue));
  }

  /** The keyed {@link ListState} named by `d`. */
  getListState<T>(d: ListStateDescriptor<T>): ListState<T> {
    return this.handle(d, (m) => new HeapListState<T>(this, d.name, m));
  }

  /** The {@link MapState} named by `d`. */
  getMapState<K, V>(d: MapStateDescriptor<K, V>): MapState<K, V> {
    return this.handle(d, (m) => new HeapMapState<K, V>(this, d.name, m));
  }

  /** The {@link ReducingState} named by `d`. */
  getReducingState<T>(d: ReducingStateDescriptor<T>): ReducingState<T> {
    return this.handle(d as ReducingStateDescriptor<unknown>, (m) => new HeapReducingState<T>(this, d.name, m, d.reduce));
  }

  /** The {@link AggregatingState} named by `d`. */
  getAggregatingState<IN, ACC, OUT>(d: AggregatingStateDescriptor<IN, ACC, OUT>): AggregatingState<IN, OUT> {
    return this.handle(
      d as AggregatingStateDescriptor<unknown, unknown, unknown>,
      (m) => new HeapAggregatingState<IN, ACC, OUT>(this, d.name, m, d.agg),
    );
  }

  /**
   * Synchronous part of a checkpoint: captures every state in O(1) each (no
   * entry is copied). Writes after this call do not change what the snapshot
   * serializes. Call `release()` on the result when done or aborted.
   */
  snapshot(checkpointId: number): StateSnapshot {
    const captured = [...this.tables.values()].map((t) => ({ t, view: t.map.capture() as LayerView<unknown> }));
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
          captured.map(({ t, view }) => ({ name: t.name, kind: t.kind, entries: t.map.viewEntries(view) })),
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
   * parallelism), keeping only the entries whose key group is in this
   * backend's range. Entries are added to the current content.
   *
   * @throws StateRestoreError on a corrupt blob or a different max parallelism
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
        const table = this.table({ name: s.name, kind: s.kind } as AnyStateDescriptor);
        for (const chunk of s.chunks) {
          forEachChunkEntry(chunk, (kg, key, value) => {
            if (kg >= this.rangeStart && kg <= this.rangeEnd) table.map.set(key, value);
          });
        }
      }
    });
  }

  /** Number of distinct keys with any state. O(entries): for metrics and tests. */
  numKeys(): number {
    const keys = new Set<string>();
    for (const t of this.tables.values()) for (const [k] of t.map.entries()) keys.add(k);
    return keys.size;
  }

  /** Layer and copy counters (for metrics and tests). */
  stats(): HeapStateStats {
    let maxLayers = 0;
    let copiedEntries = 0;
    for (const t of this.tables.values()) {
      maxLayers = Math.max(maxLayers, t.map.layerCount());
      copiedEntries += t.map.copiedEntries();
    }
    return { states: this.tables.size, maxLayers, copiedEntries };
  }

  /** Releases outstanding snapshots and drops all state. */
  dispose(): void {
    for (const s of [...this.snapshots]) s.release();
    for (const t of this.tables.values()) t.map.clearAll();
    this.tables.clear();
    this.currentKey = undefined;
    this.currentCanonical = undefined;
  }
}
