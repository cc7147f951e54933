/**
 * Values as the disk backend stores them: msgpack of the project's state
 * serializer (serializer.ts), encoded once per write to the store. Reading
 * decodes msgpack scalars (the usual counter or sum) directly, without a
 * call into the msgpack decoder, and everything else with
 * {@link decodeStateValue}.
 */

import { decodeStateValue, packPlainData } from "../serializer.ts";

/**
 * The bytes to store for `value` (plain data, already checked), in a buffer of its own.
 *
 * @example
 * ```ts
 * decodeStoredValue(encodeStoredValue({ n: 1 })); // { n: 1 }
 * ```
 */
export function encodeStoredValue(value: unknown): Uint8Array {
  return packPlainData(value).slice(); // the encoder's buffer is reused by the next encoding
}

/** Decodes bytes written by {@link encodeStoredValue}; throws on malformed msgpack. */
export function decodeStoredValue(bytes: Uint8Array): unknown {
  const first = bytes[0]!;
  switch (bytes.length) {
    case 1:
      if (first < 0x80) return first; // positive fixint
      if (first >= 0xe0) return first - 0x100; // negative fixint
      break;
    case 2:
      if (first === 0xcc) return bytes[1];
      if (first === 0xd0) return (bytes[1]! << 24) >> 24;
      break;
    case 3:
      if (first === 0xcd || first === 0xd1) {
        const u = (bytes[1]! << 8) | bytes[2]!;
        return first === 0xcd ? u : (u << 16) >> 16;
      }
      break;
    case 5:
      if (first === 0xce || first === 0xd2) {
        const i = ((bytes[1]! << 24) | (bytes[2]! << 16) | (bytes[3]! << 8) | bytes[4]!) | 0;
        return first === 0xce ? i >>> 0 : i;
      }
      if (first === 0xca) return new DataView(bytes.buffer, bytes.byteOffset, 5).getFloat32(1);
      break;
    case 9:
      if (first === 0xcb) return new DataView(bytes.buffer, bytes.byteOffset, 9).getFloat64(1);
      break;
  }
  return decodeStateValue(bytes);
}
