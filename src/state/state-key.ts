/**
 * The state key: the form a key takes inside keyed state and its snapshots.
 * Primitive keys are used as they are — a JavaScript `Map` tells `1`, `"1"`
 * and `1n` apart and treats `0` and `-0` as one key, exactly as the canonical
 * encoding does — so the per-record path builds no string. Only composite
 * keys (arrays) and strings starting with U+0000 take their canonical string
 * ({@link canonicalKey}), which starts with U+0000 and so never equals a
 * primitive string key.
 */

import { canonicalKey, decodeCanonicalKey, describeCanonicalKey } from "./canonical-key.ts";

/** A key as keyed state stores it: a number, bigint, boolean, plain string, or a canonical string (starting with U+0000). */
export type StateKey = number | bigint | boolean | string;

/**
 * The state key of a key value: the primitive itself, or the canonical
 * string of an array key or of a string that starts with U+0000.
 *
 * @throws UnsupportedKeyError for what is not a key (objects, null, NaN, symbols…)
 * @example
 * ```ts
 * stateKeyOf(42);        // 42
 * stateKeyOf("word");    // "word"
 * stateKeyOf(["a", 1]);  // "\u0000[1:a3:\u0000n1]"
 * ```
 */
export function stateKeyOf(key: unknown): StateKey {
  switch (typeof key) {
    case "number":
      if (Number.isFinite(key)) return key === 0 ? 0 : key; // -0 is 0
      break;
    case "string":
      if (key.length === 0 || key.charCodeAt(0) !== 0) return key;
      break;
    case "bigint":
    case "boolean":
      return key;
  }
  return canonicalKey(key);
}

/** True for a state key that is a canonical string (an array key, or an escaped string). */
function isCanonical(k: StateKey): k is string {
  return typeof k === "string" && k.length > 0 && k.charCodeAt(0) === 0;
}

/**
 * Inverse of {@link stateKeyOf}: the key value back.
 *
 * @example
 * ```ts
 * keyOfStateKey(stateKeyOf(["a", 1])); // ["a", 1]
 * ```
 */
export function keyOfStateKey(k: StateKey): unknown {
  return isCanonical(k) ? decodeCanonicalKey(k) : k;
}

/** A readable rendering of a state key for error messages: `'word'`, `42`, `7n`, `[1, 'x']`. */
export function describeStateKey(k: StateKey): string {
  return describeCanonicalKey(isCanonical(k) ? k : canonicalKey(k));
}
