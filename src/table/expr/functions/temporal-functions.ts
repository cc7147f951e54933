/**
 * Date and time functions with Flink's names and semantics. Values are
 * DATE epoch days, TIME ms of the day, TIMESTAMP wall-clock epoch ms and
 * TIMESTAMP_LTZ instants (epoch ms), which functions that need a calendar
 * read on the wall clock of the session time zone (`BindOptions.timeZone`).
 *
 * The current-time functions (CURRENT_TIMESTAMP, NOW, LOCALTIMESTAMP,
 * CURRENT_DATE, CURRENT_TIME, LOCALTIME, PROCTIME, UNIX_TIMESTAMP()) read
 * `BindOptions.clock` on every evaluation, as Flink does per record in a
 * streaming query; they are never folded as constants.
 */
import type { ExprOf, SourceLoc, TimeUnit } from "../../sql/ast.ts";
import type { LogicalType } from "../../types/logical-type.ts";
import type { SqlValue } from "../../types/sql-value.ts";
import { decimalToNumber, type Decimal } from "../../types/decimal.ts";
import { civilFromDays, daysFromCivil, daysInMonth, parseDate, parseTimestamp } from "../../types/temporal.ts";
import { instantOfWallClock, timeZoneOffset } from "../../types/time-zone.ts";
import { showType, type BindContext, type BoundExpr, type Evaluator } from "../bound-expr.ts";
import { isStringType, logicalType, withNullable } from "../type-rules.ts";
import { SqlValidationError } from "../../validation/sql-validation-error.ts";
import { SqlRuntimeError } from "../sql-runtime-error.ts";
import { DatePatternError, formatWithPattern, parseWithPattern, parseZonedWithPattern } from "./date-format.ts";
import {
  BIGINT, constantArg, DATE, expectArgs, INT, STRING, strict, type BuiltinFunction, type CallSite,
} from "./builtin-function.ts";

const MS_PER_DAY = 86_400_000;
const UNIT_MS: Partial<Record<TimeUnit, number>> = { WEEK: 7 * MS_PER_DAY, DAY: MS_PER_DAY, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1000, MILLISECOND: 1 };
const UNIT_MONTHS: Partial<Record<TimeUnit, number>> = { YEAR: 12, QUARTER: 3, MONTH: 1 };
const DEFAULT_FORMAT = "yyyy-MM-dd HH:mm:ss";
/** 0000-01-01 00:00:00.000 and 9999-12-31 23:59:59.999 UTC: the range of TO_TIMESTAMP_LTZ. */
const MIN_EPOCH_MS = -62_167_219_200_000;
const MAX_EPOCH_MS = 253_402_300_799_999;

/** Text in Flink's default timestamp format (1- or 2-digit month and day, optional time), or null. */
function lenientDefault(s: string): number | null {
  try {
    return parseTimestamp(s.trim());
  } catch {
    return null;
  }
}

const TIMESTAMP3 = logicalType({ kind: "timestamp", precision: 3, withLocalTimeZone: false }, false);
const LTZ3 = logicalType({ kind: "timestamp", precision: 3, withLocalTimeZone: true }, false);
const TIME0 = logicalType({ kind: "time", precision: 0 }, false);

function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

function floorMod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

/**
 * An evaluator of the wall-clock epoch ms of a temporal value: DATE at
 * midnight, TIME on 1970-01-01, TIMESTAMP as is, TIMESTAMP_LTZ in `timeZone`.
 */
function wallClock(x: BoundExpr, timeZone: string): Evaluator {
  const e = x.eval;
  const t = x.type;
  if (t.kind === "date") return (f) => { const v = e(f); return v === null ? null : (v as number) * MS_PER_DAY; };
  if (t.kind === "timestamp" && t.withLocalTimeZone) {
    return (f) => { const v = e(f) as number | null; return v === null ? null : v + timeZoneOffset(v, timeZone); };
  }
  return e;
}

