/**
 * The canonical encoding of a key: a string that depends only on the key's
 * value (never on object identity or insertion order), so every worker and
 * every restore hashes a key to the same key group.
 *
 * Encoding (stable: it is part of the snapshot format):
 * - a string that does not start with U+0000 is itself (the hot path);
 * - every other key starts with U+0000 followed by a tag:
 *   `s` escaped string, `n` finite number (`-0` is `0`), `b` bigint,
 *   `t` / `f` booleans, `[` array of length-prefixed elements `len:enc` then `]`.
 */

import { UnsupportedKeyError } from "./errors.ts";

const ESC = "\u0000";

function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  switch (typeof v) {
    case "number":
      return `the number ${String(v)}`;
    case "function":
      return "a function";
    case "symbol":
      return "a symbol";
    case "object": {
      const proto = Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null;
      if (proto === null || proto === Object.prototype) return "a plain object";
      return `an instance of ${proto.constructor?.name ?? "an anonymous class"}`;
    }
    default:
      return `a ${typeof v}`;
  }
}

function encodeNonString(key: unknown, path: string): string {
  switch (typeof key) {
    case "string":
      return key.length === 0 || key.charCodeAt(0) !== 0 ? key : ESC + "s" + key;
    case "number":
      if (!Number.isFinite(key)) throw new UnsupportedKeyError(describeValue(key), path);
      return ESC + "n" + (key === 0 ? "0" : String(key));
    case "bigint":
      return ESC + "b" + key.toString();
    case "boolean":
      return key ? ESC + "t" : ESC + "f";
    default:
      if (Array.isArray(key)) {
        let out = ESC + "[";
        for (let i = 0; i < key.length; i++) {
          const e = encodeNonString(key[i], `${path}[${i}]`);
          out += `${e.length}:${e}`;
        }
        return out + "]";
      }
      throw new UnsupportedKeyError(describeValue(key), path);
  }
}

/**
 * Canonical string of a key: strings, finite numbers, bigints, booleans, and
 * (nested) arrays of those. Distinct keys give distinct strings (`"1"`, `1`
 * and `1n` differ); `0` and `-0` are the same key. A string key that cannot
 * collide with an encoded non-string is returned as is.
 *
 * @throws UnsupportedKeyError for anything else (objects, null, undefined, NaN, symbols…)
 * @example
 * ```ts
 * canonicalKey("word");       // "word"
 * canonicalKey(["a", 1n]);    // "\u0000[1:a4:\u0000b1]"
 * ```
 */
export function canonicalKey(key: unknown): string {
  if (typeof key === "string" && (key.length === 0 || key.charCodeAt(0) !== 0)) return key;
  return encodeNonString(key, "");
}

type Decoded = string | number | bigint | boolean | Decoded[];

function decodeAt(s: string, start: number, end: number): Decoded {
  if (start === end || s.charCodeAt(start) !== 0) return s.slice(start, end);
  const tag = s[start + 1];
  const body = s.slice(start + 2, end);
  switch (tag) {
    case "s":
      return body;
    case "n":
      return Number(body);
    case "b":
      return BigInt(body);
    case "t":
      return true;
    case "f":
      return false;
    case "[": {
      const out: Decoded[] = [];
      let i = start + 2;
      const last = end - 1; // the closing "]"
      while (i < last) {
        const colon = s.indexOf(":", i);
        const len = Number(s.slice(i, colon));
        out.push(decodeAt(s, colon + 1, colon + 1 + len));
        i = colon + 1 + len;
      }
      return out;
    }
    default:
      throw new Error(`not a canonical key: ${JSON.stringify(s)}`);
  }
}

/**
 * Inverse of {@link canonicalKey}: the key value back from its canonical string.
 *
 * @example
 * ```ts
 * decodeCanonicalKey(canonicalKey([1, "x"])); // [1, "x"]
 * ```
 */
export function decodeCanonicalKey(canonical: string): unknown {
  return decodeAt(canonical, 0, canonical.length);
}

/** A readable rendering of a canonical key for error messages: `'word'`, `42`, `7n`, `[1, 'x']`. */
export function describeCanonicalKey(canonical: string): string {
  const show = (v: unknown): string => {
    if (typeof v === "string") return `'${v}'`;
    if (typeof v === "bigint") return `${v}n`;
    if (Array.isArray(v)) return `[${v.map(show).join(", ")}]`;
    return String(v);
  };
  return show(decodeCanonicalKey(canonical));
}
