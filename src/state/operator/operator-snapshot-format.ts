/**
 * The serialized form of an operator (non-keyed) state snapshot:
 * msgpack `{ format: "weir-operator", version: 1, operatorUid, checkpointId, states: [{ name, mode, elements }] }`
 * where `elements` is the packed array of the list's elements.
 */

import { StateRestoreError } from "../errors.ts";
import { decodeStateValue, encodeStateValue, packPlainData } from "../serializer.ts";
import type { OperatorStateMode } from "./operator-list-state.ts";

const FORMAT = "weir-operator";

/** One list state of an operator snapshot, decoded. */
export interface OperatorStateEntry {
  readonly name: string;
  readonly mode: OperatorStateMode;
  readonly elements: readonly unknown[];
}

interface WireState {
  readonly name: string;
  readonly mode: OperatorStateMode;
  readonly elements: Uint8Array;
}

interface WireBlob {
  readonly format: typeof FORMAT;
  readonly version: 1;
  readonly operatorUid: string;
  /** Checkpoint that wrote it; -1 for a blob made by redistribution. */
  readonly checkpointId: number;
  readonly states: readonly WireState[];
}

/**
 * Encodes operator list states, checking that every element is plain data.
 *
 * @throws StateSerializationError naming the operator and the state
 */
export function encodeOperatorSnapshot(
  operatorUid: string,
  checkpointId: number,
  states: readonly OperatorStateEntry[],
): Uint8Array {
  const wire: WireState[] = states.map((s) => ({
    name: s.name,
    mode: s.mode,
    elements: encodeStateValue(s.elements, { operatorUid, stateName: s.name }),
  }));
  const blob: WireBlob = { format: FORMAT, version: 1, operatorUid, checkpointId, states: wire };
  return packPlainData(blob);
}

/**
 * Decodes an operator snapshot.
 *
 * @throws StateRestoreError naming `operatorUid` (when known) and the blob index
 */
export function decodeOperatorSnapshot(
  bytes: Uint8Array,
  index: number,
  operatorUid?: string,
): { operatorUid: string; states: OperatorStateEntry[] } {
  const uid = operatorUid ?? "<unknown>";
  let blob: Partial<WireBlob> | undefined;
  try {
    blob = decodeStateValue(bytes) as Partial<WireBlob>;
  } catch (e) {
    throw new StateRestoreError(uid, `operator-state blob #${index} is not valid msgpack (${(e as Error).message})`);
  }
  if (typeof blob !== "object" || blob === null || blob.format !== FORMAT || blob.version !== 1 || !Array.isArray(blob.states)) {
    throw new StateRestoreError(uid, `operator-state blob #${index} is not an operator-state snapshot (format ${FORMAT} v1)`);
  }
  const states = blob.states.map((s): OperatorStateEntry => {
    if (typeof s?.name !== "string" || (s.mode !== "split" && s.mode !== "union") || !(s.elements instanceof Uint8Array)) {
      throw new StateRestoreError(uid, `operator-state blob #${index} has a malformed state entry`);
    }
    const elements = decodeStateValue(s.elements);
    if (!Array.isArray(elements)) throw new StateRestoreError(uid, `state '${s.name}' in blob #${index} is not a list`);
    return { name: s.name, mode: s.mode, elements };
  });
  return { operatorUid: typeof blob.operatorUid === "string" ? blob.operatorUid : uid, states };
}