/**
 * The value of `unit` of a wall-clock time, as EXTRACT returns it (BIGINT):
 * MILLISECOND/MICROSECOND/NANOSECOND are the fraction of the second, DOW is
 * 1 (Sunday) to 7, WEEK the ISO-8601 week, EPOCH whole seconds (truncated),
 * as Flink's `DateTimeUtils`. A safe integer, so the BIGINT is a number
 * (`+ 0` where a truncation could give −0).
 */
function extractField(unit: TimeUnit, wall: number): number {
  const days = floorDiv(wall, MS_PER_DAY);
  const msOfDay = wall - days * MS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  switch (unit) {
    case "MILLENNIUM": return Math.trunc(year > 0 ? (year + 999) / 1000 : (year - 999) / 1000) + 0;
    case "CENTURY": return Math.trunc(year > 0 ? (year + 99) / 100 : (year - 99) / 100) + 0;
    case "DECADE": return Math.trunc(year / 10) + 0;
    case "YEAR": return year;
    case "QUARTER": return Math.floor((month + 2) / 3);
    case "MONTH": return month;
    case "WEEK": return isoWeek(days);
    case "DAY": return day;
    case "DOW": return floorMod(days + 4, 7) + 1;
    case "DOY": return days - daysFromCivil(year, 1, 1) + 1;
    case "HOUR": return Math.floor(msOfDay / 3_600_000);
    case "MINUTE": return Math.floor(msOfDay / 60_000) % 60;
    case "SECOND": return Math.floor(msOfDay / 1000) % 60;
    case "MILLISECOND": return msOfDay % 1000;
    case "MICROSECOND": return (msOfDay % 1000) * 1000;
    case "NANOSECOND": return (msOfDay % 1000) * 1_000_000;
    case "EPOCH": return Math.trunc(wall / 1000) + 0;
  }
}

/** ISO-8601 week of the year (weeks start on Monday; week 1 holds the year's first Thursday). */
function isoWeek(days: number): number {
  const dowMonday0 = floorMod(days + 3, 7);
  const thursday = days - dowMonday0 + 3;
  const { year } = civilFromDays(thursday);
  return Math.floor((thursday - daysFromCivil(year, 1, 1)) / 7) + 1;
}

