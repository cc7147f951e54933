/**
 * Human-readable byte sizes for error messages ("7.3 MB", "512 KB", "100 bytes").
 * Units are binary (1 MB = 1024 * 1024 bytes), matching how limits are configured.
 *
 * @example
 * ```ts
 * formatSize(5 * 1024 * 1024); // "5 MB"
 * formatSize(7_654_321);       // "7.3 MB"
 * ```
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, "KB"] : [bytes / (1024 * 1024), "MB"];
  return `${Number(value.toFixed(1))} ${unit}`;
}

/**
 * Formats `size` and `limit` so that they never look equal when they differ:
 * when rounding would print the same text, both are given in exact bytes.
 */
export function formatSizeAgainstLimit(size: number, limit: number): [size: string, limit: string] {
  const [s, l] = [formatSize(size), formatSize(limit)];
  return s === l && size !== limit ? [`${size} bytes`, `${limit} bytes`] : [s, l];
}
