/**
 * The heap keyed state backend: keyed state in JavaScript maps, one
 * {@link KeyGroupedMap} per registered state (a map per key group), keyed by
 * the primitive key itself where it is one, checkpointed with an O(key
 * groups) synchronous capture, encode-on-write and an asynchronous, sliced
 * encoding of the rest that reuses unchanged key groups.
 */

import type { StateKind } from "../descriptors.ts";
import type { ChangedKeys } from "../incremental/changed-keys.ts";
import { KeyedStateBackend, type KeyedStateBackendOptions, type StateTable } from "../keyed-state-backend.ts";
import { encodeKeyGroupEntries } from "../snapshot/key-group-chunk.ts";
import { serializeKeyedSnapshot } from "../snapshot/keyed-snapshot-format.ts";
import type { StateSnapshot } from "../state-snapshot.ts";
import { KeyGroupedMap, type KeyGroupedView } from "./key-grouped-map.ts";

/** Options of a {@link HeapKeyedStateBackend}. */
export type HeapKeyedStateBackendOptions = KeyedStateBackendOptions;

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
 * Keyed state on the JavaScript heap (see {@link KeyedStateBackend} for the
 * contract). A full snapshot captures every state in O(key groups) (no entry
 * is copied or encoded); the first write to a captured key group encodes it
 * for the snapshot first.
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
export class HeapKeyedStateBackend extends KeyedStateBackend {
  private readonly snapshots = new Set<StateSnapshot>();

  /** @internal The states are JavaScript maps. */
  override get statesInMemory(): boolean {
    return true;
  }

  protected createMap(_name: string, _kind: StateKind, changes: ChangedKeys | undefined): KeyGroupedMap<unknown> {
    return new KeyGroupedMap(this.rangeStart, this.groups, encodeKeyGroupEntries, changes);
  }

  protected fullSnapshot(checkpointId: number, tables: readonly StateTable[]): StateSnapshot {
    const captured = tables.map((t) => {
      const map = t.map as KeyGroupedMap<unknown>;
      return { t, map, view: map.capture() as KeyGroupedView };
    });
    let released = false;
    let serialized: Promise<Uint8Array> | undefined;
    const header = this.snapshotHeader(checkpointId);
    const snap: StateSnapshot = {
      serialize: () =>
        (serialized ??= serializeKeyedSnapshot(
          header,
          captured.map(({ t, map, view }) => ({ name: t.name, kind: t.kind, ttl: t.ttl, map, view })),
          () => released,
        )),
      release: () => {
        if (released) return;
        released = true;
        for (const { map, view } of captured) map.release(view);
        this.snapshots.delete(snap);
      },
    };
    this.snapshots.add(snap);
    return snap;
  }

  approximateEntries(): number {
    let n = 0;
    for (const t of this.tables.values()) n += (t.map as KeyGroupedMap<unknown>).size;
    return n;
  }

  /** Snapshot and encoding counters (for metrics and tests). */
  stats(): HeapStateStats {
    let liveSnapshots = 0;
    let groupsEncodedOnWrite = 0;
    let groupsEncodedBySerializer = 0;
    let groupsReused = 0;
    for (const t of this.tables.values()) {
      const m = (t.map as KeyGroupedMap<unknown>).stats();
      liveSnapshots = Math.max(liveSnapshots, m.liveViews);
      groupsEncodedOnWrite += m.encodedOnWrite;
      groupsEncodedBySerializer += m.encodedBySerializer;
      groupsReused += m.reused;
    }
    return { states: this.tables.size, liveSnapshots, groupsEncodedOnWrite, groupsEncodedBySerializer, groupsReused };
  }

  override dispose(): void {
    for (const s of [...this.snapshots]) s.release();
    for (const t of this.tables.values()) (t.map as KeyGroupedMap<unknown>).clearAll();
    super.dispose();
  }
}
