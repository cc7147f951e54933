/**
 * Encoding of state values: msgpack (msgpackr with structured-clone extensions,
 * so Map vs object, Set, Date, Uint8Array, bigint and `undefined` inside arrays
 * round-trip) after a check that the value is plain data.
 *
 * A value made of arrays and primitives only (the rows of SQL state, most key
 * columns) is packed without the reference tracking of structured cloning,
 * which costs a map operation per array: the bytes are the same (msgpackr
 * writes a reference only for an object met twice, and such a value is read
 * back alike from either: an array met twice comes back as two equal arrays),
 * in about half the time.
 *
 * Where the bytes are kept apart from the encoder's buffer (the key groups of
 * a heap snapshot), they are packed into a buffer reused by each such packing
 * and copied out at their size ({@link packPlainDataCopy}); a large blob made
 * of such parts is packed into one buffer of its own sized up front
 * ({@link packPlainDataSized}). Either spares the buffers msgpackr grows as it
 * goes (four times the bytes so far, each growth a copy): memory touched for
 * the first time costs a page fault per 4 KiB, which on the machines measured
 * made a fresh megabyte cost several milliseconds, more than encoding it.
 */

import { Packr } from "msgpackr";
import { ALLOWED_STATE_VALUES, StateSerializationError } from "./errors.ts";
import { findNonPlainData } from "./plain-data.ts";

const packr = new Packr({ structuredClone: true, useBigIntExtension: true });
/** Packs arrays and primitives as {@link packr} does, without tracking references. */
const arrayPackr = new Packr({ useBigIntExtension: true, useRecords: false });

/**
 * The buffer {@link packPlainDataCopy} packs into, rewritten by each call. msgpackr's packers share one
 * buffer (module-wide), in which each packing continues after the last one's bytes, which callers may
 * still hold as views: a packing into a buffer of its own hands the packers a new small buffer after it.
 */
let scratch = Buffer.allocUnsafeSlow(64 << 10);
/** A scratch buffer grown beyond this is let go after its packing (not kept for the next ones). */
const MAX_SCRATCH_BYTES = 8 << 20;

/** Gives the packers (all of them: msgpackr's buffer is shared) a new buffer that no bytes handed out are in. */
function leaveBuffer(): void {
  packr.useBuffer(Buffer.allocUnsafeSlow(8192));
}

/** Nesting of arrays beyond which a value is packed with reference tracking (it may be circular). */
const MAX_ARRAY_DEPTH = 32;

/** Whether `value` holds no object but arrays, nested at most {@link MAX_ARRAY_DEPTH} deep. */
function isArrayTree(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (!Array.isArray(value) || depth === MAX_ARRAY_DEPTH) return false;
  for (let i = 0; i < value.length; i++) {
    const v: unknown = value[i];
    if (typeof v === "object" && v !== null && !isArrayTree(v, depth + 1)) return false;
  }
  return true;
}

/** Where a value comes from, for error messages. Every field is optional. */
export interface StateValueContext {
  readonly operatorUid?: string;
  readonly stateName?: string;
  /** The key (already rendered, e.g. `'user-7'`), for keyed state. */
  readonly key?: string;
}

/**
 * Throws {@link StateSerializationError} when `value` is not plain data.
 * `seen` may be shared across values checked together.
 */
export function assertPlainData(value: unknown, context: StateValueContext, seen: Set<object> = new Set()): void {
  const bad = findNonPlainData(value, seen);
  if (bad === undefined) return;
  const subject = context.key === undefined ? "value" : `value at key ${context.key}`;
  const state = context.stateName === undefined ? "" : ` of state '${context.stateName}'`;
  const op = context.operatorUid === undefined ? "" : ` in operator '${context.operatorUid}'`;
  const what = bad.path === "" ? `is ${bad.what}` : `contains ${bad.what} at ${bad.path}`;
  throw new StateSerializationError(
    `${subject}${state}${op} ${what}; ${ALLOWED_STATE_VALUES}`,
    context.operatorUid,
    context.stateName,
  );
}

/** Packs a value already known to be plain data (no check). */
export function packPlainData(value: unknown): Uint8Array {
  return (isArrayTree(value, 0) ? arrayPackr : packr).pack(value);
}

/**
 * {@link packPlainData} into a buffer of its own, exactly as long as the bytes: packed in a scratch
 * buffer that the next packing rewrites, then copied (for bytes kept long, while the scratch buffer
 * stays in memory that was touched before).
 *
 * @example
 * ```ts
 * const chunk = packPlainDataCopy([["k1"], [[1, false, [7, "x"]]]]);
 * chunk.buffer.byteLength === chunk.length; // true
 * ```
 */
export function packPlainDataCopy(value: unknown): Uint8Array {
  packr.useBuffer(scratch);
  try {
    const packed = packPlainData(value);
    // a packing that outgrew the scratch buffer wrote into a larger one: the next packings get one as large, up to a size
    if (packed.length > scratch.length && 2 * packed.length <= MAX_SCRATCH_BYTES) scratch = Buffer.allocUnsafeSlow(2 * packed.length);
    return Uint8Array.prototype.slice.call(packed);
  } finally {
    leaveBuffer();
  }
}

/**
 * {@link packPlainData} of a value of about `bytes` bytes (at most 64 KiB more), into one buffer
 * allocated for it (no growth while packing).
 *
 * @example
 * ```ts
 * const parts = [new Uint8Array(100_000), new Uint8Array(50_000)];
 * const blob = packPlainDataSized({ parts }, 150_010);
 * ```
 */
export function packPlainDataSized(value: unknown, bytes: number): Uint8Array {
  packr.useBuffer(Buffer.alloc(bytes + 65_536));
  try {
    return packPlainData(value);
  } finally {
    leaveBuffer();
  }
}

/**
 * Checks that `value` is plain data and encodes it.
 *
 * @throws StateSerializationError naming the context and the offending part
 * @example
 * ```ts
 * const bytes = encodeStateValue(new Map([["a", 1n]]), { operatorUid: "src", stateName: "offsets" });
 * decodeStateValue(bytes); // Map { "a" => 1n }
 * ```
 */
export function encodeStateValue(value: unknown, context: StateValueContext = {}): Uint8Array {
  assertPlainData(value, context);
  return packPlainData(value);
}

/**
 * Decodes bytes written by {@link encodeStateValue} (or {@link packPlainData}).
 *
 * @example
 * ```ts
 * decodeStateValue(encodeStateValue([1, undefined])); // [1, undefined]
 * ```
 */
export function decodeStateValue(bytes: Uint8Array): unknown {
  return packr.unpack(bytes);
}
