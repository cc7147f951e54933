/**
 * CRC-32 (IEEE 802.3, the checksum of zip and gzip) used to detect corrupt or
 * truncated checkpoint files and metadata.
 */
import { crc32 as zlibCrc32 } from "node:zlib";

/**
 * CRC-32 of `data`, as an unsigned 32-bit integer. Pass the previous result as
 * `previous` to checksum data that arrives in chunks.
 *
 * @example
 * ```ts
 * crc32(new TextEncoder().encode("123456789")); // 0xcbf43926
 * crc32(tail, crc32(head)) === crc32(whole);    // incremental
 * ```
 */
export function crc32(data: Uint8Array, previous = 0): number {
  return zlibCrc32(data, previous) >>> 0;
}

/** `crc` as 8 lowercase hex digits, the form written into Weir's file headers. */
export function crc32Hex(crc: number): string {
  return (crc >>> 0).toString(16).padStart(8, "0");
}
