/**
 * Encoding of state values: msgpack (msgpackr with structured-clone extensions,
 * so Map vs object, Set, Date, Uint8Array, bigint and `undefined` inside arrays
 * round-trip) after a check that the value is plain data.
 */

import { Packr } from "msgpackr";
import { ALLOWED_STATE_VALUES, StateSerializationError } from "./errors.ts";
import { findNonPlainData } from "./plain-data.ts";

const packr = new Packr({ structuredClone: true, useBigIntExtension: true });

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
  return packr.pack(value);
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
  return packr.pack(value);
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
