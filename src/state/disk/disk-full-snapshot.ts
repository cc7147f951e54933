/**
 * A full snapshot of the disk backend: an LMDB read transaction opened when
 * the snapshot is taken (after the dirty cache entries were written), so it
 * sees exactly the state at that moment while processing goes on writing.
 * Serializing scans the backend's key-group range in that transaction and
 * re-encodes each key group of each state as a chunk (key-group-chunk.ts),
 * yielding to the event loop at the first key group after each
 * {@link SNAPSHOT_SLICE_MS} of it, into the same blob format as the heap
 * backend (keyed-snapshot-format.ts): the two backends restore each other's
 * snapshots.
 */

import type { LmdbReadTransaction } from "./lmdb-surface.ts";
import type { StateKind } from "../descriptors.ts";
import { encodeKeyGroupChunk } from "../snapshot/key-group-chunk.ts";
import { type KeyedSnapshotHeader, packKeyedSnapshot, type SerializedKeyedState, ttlMarker } from "../snapshot/keyed-snapshot-format.ts";
import type { StateSnapshot } from "../state-snapshot.ts";
import type { StateKey } from "../state-key.ts";
import { keyGroupOfEntry, stateIdOfEntry, stateKeyOfEntry } from "./disk-key-codec.ts";
import { decodeStoredValue } from "./disk-value-codec.ts";
import type { DiskStore } from "./disk-store.ts";
import { yieldToEventLoop } from "../../util/event-loop-turn.ts";
import { SNAPSHOT_SLICE_MS } from "./snapshot-slices.ts";

/** A state included in a snapshot. */
export interface SnapshotState {
  readonly id: number;
  readonly name: string;
  readonly kind: StateKind;
  /** Values stored in the TTL form: marked in the blob. */
  readonly ttl: boolean;
}

interface Accumulator {
  readonly state: SnapshotState;
  readonly keyGroups: number[];
  readonly chunks: Uint8Array[];
  keys: StateKey[];
  values: unknown[];
}

/**
 * Opens the read transaction now and returns the snapshot; `onRelease` is
 * called once when it is released.
 *
 * @example
 * ```ts
 * const snap = takeDiskSnapshot(store, header, [{ id: 1, name: "count", kind: "value", ttl: false }], [0, 127], () => {});
 * const bytes = await snap.serialize();
 * snap.release();
 * ```
 */
export function takeDiskSnapshot(
  store: DiskStore,
  header: KeyedSnapshotHeader,
  states: readonly SnapshotState[],
  range: readonly [number, number],
  onRelease: () => void,
): StateSnapshot {
  let txn: LmdbReadTransaction | undefined = store.readTransaction();
  let iterator: Iterator<{ key: Uint8Array; value: Uint8Array }> | undefined;
  let released = false;
  let serialized: Promise<Uint8Array> | undefined;

  const release = (): void => {
    if (released) return;
    released = true;
    iterator?.return?.(); // the serializer is suspended between slices: close its cursor before the transaction
    iterator = undefined;
    txn?.done();
    txn = undefined;
    onRelease();
  };

  const serialize = async (): Promise<Uint8Array> => {
    const byId = new Map<number, Accumulator>(states.map((s) => [s.id, { state: s, keyGroups: [], chunks: [], keys: [], values: [] }]));
    let group = -1;
    const finishGroup = (): void => {
      for (const acc of byId.values()) {
        if (acc.keys.length === 0) continue;
        acc.keyGroups.push(group);
        acc.chunks.push(encodeKeyGroupChunk(acc.keys, acc.values));
        acc.keys = [];
        acc.values = [];
      }
    };
    const stopped = (): Error => new Error(`snapshot ${header.checkpointId} of operator '${header.operatorUid}' was released while serializing`);
    if (released) throw stopped();
    iterator = store.scan(range[0], range[1], txn)[Symbol.iterator]();
    let until = performance.now() + SNAPSHOT_SLICE_MS;
    for (;;) {
      let next: IteratorResult<{ key: Uint8Array; value: Uint8Array }>;
      try {
        next = iterator.next();
      } catch (e) {
        throw store.error(`cannot read snapshot ${header.checkpointId} from ${store.file} (${(e as Error).message})`, e);
      }
      if (next.done) break;
      const { key, value } = next.value;
      const kg = keyGroupOfEntry(key);
      if (kg !== group) {
        finishGroup();
        group = kg;
        if (performance.now() >= until) {
          await yieldToEventLoop();
          until = performance.now() + SNAPSHOT_SLICE_MS;
          if (released) throw stopped();
        }
      }
      const acc = byId.get(stateIdOfEntry(key));
      if (acc === undefined) continue; // a state registered after the snapshot was taken
      const k = stateKeyOfEntry(key);
      let v: unknown;
      try {
        if (k === undefined) throw new Error("a malformed key");
        v = decodeStoredValue(value);
      } catch (e) {
        throw store.error(`the store file ${store.file} is corrupt: state '${acc.state.name}' (${(e as Error).message})`, e);
      }
      acc.keys.push(k);
      acc.values.push(v);
    }
    finishGroup();
    iterator = undefined;
    const out: SerializedKeyedState[] = [...byId.values()].map(({ state, keyGroups, chunks }) => ({ name: state.name, kind: state.kind, ...ttlMarker(state.ttl), keyGroups, chunks }));
    return packKeyedSnapshot(header, out, false);
  };

  return {
    serialize: () => (serialized ??= serialize()),
    release,
  };
}
