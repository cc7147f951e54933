/**
 * The serialized form of a heap keyed-state snapshot, and its (de)coding.
 *
 * Outer msgpack object:
 * `{ format: "weir-heap-keyed", version: 1, operatorUid, checkpointId,
 *    maxParallelism, keyGroupRange, states: [{ name, kind, chunks }] }`
 * where each chunk is a separately packed flat array
 * `[keyGroup, canonicalKey, value, keyGroup, canonicalKey, value, …]` of at
 * most {@link SLICE_ENTRIES} entries. Chunks are what the serializer produces
 * between two yields to the event loop, and let restore skip nothing but keep
 * only the key groups it owns.
 */

import type { StateKind } from "../descriptors.ts";
import { StateRestoreError } from "../errors.ts";
import { keyGroupOf } from "../key-groups.ts";
import { decodeStateValue, packPlainData } from "../serializer.ts";

/** Entries serialized between two yields to the event loop. */
export const SLICE_ENTRIES = 8192;

const FORMAT = "weir-heap-keyed";
const KINDS: readonly StateKind[] = ["value", "list", "map", "reducing", "aggregating"];

/** One state of a snapshot, as written. */
export interface SerializedKeyedState {
  readonly name: string;
  readonly kind: StateKind;
  readonly chunks: readonly Uint8Array[];
}

/** A decoded keyed snapshot blob (chunks still packed). */
export interface KeyedSnapshotBlob {
  readonly format: typeof FORMAT;
  readonly version: 1;
  readonly operatorUid: string;
  readonly checkpointId: number;
  readonly maxParallelism: number;
  readonly keyGroupRange: readonly [number, number];
  readonly states: readonly SerializedKeyedState[];
}

/** What the serializer reads: the captured entries of each state. */
export interface CapturedKeyedState {
  readonly name: string;
  readonly kind: StateKind;
  readonly entries: Iterator<[string, unknown]>;
}

/** Header fields of a snapshot. */
export interface KeyedSnapshotHeader {
  readonly operatorUid: string;
  readonly checkpointId: number;
  readonly maxParallelism: number;
  readonly keyGroupRange: readonly [number, number];
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Serializes captured states in slices of {@link SLICE_ENTRIES} entries,
 * yielding to the event loop between slices. Stops with an error when
 * `isReleased()` turns true (the checkpoint was aborted).
 *
 * @throws StateSerializationError for a value that is not plain data
 */
export async function serializeKeyedSnapshot(
  header: KeyedSnapshotHeader,
  states: readonly CapturedKeyedState[],
  isReleased: () => boolean,
): Promise<Uint8Array> {
  const out: SerializedKeyedState[] = [];
  for (const state of states) {
    const chunks: Uint8Array[] = [];
    for (;;) {
      if (isReleased()) {
        throw new Error(`snapshot ${header.checkpointId} of operator '${header.operatorUid}' was released while serializing`);
      }
      const flat: unknown[] = [];
      let done = false;
      while (flat.length < SLICE_ENTRIES * 3) {
        const next = state.entries.next();
        if (next.done === true) {
          done = true;
          break;
        }
        // Values were checked to be plain data when they entered state (heap-states.ts).
        const [key, value] = next.value;
        flat.push(keyGroupOf(key, header.maxParallelism), key, value);
      }
      if (flat.length > 0) chunks.push(packPlainData(flat));
      if (done) break;
      await yieldToEventLoop();
    }
    out.push({ name: state.name, kind: state.kind, chunks });
  }
  const blob: KeyedSnapshotBlob = { format: FORMAT, version: 1, ...header, states: out };
  return packPlainData(blob);
}

/**
 * Decodes and checks the outer structure of a keyed snapshot blob.
 *
 * @throws StateRestoreError naming `operatorUid` and the blob index when it is not one
 */
export function decodeKeyedSnapshot(bytes: Uint8Array, operatorUid: string, index: number): KeyedSnapshotBlob {
  let blob: Partial<KeyedSnapshotBlob> | undefined;
  try {
    blob = decodeStateValue(bytes) as Partial<KeyedSnapshotBlob>;
  } catch (e) {
    throw new StateRestoreError(operatorUid, `blob #${index} is not valid msgpack (${(e as Error).message})`);
  }
  if (typeof blob !== "object" || blob === null || blob.format !== FORMAT || blob.version !== 1 || !Array.isArray(blob.states)) {
    throw new StateRestoreError(operatorUid, `blob #${index} is not a heap keyed-state snapshot (format ${FORMAT} v1)`);
  }
  for (const s of blob.states) {
    if (typeof s?.name !== "string" || !KINDS.includes(s.kind) || !Array.isArray(s.chunks)) {
      throw new StateRestoreError(operatorUid, `blob #${index} has a malformed state entry`);
    }
  }
  return blob as KeyedSnapshotBlob;
}

/** Calls `fn(keyGroup, canonicalKey, value)` for every entry of a chunk. */
export function forEachChunkEntry(chunk: Uint8Array, fn: (keyGroup: number, key: string, value: unknown) => void): void {
  const flat = decodeStateValue(chunk) as unknown[];
  for (let i = 0; i < flat.length; i += 3) fn(flat[i] as number, flat[i + 1] as string, flat[i + 2]);
}
