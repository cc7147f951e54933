/**
 * PostgreSQL log sequence numbers (LSN): a 64-bit position in the write-ahead log, written `X/Y` (two
 * hexadecimal halves). Weir keeps them as `bigint` in memory and as the `X/Y` text in checkpoints.
 */

/** A malformed LSN text. */
export class LsnFormatError extends Error {
  constructor(text: string) {
    super(`'${text}' is not a PostgreSQL LSN (expected two hexadecimal numbers as in '16/B374D848')`);
    this.name = "LsnFormatError";
  }
}

/**
 * Parses `X/Y`.
 *
 * @example
 * ```ts
 * parseLsn("16/B374D848"); // 0x16B374D848n
 * ```
 */
export function parseLsn(text: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text.trim());
  if (m === null) throw new LsnFormatError(text);
  return (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

/**
 * Formats as `X/Y` (upper case, as PostgreSQL prints it).
 *
 * @example
 * ```ts
 * formatLsn(0x16B374D848n); // "16/B374D848"
 * ```
 */
export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}
