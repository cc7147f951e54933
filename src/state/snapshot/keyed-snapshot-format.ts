/**
 * The serialized form of a heap keyed-state snapshot, and its (de)coding.
 *
 * Outer msgpack object (version 2):
 * `{ format: "weir-heap-keyed", version: 2, operatorUid, checkpointId,
 *    maxParallelism, keyGroupRange, states: [{ name, kind, ttl?, keyGroups, chunks }] }`
 * where `chunks[i]` holds the entries of key group `keyGroups[i]` (one chunk
 * per non-empty key group, see key-group-chunk.ts), so a restore decodes
 * only the key groups it owns. `ttl: true` marks a state whose values are
 * stored in the TTL form (`[value, lastAccess]`, see src/state/ttl/), so that
 * it is not restored into a state without TTL, nor the other way round.
 *
 * A delta snapshot (incremental checkpoints, see src/state/incremental/) has
 * the same form with `delta: true`: `chunks` hold the keys written since the
 * previous snapshot of its chain with their values at this snapshot, and each
 * state also has `removedKeyGroups` and `removed` (a packed array of the keys
 * deleted since, per key group). Restoring applies the blobs of a chain in
 * order: the full one, then each delta.
 *
 * Version 1 held flat `[keyGroup, canonicalKey, value, …]` chunks, with key
 * groups of number keys hashed from their canonical string. Its blobs are
 * still restored unless they hold a number key, whose key group has changed
 * (such a blob is refused with a clear error).
 */

import { decodeCanonicalKey } from "../canonical-key.ts";
import type { StateKind } from "../descriptors.ts";
import { StateRestoreError } from "../errors.ts";
import { decodeStateValue, packPlainDataSized } from "../serializer.ts";
import { stateKeyOf, type StateKey } from "../state-key.ts";
import { type Column, decodeKeyGroupChunk } from "./key-group-chunk.ts";
import type { KeyGroupedMap, KeyGroupedView } from "../heap/key-grouped-map.ts";
import { yieldToEventLoop } from "../../util/event-loop-turn.ts";

/** Entries encoded between two yields to the event loop (at least one key group). */
export const SLICE_ENTRIES = 8192;

const FORMAT = "weir-heap-keyed";
const VERSION = 2;
const KINDS: readonly StateKind[] = ["value", "list", "map", "reducing", "aggregating"];

/** One state of a version-2 snapshot, as written. */
export interface SerializedKeyedState {
  readonly name: string;
  readonly kind: StateKind;
  /** Present (true) only for a state stored in the TTL form. */
  readonly ttl?: true;
  /** Key group of each chunk. */
  readonly keyGroups: readonly number[];
  readonly chunks: readonly Uint8Array[];
  /** Delta snapshots: key group of each `removed` entry. */
  readonly removedKeyGroups?: readonly number[];
  /** Delta snapshots: the keys deleted since the previous snapshot, a packed `StateKey[]` per key group. */
  readonly removed?: readonly Uint8Array[];
}

/** Header fields of a snapshot. */
export interface KeyedSnapshotHeader {
  readonly operatorUid: string;
  readonly checkpointId: number;
  readonly maxParallelism: number;
  readonly keyGroupRange: readonly [number, number];
}

/** What the serializer reads: each state's map and the view captured from it. */
export interface CapturedKeyedState {
  readonly name: string;
  readonly kind: StateKind;
  readonly ttl: boolean;
  readonly map: KeyGroupedMap<unknown>;
  readonly view: KeyGroupedView;
}

/** One key group of a state being restored: its key group and a reader of its columns. */
export interface RestoredKeyGroup {
  readonly keyGroup: number;
  /** Decodes the group's entries (called only for owned groups). */
  read(): [keys: Column<StateKey>, values: Column<unknown>];
}

/** Keys of one key group deleted by a delta snapshot. */
export interface RemovedKeyGroup {
  readonly keyGroup: number;
  /** Decodes the deleted keys (called only for owned groups). */
  read(): StateKey[];
}

/** One state of a blob being restored. */
export interface RestoredKeyedState {
  readonly name: string;
  readonly kind: StateKind;
  /** Values are stored in the TTL form. */
  readonly ttl: boolean;
  readonly groups: readonly RestoredKeyGroup[];
  /** Delta snapshots: keys deleted since the previous snapshot of the chain (applied after `groups`). */
  readonly removed: readonly RemovedKeyGroup[];
}

/** A decoded keyed snapshot blob (groups still encoded). */
export interface KeyedSnapshotBlob {
  /** True for a delta snapshot of an incremental chain. */
  readonly delta: boolean;
  readonly maxParallelism: number;
  readonly states: readonly RestoredKeyedState[];
}

/**
 * Encodes the key groups of the captured states that are still pending
 * (writes since the capture encoded theirs already; unchanged groups reuse
 * the encoding of an earlier snapshot), yielding to the event loop after
 * every {@link SLICE_ENTRIES} entries encoded, then packs the blob. Stops
 * with an error when `isReleased()` turns true (the checkpoint was aborted).
 */