const DATE_UNITS = new Set<TimeUnit>(["MILLENNIUM", "CENTURY", "DECADE", "YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "DOW", "DOY", "EPOCH"]);
const TIME_UNITS = new Set<TimeUnit>(["HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND", "EPOCH"]);

/** `EXTRACT(unit FROM x)` of a DATE, TIME, TIMESTAMP or TIMESTAMP_LTZ: a BIGINT. */
export function bindExtract(unit: TimeUnit, x: BoundExpr, loc: SourceLoc, context: BindContext, what = `EXTRACT(${unit} FROM …)`): BoundExpr {
  const k = x.type.kind;
  const ok = k === "null" || k === "timestamp" || (k === "date" && DATE_UNITS.has(unit)) || (k === "time" && TIME_UNITS.has(unit));
  if (!ok) throw new SqlValidationError(`Cannot apply '${what}' to arguments of type <${showType(x.type)}>`, loc);
  const w = wallClock(x, context.timeZone);
  return { type: withNullable(BIGINT, x.type.nullable), constant: x.constant, eval: (f) => { const v = w(f); return v === null ? null : extractField(unit, v as number); } };
}

/** Adds `months` to a wall-clock time, clamping the day to the end of the month (as Java/Calcite). */
function addMonths(wall: number, months: number): number {
  const days = floorDiv(wall, MS_PER_DAY);
  const msOfDay = wall - days * MS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  const total = year * 12 + (month - 1) + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  return daysFromCivil(y, m, Math.min(day, daysInMonth(y, m))) * MS_PER_DAY + msOfDay;
}

/** The start of the `unit` that holds a wall-clock time (weeks start on Sunday, as Calcite). */
function floorTo(unit: TimeUnit, wall: number): number {
  const ms = UNIT_MS[unit];
  if (unit === "WEEK") {
    const days = floorDiv(wall, MS_PER_DAY);
    return (days - floorMod(days + 4, 7)) * MS_PER_DAY;
  }
  if (ms !== undefined) return floorDiv(wall, ms) * ms;
  const { year, month } = civilFromDays(floorDiv(wall, MS_PER_DAY));
  switch (unit) {
    case "YEAR": return daysFromCivil(year, 1, 1) * MS_PER_DAY;
    case "QUARTER": return daysFromCivil(year, month - ((month - 1) % 3), 1) * MS_PER_DAY;
    case "MONTH": return daysFromCivil(year, month, 1) * MS_PER_DAY;
    case "DECADE": return daysFromCivil(Math.floor(year / 10) * 10, 1, 1) * MS_PER_DAY;
    case "CENTURY": return daysFromCivil(Math.floor((year - 1) / 100) * 100 + 1, 1, 1) * MS_PER_DAY;
    case "MILLENNIUM": return daysFromCivil(Math.floor((year - 1) / 1000) * 1000 + 1, 1, 1) * MS_PER_DAY;
    default: throw new Error(`internal: FLOOR to ${unit}`);
  }
}

function ceilTo(unit: TimeUnit, wall: number): number {
  const floor = floorTo(unit, wall);
  if (floor === wall) return wall;
  const ms = UNIT_MS[unit];
  if (ms !== undefined) return floor + ms;
  const months = UNIT_MONTHS[unit] ?? (unit === "DECADE" ? 120 : unit === "CENTURY" ? 1200 : 12_000);
  return addMonths(floor, months);
}

const FLOOR_UNITS = new Set<TimeUnit>(["MILLENNIUM", "CENTURY", "DECADE", "YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND"]);

/** `FLOOR(x TO unit)` / `CEIL(x TO unit)` of a DATE, TIME, TIMESTAMP or TIMESTAMP_LTZ (LTZ in the session zone): the same type. */
export function bindFloorCeil(e: ExprOf<"floorCeil">, x: BoundExpr, context: BindContext): BoundExpr {
  const t = x.type;
  const isDate = t.kind === "date";
  if (!FLOOR_UNITS.has(e.unit) || !(t.kind === "timestamp" || t.kind === "time" || isDate || t.kind === "null")) {
    throw new SqlValidationError(`Cannot apply '${e.fn}(… TO ${e.unit})' to arguments of type <${showType(t)}>`, e.loc);
  }
  const round = e.fn === "FLOOR" ? floorTo : ceilTo;
  const unit = e.unit;
  const w = wallClock(x, context.timeZone);
  const ltz = t.kind === "timestamp" && t.withLocalTimeZone;
  const zone = context.timeZone;
  return { type: t, constant: x.constant, eval: (f) => {
    const v = w(f) as number | null;
    if (v === null) return null;
    const r = round(unit, v);
    return isDate ? floorDiv(r, MS_PER_DAY) : ltz ? instantOfWallClock(r, zone) : t.kind === "time" ? floorMod(r, MS_PER_DAY) : r;
  } };
}

function fieldFunction(names: string[], unit: TimeUnit): BuiltinFunction {
  return { names, arity: [1, 1], bind: (call) => bindExtract(unit, call.args[0]!, call.loc, call.context, call.name) };
}

/** A constant pattern argument checked at planning time (located error), or per value. */
function patternArg(call: CallSite, i: number): void {
  const a = call.args[i];
  if (a === undefined || !a.constant) return;
  const p = a.eval([]);
  if (p === null) return;
  try {
    formatWithPattern(0, p as string);
  } catch (err) {
    if (err instanceof DatePatternError) throw new SqlValidationError(err.message, call.loc);
    throw err;
  }
}

function runtimePattern<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof DatePatternError) throw new SqlRuntimeError(err.message);
    throw err;
  }
}

