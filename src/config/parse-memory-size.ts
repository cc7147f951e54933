/**
 * Flink's memory-size text for options such as
 * `sink.rolling-policy.file-size`: a number and an optional binary unit,
 * `'128 mb'`, `'1kb'`, `'512'` (bytes).
 */

const UNIT_BYTES: Record<string, number> = {};
for (const [bytes, names] of [
  [1, ["b", "bytes"]],
  [1024, ["k", "kb", "kibibytes"]],
  [1024 ** 2, ["m", "mb", "mebibytes"]],
  [1024 ** 3, ["g", "gb", "gibibytes"]],
  [1024 ** 4, ["t", "tb", "tebibytes"]],
] as const) {
  for (const n of names) UNIT_BYTES[n] = bytes;
}

/**
 * The number of bytes `text` denotes (units are powers of 1024 and
 * case-insensitive), or `undefined` when it is not a memory size.
 *
 * @example
 * ```ts
 * parseMemorySize("128 mb"); // 134217728
 * parseMemorySize("10 parsecs"); // undefined
 * ```
 */
export function parseMemorySize(text: string): number | undefined {
  const m = /^\s*(\d+)\s*([a-zA-Z]*)\s*$/.exec(text);
  if (m === null) return undefined;
  const unit = m[2]!.toLowerCase();
  const factor = unit === "" ? 1 : UNIT_BYTES[unit];
  return factor === undefined ? undefined : Number(m[1]) * factor;
}
