/**
 * The byte layout of the disk backend's store keys. An entry of a keyed
 * state is stored under
 *
 *   `[key group: u16 BE][state id: u16 BE][tag: u8][state key bytes]`
 *
 * so that all entries of a key group (of every state) are one contiguous
 * range, and inside it the entries of one state are contiguous too: a full
 * snapshot or a rescale reads key-group ranges by scanning. The tag tells the
 * type of the state key (number: float64 BE; string: UTF-8; bigint: its
 * decimal digits; boolean: one byte), so `1`, `"1"` and `1n` are different
 * keys, exactly as in the heap backend's maps. Key groups are below 32 768,
 * so keys starting with `0xFFFF` are free for the store's own metadata.
 */

import type { StateKey } from "../state-key.ts";

/** Longest state key encoding LMDB accepts in a key (its limit is 1 978 bytes, minus the 5-byte prefix). */
export const MAX_STATE_KEY_BYTES = 1970;

const TAG_NUMBER = 1;
const TAG_STRING = 2;
const TAG_BIGINT = 3;
const TAG_BOOLEAN = 4;

/** First two bytes of every metadata key. */
const META = 0xff;

/**
 * The store key of `k` of state `stateId` in key group `keyGroup`, in a
 * buffer of its own. Returns undefined when the key is longer than
 * {@link MAX_STATE_KEY_BYTES}.
 *
 * @example
 * ```ts
 * entryKey(5, 1, "apple"); // <00 05 00 01 02 61 70 70 6c 65>
 * ```
 */
export function entryKey(keyGroup: number, stateId: number, k: StateKey): Buffer | undefined {
  let out: Buffer;
  switch (typeof k) {
    case "number":
      out = Buffer.allocUnsafe(13);
      out[4] = TAG_NUMBER;
      out.writeDoubleBE(k, 5);
      break;
    case "string": {
      const n = Buffer.byteLength(k, "utf8");
      if (n > MAX_STATE_KEY_BYTES) return undefined;
      out = Buffer.allocUnsafe(5 + n);
      out[4] = TAG_STRING;
      out.write(k, 5, "utf8");
      break;
    }
    case "bigint": {
      const digits = k.toString();
      if (digits.length > MAX_STATE_KEY_BYTES) return undefined;
      out = Buffer.allocUnsafe(5 + digits.length);
      out[4] = TAG_BIGINT;
      out.write(digits, 5, "latin1");
      break;
    }
    default:
      out = Buffer.allocUnsafe(6);
      out[4] = TAG_BOOLEAN;
      out[5] = k ? 1 : 0;
  }
  out.writeUInt16BE(keyGroup, 0);
  out.writeUInt16BE(stateId, 2);
  return out;
}

/** The first key of key group `keyGroup` (inclusive start of its range; the end of the previous group's). */
export function keyGroupStart(keyGroup: number): Buffer {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(keyGroup, 0);
  return out;
}

/** The first key of state `stateId` in key group `keyGroup` (an exclusive end with `stateId + 1`). */
export function statePrefix(keyGroup: number, stateId: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt16BE(keyGroup, 0);
  out.writeUInt16BE(stateId, 2);
  return out;
}

/** Key group of a store key. */
export function keyGroupOfEntry(key: Uint8Array): number {
  return (key[0]! << 8) | key[1]!;
}

/** State id of a store key. */
export function stateIdOfEntry(key: Uint8Array): number {
  return (key[2]! << 8) | key[3]!;
}

/** The state key of a store key written by {@link entryKey}; undefined when the bytes are not one. */
export function stateKeyOfEntry(key: Uint8Array): StateKey | undefined {
  if (key.length < 5) return undefined;
  const b = Buffer.isBuffer(key) ? key : Buffer.from(key.buffer, key.byteOffset, key.byteLength);
  switch (b[4]) {
    case TAG_NUMBER:
      return b.length === 13 ? b.readDoubleBE(5) : undefined;
    case TAG_STRING:
      return b.toString("utf8", 5);
    case TAG_BIGINT:
      return BigInt(b.toString("latin1", 5));
    case TAG_BOOLEAN:
      return b.length === 6 ? b[5] === 1 : undefined;
    default:
      return undefined;
  }
}

/** A metadata key: `0xFFFF`, a kind letter and a name. */
export function metaKey(kind: "header" | "marker" | "state" | "overlay", name = ""): Buffer {
  return Buffer.concat([Buffer.from([META, META, kind.charCodeAt(0)]), Buffer.from(name, "utf8")]);
}

/** Range bounds of the metadata keys of `kind` (for listing the registered states). */
export function metaRange(kind: "state" | "overlay"): { start: Buffer; end: Buffer } {
  return { start: metaKey(kind), end: Buffer.from([META, META, kind.charCodeAt(0) + 1]) };
}

const OVERLAY_PREFIX = metaKey("overlay");

/** Where an entry written after the marked snapshot waits (see DiskStore.write): the overlay prefix and the entry's key. */
export function overlayKey(key: Uint8Array): Buffer {
  return Buffer.concat([OVERLAY_PREFIX, key]);
}

/** The entry key inside an overlay key. */
export function entryOfOverlayKey(key: Uint8Array): Uint8Array {
  return key.subarray(3);
}

/** The name in a metadata key. */
export function nameOfMetaKey(key: Uint8Array): string {
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("utf8", 3);
}
