/**
 * Date and time text of the `json`, `csv` and `debezium-json` formats, as
 * Flink's formats read and write it (`TimeFormats` in Flink): DATE
 * `yyyy-MM-dd`; TIME `HH:mm:ss[.f…]`; TIMESTAMP `yyyy-MM-dd HH:mm:ss[.f…]`
 * (`'timestamp-format.standard' = 'SQL'`, the default) or
 * `yyyy-MM-ddTHH:mm:ss[.f…]` (`'ISO-8601'`); TIMESTAMP_LTZ the same in UTC
 * followed by `Z`. Written fractions have as few digits as the value needs
 * (none for whole seconds); read fractions may have up to 9 digits (kept to the
 * millisecond, see `src/table/types/sql-value.ts`); ISO-8601 text may omit
 * the seconds (`2020-04-15T08:05`), as Java's `ISO_LOCAL_DATE_TIME` allows.
 */
import { formatDate, formatTimestamp, parseDate, parseTime, parseTimestamp } from "../types/temporal.ts";

/** `SQL` (a space between date and time) or `ISO-8601` (a `T`). */
export type TimestampStandard = "SQL" | "ISO-8601";

const DATE = /^-?\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?$/;
const SQL_TIMESTAMP = /^-?\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,9})?$/;
const ISO_TIMESTAMP = /^-?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/;

/** Thrown for text that is not a date/time of the expected format; the message says which format was expected. */
export class TemporalTextError extends Error {
  override readonly name = "TemporalTextError";
}

function checked(text: string, pattern: RegExp, expected: string, read: (t: string) => number): number {
  if (!pattern.test(text)) throw new TemporalTextError(`expected ${expected}`);
  try {
    return read(text);
  } catch (e) {
    throw new TemporalTextError((e as Error).message);
  }
}

/** DATE (epoch days) of `yyyy-MM-dd`. @throws TemporalTextError */
export function readDateText(text: string): number {
  return checked(text, DATE, "a date yyyy-MM-dd", parseDate);
}

/** TIME (ms of day) of `HH:mm:ss[.f…]`. @throws TemporalTextError */
export function readTimeText(text: string): number {
  return checked(text, TIME, "a time HH:mm:ss[.fff]", parseTime);
}

/**
 * TIMESTAMP (epoch ms) of `yyyy-MM-dd HH:mm:ss[.f…]` (SQL) or `yyyy-MM-ddTHH:mm:ss[.f…]` (ISO-8601).
 *
 * @throws TemporalTextError
 * @example
 * ```ts
 * readTimestampText("2020-04-15 08:05:00.5", "SQL"); // 1586937900500
 * ```
 */
export function readTimestampText(text: string, standard: TimestampStandard): number {
  return standard === "SQL"
    ? checked(text, SQL_TIMESTAMP, "a timestamp yyyy-MM-dd HH:mm:ss[.fff] (timestamp-format.standard SQL)", parseTimestamp)
    : checked(text, ISO_TIMESTAMP, "a timestamp yyyy-MM-ddTHH:mm:ss[.fff] (timestamp-format.standard ISO-8601)", parseTimestamp);
}

/** TIMESTAMP_LTZ (epoch ms) of the UTC timestamp text followed by `Z`. @throws TemporalTextError */
export function readTimestampLtzText(text: string, standard: TimestampStandard): number {
  if (!text.endsWith("Z")) {
    const form = standard === "SQL" ? "yyyy-MM-dd HH:mm:ss[.fff]Z" : "yyyy-MM-ddTHH:mm:ss[.fff]Z";
    throw new TemporalTextError(`expected a timestamp with local time zone ${form}`);
  }
  return readTimestampText(text.slice(0, -1), standard);
}

/** `yyyy-MM-dd`. */
export function dateText(days: number): string {
  return formatDate(days);
}

/** `HH:mm:ss` with the fraction the value needs. */
export function timeText(msOfDay: number): string {
  return formatTimestamp(msOfDay).slice(11);
}

/**
 * TIMESTAMP text in `standard`.
 *
 * @example
 * ```ts
 * timestampText(1586937900500, "ISO-8601"); // "2020-04-15T08:05:00.5"
 * ```
 */
export function timestampText(epochMs: number, standard: TimestampStandard): string {
  const t = formatTimestamp(epochMs);
  if (standard === "SQL") return t;
  const space = t.indexOf(" ");
  return t.slice(0, space) + "T" + t.slice(space + 1);
}

/** TIMESTAMP_LTZ text: the instant in UTC in `standard`, then `Z`. */
export function timestampLtzText(epochMs: number, standard: TimestampStandard): string {
  return timestampText(epochMs, standard) + "Z";
}
