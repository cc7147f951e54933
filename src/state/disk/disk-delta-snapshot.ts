/**
 * A delta snapshot of the disk backend (incremental checkpoints): the keys
 * each state wrote since the previous snapshot of the chain, taken at the
 * barrier, with their values at the barrier — the value frozen with the
 * checkpoint's generation (write-back-cache.ts) when the key was dirty then,
 * else the stored one, read in an LMDB read transaction opened once that
 * generation is in the store. Encoded when serialized, in slices of
 * {@link SLICE_ENTRIES} keys with a turn of the event loop between them,
 * into the heap backend's delta format (keyed-snapshot-format.ts).
 */

import type { LmdbReadTransaction } from "./lmdb-surface.ts";
import { packPlainData } from "../serializer.ts";
import { encodeKeyGroupChunk } from "../snapshot/key-group-chunk.ts";
import { type KeyedSnapshotHeader, packKeyedSnapshot, SLICE_ENTRIES, type SerializedKeyedState, ttlMarker } from "../snapshot/keyed-snapshot-format.ts";
import type { StateSnapshot } from "../state-snapshot.ts";
import type { StateKey } from "../state-key.ts";
import type { StateKind } from "../descriptors.ts";
import type { DiskStore } from "./disk-store.ts";
import type { CacheEntry, FrozenEntries } from "./write-back-cache.ts";

/** One state's changes taken at the barrier. */
export interface DeltaState {
  readonly name: string;
  readonly kind: StateKind;
  readonly ttl: boolean;
  /** The state's id in store keys. */
  readonly stateId: number;
  /** The state's index of cached entries (identifies its frozen entries). */
  readonly index: ReadonlyMap<StateKey, CacheEntry>;
  /** Changed keys per key-group index, as `ChangedKeys.take()` returned them. */
  readonly changed: readonly [g: number, keys: ReadonlyMap<StateKey, number>][];
}

/** How the delta reads a stored value: its store key in key group `g` (index) of the state, decoded, or undefined. */
export type StoredValueReader = (state: DeltaState, g: number, k: StateKey, txn: LmdbReadTransaction) => unknown;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Opens the read transaction now (call it when the generation `frozen` is
 * in the store) and returns the snapshot; `onRelease` is called once when it
 * is released.
 *
 * @example
 * ```ts
 * const snap = takeDiskDelta(store, header, states, 0, frozen, readStored, () => {});
 * const bytes = await snap.serialize();
 * snap.release();
 * ```
 */
export function takeDiskDelta(
  store: DiskStore,
  header: KeyedSnapshotHeader,
  states: readonly DeltaState[],
  firstKeyGroup: number,
  frozen: FrozenEntries,
  readStored: StoredValueReader,
  onRelease: () => void,
): StateSnapshot {
  let txn: LmdbReadTransaction | undefined = store.readTransaction();
  let released = false;
  let serialized: Promise<Uint8Array> | undefined;

  const release = (): void => {
    if (released) return;
    released = true;
    txn?.done();
    txn = undefined;
    onRelease();
  };

  const serialize = async (): Promise<Uint8Array> => {
    const stopped = (): Error => new Error(`snapshot ${header.checkpointId} of operator '${header.operatorUid}' was released while serializing`);
    const frozenOf = new Map<ReadonlyMap<StateKey, CacheEntry>, Map<StateKey, unknown>>();
    for (let i = 0; i < frozen.entries.length; i++) {
      const e = frozen.entries[i]!;
      let m = frozenOf.get(e.index);
      if (m === undefined) frozenOf.set(e.index, (m = new Map()));
      m.set(e.key, frozen.values[i]);
    }
    const out: SerializedKeyedState[] = [];
    let slice = 0;
    for (const s of states) {
      const frozenValues = frozenOf.get(s.index);
      const keyGroups: number[] = [];
      const chunks: Uint8Array[] = [];
      const removedKeyGroups: number[] = [];
      const removed: Uint8Array[] = [];
      for (const [g, changed] of s.changed) {
        if (slice >= SLICE_ENTRIES) {
          await yieldToEventLoop();
          slice = 0;
        }
        if (released) throw stopped();
        const keys: StateKey[] = [];
        const values: unknown[] = [];
        const gone: StateKey[] = [];
        for (const k of changed.keys()) {
          const v = frozenValues?.has(k) ? frozenValues.get(k) : readStored(s, g, k, txn!);
          if (v === undefined) gone.push(k);
          else {
            keys.push(k);
            values.push(v);
          }
        }
        slice += changed.size;
        if (keys.length > 0) {
          keyGroups.push(firstKeyGroup + g);
          chunks.push(encodeKeyGroupChunk(keys, values));
        }
        if (gone.length > 0) {
          removedKeyGroups.push(firstKeyGroup + g);
          removed.push(packPlainData(gone));
        }
      }
      out.push({ name: s.name, kind: s.kind, ...ttlMarker(s.ttl), keyGroups, chunks, removedKeyGroups, removed });
    }
    return packKeyedSnapshot(header, out, true);
  };

  return {
    serialize: () => (serialized ??= serialize()),
    release,
  };
}
