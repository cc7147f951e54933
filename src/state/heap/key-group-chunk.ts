/**
 * The encoding of one key group of one state in a snapshot: a msgpack pair
 * `[keys, values]` of two columns of equal length. A column whose elements
 * are all int32 numbers is an `Int32Array`, one of other numbers a
 * `Float64Array` (both written by msgpackr as typed arrays, in little-endian
 * byte order), any other an array of the state keys or values (msgpack with
 * structured-clone extensions). A running count keyed by numbers thus takes
 * 8 bytes an entry and encodes at memory speed.
 */

import { StateRestoreError } from "../errors.ts";
import { decodeStateValue, packPlainData } from "../serializer.ts";
import type { StateKey } from "../state-key.ts";

/** Typed columns are written only where they read back the same everywhere (msgpackr writes the platform's byte order). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A decoded column: the state keys or values of a key group, in order. */
export type Column<T> = ArrayLike<T>;

/**
 * The numbers of `items` as an `Int32Array` when all are int32 (`-0` is
 * not), a `Float64Array` when all are numbers, else undefined.
 */
function numberColumn(items: readonly unknown[]): Int32Array | Float64Array | undefined {
  if (!LITTLE_ENDIAN) return undefined;
  const n = items.length;
  const ints = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const x = items[i];
    if (typeof x !== "number") return undefined;
    if ((x | 0) !== x || (x === 0 && 1 / x < 0)) {
      const floats = new Float64Array(n);
      floats.set(ints.subarray(0, i));
      for (; i < n; i++) {
        const y = items[i];
        if (typeof y !== "number") return undefined;
        floats[i] = y;
      }
      return floats;
    }
    ints[i] = x;
  }
  return ints;
}

/**
 * Encodes the entries of one key group, given as key and value columns
 * (values already checked to be plain data when they entered state), into
 * a buffer of its own.
 *
 * @example
 * ```ts
 * const bytes = encodeKeyGroupChunk([1, 2], [10, 20]); // two Int32Array columns
 * decodeKeyGroupChunk(bytes, "op", "count");           // [Int32Array [1, 2], Int32Array [10, 20]]
 * ```
 */
export function encodeKeyGroupChunk(keys: readonly StateKey[], values: readonly unknown[]): Uint8Array {
  const chunk = [numberColumn(keys) ?? keys, numberColumn(values) ?? values];
  // A copy of its own: the encoder's buffer is shared with later encodings, and chunks are kept across snapshots.
  return Uint8Array.prototype.slice.call(packPlainData(chunk));
}

/**
 * Decodes a chunk written by {@link encodeKeyGroupChunk} into its key and value columns.
 *
 * @throws StateRestoreError naming the operator and state when the chunk is malformed
 */
export function decodeKeyGroupChunk(bytes: Uint8Array, operatorUid: string, stateName: string): [Column<StateKey>, Column<unknown>] {
  let decoded: unknown;
  try {
    decoded = decodeStateValue(bytes);
  } catch (e) {
    throw new StateRestoreError(operatorUid, `a key group of state '${stateName}' is not valid msgpack (${(e as Error).message})`);
  }
  const [keys, values] = Array.isArray(decoded) && decoded.length === 2 ? (decoded as [unknown, unknown]) : [undefined, undefined];
  if (!isColumn(keys) || !isColumn(values) || keys.length !== values.length) {
    throw new StateRestoreError(operatorUid, `a key group of state '${stateName}' is malformed (two columns of equal length expected)`);
  }
  if (!LITTLE_ENDIAN && !(Array.isArray(keys) && Array.isArray(values))) {
    throw new StateRestoreError(operatorUid, `state '${stateName}' has number columns in little-endian order, which this big-endian machine cannot read`);
  }
  return [keys as Column<StateKey>, values];
}

function isColumn(c: unknown): c is Column<unknown> {
  return Array.isArray(c) || c instanceof Int32Array || c instanceof Float64Array;
}
