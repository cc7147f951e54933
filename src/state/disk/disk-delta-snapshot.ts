/**
 * A delta snapshot of the disk backend (incremental checkpoints): the keys
 * each state wrote since the previous snapshot of the chain, taken at the
 * barrier, with their values at the barrier — the value frozen with the
 * checkpoint's generation (write-back-cache.ts) when the key was dirty then,
 * else the one frozen with the newest earlier generation still in flight
 * that holds it (a key changed before a savepoint's barrier, which does not
 * end the chain's changes), else the stored one (written by an eviction
 * since), read in an LMDB read transaction opened at the barrier. So the
 * delta needs nothing of the generations' flush (checkpoint-flush.ts) and is
 * encoded while it runs. Encoded when serialized, key group after key group,
 * with a turn of the event loop after each {@link SNAPSHOT_SLICE_MS} of them, into the
 * heap backend's delta format (keyed-snapshot-format.ts).
 */

import { packPlainData } from "../serializer.ts";
import { encodeKeyGroupChunk } from "../snapshot/key-group-chunk.ts";
import { type KeyedSnapshotHeader, packKeyedSnapshot, type SerializedKeyedState, ttlMarker } from "../snapshot/keyed-snapshot-format.ts";
import type { StateSnapshot } from "../state-snapshot.ts";
import type { StateKey } from "../state-key.ts";
import type { StateKind } from "../descriptors.ts";
import type { DiskStore, StoreView } from "./disk-store.ts";
import type { CacheEntry, FrozenEntries } from "./write-back-cache.ts";
import { yieldToEventLoop } from "../../util/event-loop-turn.ts";
import { SNAPSHOT_SLICE_MS } from "./snapshot-slices.ts";

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
export type StoredValueReader = (state: DeltaState, g: number, k: StateKey, view: StoreView) => unknown;

/** A generation's frozen values by state (its index of cached entries) and key. */
type FrozenValues = Map<ReadonlyMap<StateKey, CacheEntry>, Map<StateKey, unknown>>;

function frozenValues(frozen: FrozenEntries): FrozenValues {
  const byState: FrozenValues = new Map();
  for (let i = 0; i < frozen.entries.length; i++) {
    const e = frozen.entries[i]!;
    let m = byState.get(e.index);
    if (m === undefined) byState.set(e.index, (m = new Map()));
    m.set(e.key, frozen.values[i]);
  }
  return byState;
}

/**
 * Opens the read transaction now (call it at the barrier, when `frozen` was
 * taken, before anything is written to the store) and returns the snapshot;
 * `onRelease` is called once when it is released. `frozen` is the barrier's
 * generation, then the earlier ones not yet durable, newest first.
 *
 * @example
 * ```ts
 * const snap = takeDiskDelta(store, header, states, 0, [frozen, ...flush.inFlight().reverse()], readStored, () => {});
 * const bytes = await snap.serialize();
 * snap.release();
 * ```
 */
export function takeDiskDelta(
  store: DiskStore,
  header: KeyedSnapshotHeader,
  states: readonly DeltaState[],
  firstKeyGroup: number,
  frozen: readonly FrozenEntries[],
  readStored: StoredValueReader,
  onRelease: () => void,
): StateSnapshot {
  let view: StoreView | undefined = store.readView();
  let released = false;
  let serialized: Promise<Uint8Array> | undefined;

  const release = (): void => {
    if (released) return;
    released = true;
    view?.txn.done();
    view = undefined;
    onRelease();
  };

  const serialize = async (): Promise<Uint8Array> => {
    const stopped = (): Error => new Error(`snapshot ${header.checkpointId} of operator '${header.operatorUid}' was released while serializing`);
    const byGeneration: (FrozenValues | undefined)[] = [];
    const valuesOf = (generation: number): FrozenValues => (byGeneration[generation] ??= frozenValues(frozen[generation]!));
    const out: SerializedKeyedState[] = [];
    let until = performance.now() + SNAPSHOT_SLICE_MS;
    for (const s of states) {
      const own = valuesOf(0).get(s.index);
      /** The value of `k` frozen with the newest earlier generation in flight that holds it, else the stored one. */
      const earlier = (g: number, k: StateKey): unknown => {
        for (let i = 1; i < frozen.length; i++) {
          const m = valuesOf(i).get(s.index);
          if (m?.has(k)) return m.get(k);
        }
        return readStored(s, g, k, view!);
      };
      const keyGroups: number[] = [];
      const chunks: Uint8Array[] = [];
      const removedKeyGroups: number[] = [];
      const removed: Uint8Array[] = [];
      for (const [g, changed] of s.changed) {
        if (performance.now() >= until) {
          await yieldToEventLoop();
          until = performance.now() + SNAPSHOT_SLICE_MS;
        }
        if (released) throw stopped();
        const keys: StateKey[] = [];
        const values: unknown[] = [];
        const gone: StateKey[] = [];
        for (const k of changed.keys()) {
          const v = own?.has(k) ? own.get(k) : earlier(g, k);
          if (v === undefined) gone.push(k);
          else {
            keys.push(k);
            values.push(v);
          }
        }
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