/** Evaluator of the first argument as a wall-clock time: a temporal value, or text in Flink's default format. */
function wallOrText(call: CallSite): Evaluator {
  const a = call.args[0]!;
  if (isStringType(a.type)) {
    const e = a.eval;
    return (f) => {
      const v = e(f);
      if (v === null) return null;
      try { return parseTimestamp((v as string).trim()); } catch { return null; }
    };
  }
  return wallClock(a, call.context.timeZone);
}

function nowFunction(names: string[], type: LogicalType, value: (now: number, zone: string) => SqlValue): BuiltinFunction {
  return {
    names, arity: [0, 0],
    bind: (call) => {
      const clock = call.context.clock;
      const zone = call.context.timeZone;
      return { type, constant: false, eval: () => value(clock(), zone) };
    },
  };
}

const wallNow = (now: number, zone: string) => now + timeZoneOffset(now, zone);

/** Whole months from day `d1` to day `d0` (negative when d0 is earlier), as Flink's `subtractMonths` with clamped month ends. */
function monthsBetweenDays(d0: number, d1: number): number {
  if (d0 < d1) return -monthsBetweenDays(d1, d0);
  for (let m = Math.trunc((d0 - d1) / 31); ; m++) {
    if (addMonthsToDay(d1, m) >= d0 || addMonthsToDay(d1, m + 1) > d0) return m;
  }
}

function addMonthsToDay(day: number, months: number): number {
  return floorDiv(addMonths(day * MS_PER_DAY, months), MS_PER_DAY);
}

/** TIMESTAMPDIFF's value: whole `unit`s from wall-clock `a` to `b` (negative when b is earlier), as Flink computes it. */
function timestampDiff(unit: TimeUnit, a: number, b: number): number {
  const ms = UNIT_MS[unit];
  if (ms !== undefined) return Math.trunc((b - a) / ms) + 0; // + 0: never -0
  const da = floorDiv(a, MS_PER_DAY);
  const db = floorDiv(b, MS_PER_DAY);
  let months = monthsBetweenDays(db, da);
  if (addMonthsToDay(da, months) === db && b - db * MS_PER_DAY < a - da * MS_PER_DAY) months--;
  return Math.trunc(months / UNIT_MONTHS[unit]!) + 0;
}

const DIFF_UNITS = new Set<TimeUnit>(["YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND"]);

function unitOf(call: CallSite): TimeUnit {
  const u = call.unit!;
  if (!DIFF_UNITS.has(u)) throw new SqlValidationError(`${call.name} does not support the time unit ${u}`, call.loc);
  return u;
}

/** The epoch-ms factor of TO_TIMESTAMP_LTZ's precision argument. */
function epochScale(call: CallSite): number {
  if (call.args.length < 2) return 1;
  const p = constantArg(call, 1, "precision");
  if (p !== 0 && p !== 3) throw new SqlValidationError(`The precision of TO_TIMESTAMP_LTZ must be 0 or 3, got ${String(p)}`, call.loc);
  return p === 0 ? 1000 : 1;
}

function toNumber(v: SqlValue): number {
  return typeof v === "object" ? decimalToNumber(v as Decimal) : Number(v);
}

