/**
 * SQL date and time values and their text, as Flink writes them:
 * `DATE` is days since 1970-01-01, `TIME` milliseconds of the day,
 * `TIMESTAMP(p)` and `TIMESTAMP_LTZ(p)` milliseconds since the epoch (UTC
 * wall clock for `TIMESTAMP`), all plain numbers. Text is Flink's default SQL
 * format `yyyy-MM-dd HH:mm:ss[.fff]` (what the `json` format and
 * `CAST(… AS STRING)` use), for years 0000–9999 and any epoch (negative
 * ones included), with the proleptic Gregorian calendar.
 *
 * Precision: milliseconds. Parsed fractions beyond 3 digits are truncated
 * (toward the past), so `TIMESTAMP(6)`/`(9)` values keep only their millisecond.
 */

const MS_PER_DAY = 86_400_000;

/** Thrown when date/time text is malformed or names a day that does not exist. */
export class TemporalParseError extends Error {
  constructor(what: string, text: string, why: string) {
    super(`cannot parse ${JSON.stringify(text)} as ${what}: ${why}`);
    this.name = "TemporalParseError";
  }
}

/** True for Gregorian leap years (divisible by 4, except centuries not divisible by 400). */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in `month` (1–12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** Days since 1970-01-01 of a Gregorian date (month 1–12): exact for any year (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12; // March = 0
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The Gregorian date of a day number (inverse of {@link daysFromCivil}). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/**
 * `yyyy-MM-dd` of a DATE value (days since the epoch).
 *
 * @example
 * ```ts
 * formatDate(0);  // "1970-01-01"
 * formatDate(-1); // "1969-12-31"
 * ```
 */
export function formatDate(days: number): string {
  const { year, month, day } = civilFromDays(days);
  return `${year < 0 ? "-" + pad(-year, 4) : pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** The fraction of a millisecond count (0–999) with `digits` digits (0 → none). */
function fraction(ms: number, digits: number): string {
  if (digits <= 0) return "";
  const f = pad(ms, 3);
  return "." + (digits <= 3 ? f.slice(0, digits) : f + "0".repeat(digits - 3));
}

/**
 * `HH:mm:ss[.f…]` of a TIME value (milliseconds of the day) with `precision`
 * fraction digits (TIME's default precision is 0).
 *
 * @example
 * ```ts
 * formatTime(45_296_789, 3); // "12:34:56.789"
 * ```
 */
export function formatTime(msOfDay: number, precision = 0): string {
  const s = Math.floor(msOfDay / 1000);
  return `${pad(Math.floor(s / 3600), 2)}:${pad(Math.floor(s / 60) % 60, 2)}:${pad(s % 60, 2)}${fraction(msOfDay % 1000, precision)}`;
}

/**
 * `yyyy-MM-dd HH:mm:ss[.f…]` of a TIMESTAMP value (epoch milliseconds, UTC
 * wall clock). With a `precision` the fraction has exactly that many digits
 * (as `CAST(ts AS STRING)` prints a `TIMESTAMP(p)`); without one it has as few
 * as the value needs, none for whole seconds (as the `json` format writes it).
 *
 * @example
 * ```ts
 * formatTimestamp(1_586_937_900_000, 3); // "2020-04-15 08:05:00.000"
 * formatTimestamp(1_586_937_900_500);    // "2020-04-15 08:05:00.5"
 * ```
 */
export function formatTimestamp(epochMs: number, precision?: number): string {
  const days = Math.floor(epochMs / MS_PER_DAY);
  const msOfDay = epochMs - days * MS_PER_DAY;
  let text = `${formatDate(days)} ${formatTime(msOfDay - (msOfDay % 1000))}`;
  const ms = msOfDay % 1000;
  if (precision !== undefined) text += fraction(ms, precision);
  else if (ms !== 0) text += "." + pad(ms, 3).replace(/0+$/, "");
  return text;
}

const DATE_TEXT = /^\s*(-?\d{1,4})-(\d{1,2})-(\d{1,2})/;
const TIME_TEXT = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{0,9}))?)?\s*$/;

function parseDateParts(what: string, text: string): { days: number; rest: string } {
  const m = DATE_TEXT.exec(text);
  if (m === null) throw new TemporalParseError(what, text, "expected yyyy-MM-dd");
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12) throw new TemporalParseError(what, text, `month ${month} is not between 1 and 12`);
  if (day < 1 || day > daysInMonth(year, month)) {
    throw new TemporalParseError(what, text, `${pad(year, 4)}-${pad(month, 2)} has no day ${day}`);
  }
  return { days: daysFromCivil(year, month, day), rest: text.slice(m[0].length) };
}

function parseTimeParts(what: string, text: string, whole: string): number {
  const m = TIME_TEXT.exec(text);
  if (m === null) throw new TemporalParseError(what, whole, "expected HH:mm[:ss[.fff]]");
  const h = Number(m[1]);
  const min = Number(m[2]);
  const s = m[3] === undefined ? 0 : Number(m[3]);
  if (h > 23 || min > 59 || s > 59) throw new TemporalParseError(what, whole, "hour, minute or second out of range");
  const ms = m[4] === undefined || m[4] === "" ? 0 : Number(m[4].slice(0, 3).padEnd(3, "0"));
  return ((h * 60 + min) * 60 + s) * 1000 + ms;
}

/**
 * DATE value (days since the epoch) of `yyyy-MM-dd` text (1- or 2-digit month
 * and day accepted, as Flink does).
 *
 * @throws TemporalParseError for malformed text or a day that does not exist (`2021-02-29`)
 * @example
 * ```ts
 * parseDate("2020-02-29"); // 18321
 * ```
 */
export function parseDate(text: string): number {
  const { days, rest } = parseDateParts("DATE", text);
  if (rest.trim() !== "") throw new TemporalParseError("DATE", text, `unexpected ${JSON.stringify(rest)} after the date`);
  return days;
}

/**
 * TIME value (milliseconds of the day) of `HH:mm[:ss[.f…]]` text.
 *
 * @throws TemporalParseError for malformed or out-of-range text
 */
export function parseTime(text: string): number {
  return parseTimeParts("TIME", text.trim(), text);
}

/**
 * TIMESTAMP value (epoch milliseconds) of `yyyy-MM-dd[ HH:mm[:ss[.f…]]]`
 * text, Flink's SQL format (a `T` between date and time is accepted too).
 * Fraction digits beyond milliseconds are dropped.
 *
 * @throws TemporalParseError for malformed text or a day that does not exist
 * @example
 * ```ts
 * parseTimestamp("2020-04-15 08:05:00.5"); // 1586937900500
 * parseTimestamp("1969-12-31 23:59:59.999"); // -1
 * ```
 */
export function parseTimestamp(text: string): number {
  const { days, rest } = parseDateParts("TIMESTAMP", text);
  const r = rest.trimEnd();
  if (r === "") return days * MS_PER_DAY;
  if (r[0] !== " " && r[0] !== "T") throw new TemporalParseError("TIMESTAMP", text, "expected a space between the date and the time");
  return days * MS_PER_DAY + parseTimeParts("TIMESTAMP", r.slice(1).trimStart(), text);
}

/**
 * Flink's text of a day-time INTERVAL (milliseconds): `+d hh:mm:ss.fff`.
 *
 * @example
 * ```ts
 * formatIntervalDayTime(90_061_001); // "+1 01:01:01.001"
 * ```
 */
export function formatIntervalDayTime(ms: number): string {
  const sign = ms < 0 ? "-" : "+";
  const a = Math.abs(ms);
  const days = Math.floor(a / MS_PER_DAY);
  return `${sign}${days} ${formatTime(a - days * MS_PER_DAY, 3)}`;
}

/**
 * Flink's text of a year-month INTERVAL (months): `+y-mm`.
 *
 * @example
 * ```ts
 * formatIntervalYearMonth(14); // "+1-02"
 * ```
 */
export function formatIntervalYearMonth(months: number): string {
  const a = Math.abs(months);
  return `${months < 0 ? "-" : "+"}${Math.floor(a / 12)}-${pad(a % 12, 2)}`;
}
