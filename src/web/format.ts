/**
 * How the dashboard writes numbers, sizes, durations, times and watermarks.
 *
 * @example
 * ```ts
 * formatRate(12_345); // "12.3k/s"
 * formatBytes(2048); // "2.0 KiB"
 * formatDuration(1_500); // "1.5 s"
 * ```
 */

/** A count with a k/M/G suffix. */
export function formatCount(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return "–";
  const a = Math.abs(n);
  if (a >= 1e9) return `${(n / 1e9).toFixed(1)}G`;
  if (a >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (a >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return a >= 10 || n === Math.round(n) ? String(Math.round(n)) : n.toFixed(1);
}

/** Records (or events) per second. */
export function formatRate(n: number | undefined): string {
  return n === undefined || !Number.isFinite(n) ? "–" : `${formatCount(n)}/s`;
}

/** A size in bytes, binary units. */
export function formatBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n) || n < 0) return "–";
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** A duration in milliseconds: ms below a second, then s, min, h. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.floor((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.floor((ms % 3_600_000) / 60_000)} min`;
}

/** A wall-clock time (epoch milliseconds) in the browser's time zone. */
export function formatTime(ms: number | undefined | null): string {
  if (ms === undefined || ms === null || !Number.isFinite(ms) || ms <= 0) return "–";
  const d = new Date(ms);
  const today = new Date();
  const time = d.toLocaleTimeString(undefined, { hour12: false });
  return d.toDateString() === today.toDateString() ? time : `${d.toLocaleDateString()} ${time}`;
}

/** Flink's "no watermark yet" (Long.MIN_VALUE) and anything below the year 1 show as such. */
const NO_WATERMARK_BELOW = -62_135_596_800_000;

/** An event-time watermark (epoch milliseconds), or "no watermark". */
export function formatWatermark(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms <= NO_WATERMARK_BELOW) return "no watermark";
  return new Date(ms).toISOString().replace("T", " ").replace("Z", "");
}

/** A ratio 0..1 as a whole percentage. */
export function formatPercent(ratio: number | undefined): string {
  return ratio === undefined || !Number.isFinite(ratio) ? "–" : `${Math.round(ratio * 100)} %`;
}
