/**
 * `TIMESTAMP_LTZ` values (epoch milliseconds: instants) shown and read in
 * a session time zone (Flink's `table.local-time-zone`): an IANA zone name
 * (`Asia/Shanghai`, `America/New_York`), `UTC`, or a fixed offset
 * (`+08:00`, `GMT-05:30`). Zone rules come from the runtime's Intl data.
 */
import { formatTimestamp, parseTimestamp } from "./temporal.ts";

const FIXED_OFFSET = /^(?:GMT|UTC)?([+-])(\d{1,2})(?::?(\d{2}))?$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        era: "short",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      throw new RangeError(`unknown time zone '${timeZone}': expected an IANA name such as 'Asia/Shanghai', 'UTC', or an offset such as '+08:00'`);
    }
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * The offset of `timeZone` from UTC at the instant `epochMs`, in milliseconds
 * (`+08:00` is 28 800 000).
 *
 * @throws RangeError for an unknown zone
 * @example
 * ```ts
 * timeZoneOffset(0, "Asia/Shanghai"); // 28_800_000
 * ```
 */
export function timeZoneOffset(epochMs: number, timeZone: string): number {
  if (timeZone === "UTC" || timeZone === "Z" || timeZone === "GMT") return 0;
  const fixed = FIXED_OFFSET.exec(timeZone);
  if (fixed !== null) return (fixed[1] === "-" ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3] ?? 0)) * 60_000;
  const seconds = Math.floor(epochMs / 1000) * 1000;
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(seconds)) parts[p.type] = p.value;
  const year = parts.era === "BC" ? 1 - Number(parts.year) : Number(parts.year);
  const wall = new Date(0);
  wall.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  wall.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0);
  return wall.getTime() - seconds;
}

/**
 * A TIMESTAMP_LTZ value as wall-clock text in `timeZone`
 * (`yyyy-MM-dd HH:mm:ss[.f…]`, see {@link formatTimestamp} for `precision`).
 *
 * @example
 * ```ts
 * formatTimestampLtz(0, "Asia/Shanghai", 3); // "1970-01-01 08:00:00.000"
 * ```
 */
export function formatTimestampLtz(epochMs: number, timeZone: string, precision?: number): string {
  return formatTimestamp(epochMs + timeZoneOffset(epochMs, timeZone), precision);
}

/**
 * The instant of wall-clock text in `timeZone`. A time that occurs twice (when
 * clocks go back) is the earlier instant; one that does not occur (when clocks
 * go forward) is read with the offset from before the gap, as Java's
 * `ZonedDateTime.of` does.
 *
 * @throws TemporalParseError for malformed text; RangeError for an unknown zone
 */
export function parseTimestampLtz(text: string, timeZone: string): number {
  return instantOfWallClock(parseTimestamp(text), timeZone);
}

/**
 * The instant (epoch ms) at which the clocks of `timeZone` show `wall` (a
 * TIMESTAMP value: epoch ms of the UTC wall clock); overlaps and gaps as
 * {@link parseTimestampLtz}.
 *
 * @throws RangeError for an unknown zone
 * @example
 * ```ts
 * instantOfWallClock(28_800_000, "Asia/Shanghai"); // 0
 * ```
 */
export function instantOfWallClock(wall: number, timeZone: string): number {
  const before = timeZoneOffset(wall - 86_400_000, timeZone);
  const after = timeZoneOffset(wall + 86_400_000, timeZone);
  // Candidates: the wall time under each offset around it; keep those that map back to it, earliest first.
  const candidates = [wall - Math.max(before, after), wall - Math.min(before, after)];
  for (const c of candidates) if (c + timeZoneOffset(c, timeZone) === wall) return c;
  return wall - before; // in a gap
}