export const TEMPORAL_FUNCTIONS: BuiltinFunction[] = [
  fieldFunction(["YEAR"], "YEAR"),
  fieldFunction(["QUARTER"], "QUARTER"),
  fieldFunction(["MONTH"], "MONTH"),
  fieldFunction(["WEEK"], "WEEK"),
  fieldFunction(["DAYOFYEAR"], "DOY"),
  fieldFunction(["DAYOFMONTH"], "DAY"),
  fieldFunction(["DAYOFWEEK"], "DOW"),
  fieldFunction(["HOUR"], "HOUR"),
  fieldFunction(["MINUTE"], "MINUTE"),
  fieldFunction(["SECOND"], "SECOND"),
  nowFunction(["CURRENT_TIMESTAMP", "NOW", "PROCTIME", "CURRENT_ROW_TIMESTAMP"], LTZ3, (now) => now),
  nowFunction(["LOCALTIMESTAMP"], TIMESTAMP3, wallNow),
  nowFunction(["CURRENT_DATE"], DATE, (now, zone) => floorDiv(wallNow(now, zone), MS_PER_DAY)),
  nowFunction(["CURRENT_TIME", "LOCALTIME"], TIME0, (now, zone) => floorMod(floorDiv(wallNow(now, zone), 1000) * 1000, MS_PER_DAY)),
  {
    // DATE_FORMAT(timestamp | string, pattern): text in the pattern; LTZ on the session wall clock; a string is read as 'yyyy-MM-dd HH:mm:ss'.
    names: ["DATE_FORMAT"], arity: [2, 2],
    bind: (call) => {
      expectArgs(call, ["timestamp", "date", "string"], "string");
      patternArg(call, 1);
      const a = call.args[0]!;
      const ltz = a.type.kind === "timestamp" && a.type.withLocalTimeZone;
      const zone = call.context.timeZone;
      if (ltz) {
        return strict(call, STRING, (instant: number, p: string) => runtimePattern(() => {
          const offset = timeZoneOffset(instant, zone);
          return formatWithPattern(instant + offset, p, offset);
        }));
      }
      return strict(call, STRING, (wall: number, p: string) => runtimePattern(() => formatWithPattern(wall, p)), isStringType(a.type), [wallOrText(call), call.args[1]!.eval]);
    },
  },
  {
    // TO_TIMESTAMP(text[, pattern]): TIMESTAMP(3); NULL when the text does not match.
    names: ["TO_TIMESTAMP"], arity: [1, 2],
    bind: (call) => {
      expectArgs(call, "string");
      patternArg(call, 1);
      if (call.args.length === 1) {
        return strict(call, TIMESTAMP3, lenientDefault, true);
      }
      // as Flink: text the pattern does not match is still read when it is in the default format
      return strict(call, TIMESTAMP3, (s: string, p: string) => runtimePattern(() => parseWithPattern(s, p) ?? lenientDefault(s)), true);
    },
  },
  {
    // TO_DATE(text[, pattern]): DATE; NULL when the text does not match.
    names: ["TO_DATE"], arity: [1, 2],
    bind: (call) => {
      expectArgs(call, "string");
      patternArg(call, 1);
      if (call.args.length === 1) return strict(call, DATE, (s: string) => { try { return parseDate(s.trim()); } catch { return null; } }, true);
      return strict(call, DATE, (s: string, p: string) => runtimePattern(() => {
        const w = parseWithPattern(s, p, "lenient");
        return w === null ? null : floorDiv(w, MS_PER_DAY);
      }), true);
    },
  },
  {
    // TO_TIMESTAMP_LTZ(epoch[, 0 | 3]): the instant `epoch` seconds (0) or milliseconds (3, the default) after 1970-01-01 UTC
    // (fractions truncated); NULL outside the years 0000–9999.
    names: ["TO_TIMESTAMP_LTZ"], arity: [1, 2],
    bind: (call) => {
      expectArgs(call, "numeric", "integer");
      const scale = epochScale(call);
      return strict(call, LTZ3, (n: SqlValue) => {
        const ms = Math.trunc(toNumber(n) * scale) + 0;
        return ms >= MIN_EPOCH_MS && ms <= MAX_EPOCH_MS ? ms : null;
      }, true, [call.args[0]!.eval]);
    },
  },
  {
    // UNIX_TIMESTAMP(): seconds since the epoch now; UNIX_TIMESTAMP(text[, pattern]): of wall-clock text in the session
    // zone, or in the offset the text gives for an X/Z field (default pattern 'yyyy-MM-dd HH:mm:ss'); text that does
    // not match gives Long.MIN_VALUE, as Flink.
    names: ["UNIX_TIMESTAMP"], arity: [0, 2],
    bind: (call) => {
      if (call.args.length === 0) {
        const clock = call.context.clock;
        return { type: BIGINT, constant: false, eval: () => Math.trunc(clock() / 1000) + 0 };
      }
      expectArgs(call, "string");
      patternArg(call, 1);
      const zone = call.context.timeZone;
      return strict(call, BIGINT, (s: string, p = DEFAULT_FORMAT) => runtimePattern(() => {
        const r = parseZonedWithPattern(s, p, "lenient");
        if (r === null) return -(2n ** 63n);
        const instant = r.offsetMs === undefined ? instantOfWallClock(r.wall, zone) : r.wall - r.offsetMs;
        return Math.trunc(instant / 1000) + 0;
      }));
    },
  },
  {
    // FROM_UNIXTIME(seconds[, pattern]): the instant as text on the session wall clock (default 'yyyy-MM-dd HH:mm:ss').
    names: ["FROM_UNIXTIME"], arity: [1, 2],
    bind: (call) => {
      expectArgs(call, "numeric", "string");
      patternArg(call, 1);
      const zone = call.context.timeZone;
      return strict(call, STRING, (n: SqlValue, p = DEFAULT_FORMAT) => runtimePattern(() => {
        const ms = Math.floor(toNumber(n)) * 1000;
        const offset = timeZoneOffset(ms, zone);
        return formatWithPattern(ms + offset, p, offset);
      }));
    },
  },
  {
    // CONVERT_TZ(text, fromZone, toZone): 'yyyy-MM-dd HH:mm:ss' wall-clock text moved between zones.
    names: ["CONVERT_TZ"], arity: [3, 3],
    bind: (call) => {
      expectArgs(call, "string");
      return strict(call, STRING, (s: string, from: string, to: string) => {
        let wall: number;
        try { wall = parseTimestamp(s.trim()); } catch { return null; }
        try {
          const instant = instantOfWallClock(wall, from);
          return formatWithPattern(instant + timeZoneOffset(instant, to), DEFAULT_FORMAT);
        } catch (err) {
          throw new SqlRuntimeError(`CONVERT_TZ: ${(err as Error).message}`);
        }
      }, true);
    },
  },
  {
    // TIMESTAMPDIFF(unit, a, b): whole units from a to b, an INT.
    names: ["TIMESTAMPDIFF"], arity: [2, 2], unitFirst: true,
    bind: (call) => {
      expectArgs(call, ["timestamp", "date"]);
      const unit = unitOf(call);
      const zone = call.context.timeZone;
      return strict(call, INT, (a: number, b: number) => timestampDiff(unit, a, b), false, call.args.map((x) => wallClock(x, zone)));
    },
  },
  {
    // TIMESTAMPADD(unit, n, x): x plus n units; a DATE stays a DATE for units of a day or longer.
    names: ["TIMESTAMPADD"], arity: [2, 2], unitFirst: true,
    bind: (call) => {
      expectArgs(call, "integer", ["timestamp", "date"]);
      const unit = unitOf(call);
      const x = call.args[1]!;
      const t = x.type;
      const ms = UNIT_MS[unit];
      const months = UNIT_MONTHS[unit];
      const dateResult = t.kind === "date" && (months !== undefined || unit === "DAY" || unit === "WEEK");
      const ltz = t.kind === "timestamp" && t.withLocalTimeZone;
      const zone = call.context.timeZone;
      const type: LogicalType = t.kind === "date" && !dateResult ? logicalType({ kind: "timestamp", precision: unit === "MILLISECOND" ? 3 : 0, withLocalTimeZone: false }) : t;
      const shift = (wall: number, n: number) => (months !== undefined ? addMonths(wall, n * months) : wall + n * ms!);
      if (ltz && ms !== undefined) return strict(call, type, (n: number | bigint, instant: number) => instant + Number(n) * ms);
      return strict(call, type, (n: number | bigint, wall: number) => {
        const r = shift(wall, Number(n));
        return dateResult ? floorDiv(r, MS_PER_DAY) : ltz ? instantOfWallClock(r, zone) : r;
      }, false, [call.args[0]!.eval, wallClock(x, zone)]);
    },
  },
];