export async function serializeKeyedSnapshot(
  header: KeyedSnapshotHeader,
  states: readonly CapturedKeyedState[],
  isReleased: () => boolean,
): Promise<Uint8Array> {
  const out: SerializedKeyedState[] = [];
  let sliceEntries = 0;
  for (const { name, kind, ttl, map, view } of states) {
    const keyGroups: number[] = [];
    const chunks: Uint8Array[] = [];
    for (let g = 0; g < map.groups; g++) {
      if (sliceEntries >= SLICE_ENTRIES) {
        await yieldToEventLoop();
        sliceEntries = 0;
      }
      if (isReleased()) {
        throw new Error(`snapshot ${header.checkpointId} of operator '${header.operatorUid}' was released while serializing`);
      }
      sliceEntries += map.encodePending(view, g);
      const chunk = view.chunks[g];
      if (chunk) {
        keyGroups.push(map.firstKeyGroup + g);
        chunks.push(chunk);
      }
    }
    out.push({ name, kind, ...ttlMarker(ttl), keyGroups, chunks });
  }
  return packKeyedSnapshot(header, out, false);
}

/** The `ttl` field of a state that has TTL (none otherwise, so blobs without TTL are unchanged). */
export function ttlMarker(ttl: boolean): { ttl?: true } {
  return ttl ? { ttl: true } : {};
}

/** Packs encoded states into a snapshot blob: a full one, or with `delta` a delta of an incremental chain. */
export function packKeyedSnapshot(header: KeyedSnapshotHeader, states: readonly SerializedKeyedState[], delta: boolean): Uint8Array {
  // the blob's size, about: its encoded parts (with a bin header of 5 bytes), their key groups, names and header
  let bytes = 1024;
  for (const s of states) {
    bytes += 256 + 9 * (s.keyGroups.length + (s.removedKeyGroups?.length ?? 0));
    for (const chunk of s.chunks) bytes += chunk.length + 5;
    for (const keys of s.removed ?? []) bytes += keys.length + 5;
  }
  return packPlainDataSized({ format: FORMAT, version: VERSION, ...header, ...(delta ? { delta: true } : {}), states }, bytes);
}

/**
 * Decodes and checks the outer structure of a keyed snapshot blob (version 2,
 * or version 1 without number keys).
 *
 * @throws StateRestoreError naming `operatorUid` and the blob index when it is not one, or cannot be restored
 */
export function decodeKeyedSnapshot(bytes: Uint8Array, operatorUid: string, index: number): KeyedSnapshotBlob {
  let blob: Record<string, unknown> | undefined;
  try {
    blob = decodeStateValue(bytes) as Record<string, unknown>;
  } catch (e) {
    throw new StateRestoreError(operatorUid, `blob #${index} is not valid msgpack (${(e as Error).message})`);
  }
  if (typeof blob !== "object" || blob === null || blob.format !== FORMAT || !Array.isArray(blob.states)) {
    throw new StateRestoreError(operatorUid, `blob #${index} is not a heap keyed-state snapshot (format ${FORMAT})`);
  }
  const maxParallelism = blob.maxParallelism as number;
  const states = blob.states as Record<string, unknown>[];
  for (const s of states) {
    if (typeof s?.name !== "string" || !KINDS.includes(s.kind as StateKind) || !Array.isArray(s.chunks)) {
      throw new StateRestoreError(operatorUid, `blob #${index} has a malformed state entry`);
    }
  }
  if (blob.version === 1) return { delta: false, maxParallelism, states: states.map((s) => fromVersion1(s, operatorUid, index)) };
  if (blob.version !== VERSION) {
    throw new StateRestoreError(operatorUid, `blob #${index} has format version ${String(blob.version)}; this version of weir reads versions 1 and ${VERSION}`);
  }
  return {
    delta: blob.delta === true,
    maxParallelism,
    states: states.map((s) => {
      const { name, kind, ttl, keyGroups, chunks, removedKeyGroups = [], removed = [] } = s as unknown as SerializedKeyedState;
      if (!Array.isArray(keyGroups) || keyGroups.length !== chunks.length || !Array.isArray(removed) || removedKeyGroups.length !== removed.length) {
        throw new StateRestoreError(operatorUid, `blob #${index} has a malformed state entry`);
      }
      return {
        name,
        kind,
        ttl: ttl === true,
        groups: chunks.map((chunk, i) => ({ keyGroup: keyGroups[i]!, read: () => decodeKeyGroupChunk(chunk, operatorUid, name) })),
        removed: removed.map((keys, i) => ({ keyGroup: removedKeyGroups[i]!, read: () => decodeStateValue(keys) as StateKey[] })),
      };
    }),
  };
}

/** A version-1 state regrouped by key group; refuses number keys, whose key group has changed. */
function fromVersion1(s: Record<string, unknown>, operatorUid: string, index: number): RestoredKeyedState {
  const name = s.name as string;
  const byGroup = new Map<number, [StateKey[], unknown[]]>();
  for (const chunk of s.chunks as Uint8Array[]) {
    const flat = decodeStateValue(chunk) as unknown[];
    for (let i = 0; i < flat.length; i += 3) {
      const key = decodeCanonicalKey(flat[i + 1] as string);
      if (typeof key === "number") {
        throw new StateRestoreError(
          operatorUid,
          `blob #${index} is a format-1 snapshot with number keys (state '${name}', key ${key}); number keys now hash to other key groups, so it cannot be restored by this version of weir`,
        );
      }
      const kg = flat[i] as number;
      let group = byGroup.get(kg);
      if (group === undefined) byGroup.set(kg, (group = [[], []]));
      group[0].push(stateKeyOf(key));
      group[1].push(flat[i + 2]);
    }
  }
  return { name, kind: s.kind as StateKind, ttl: false, groups: [...byGroup].map(([keyGroup, columns]) => ({ keyGroup, read: () => columns })), removed: [] };
}
