/**
 * `CAST(v AS T)` between numeric, string, boolean, decimal, date, time and
 * timestamp types, as Flink (1.15+, non-legacy cast behaviour) does:
 * text that does not parse fails the cast (TRY_CAST turns that into NULL);
 * a number too large for the target DECIMAL is NULL; integers narrow by
 * wrapping (Java's narrowing) and floats to integers truncate toward zero
 * and saturate (Java's `(int) d`); casting to CHAR(n) pads and to VARCHAR(n)
 * truncates.
 *
 * Double to text uses JavaScript's shortest round-trip digits with a `.0`
 * for whole numbers below 10^7 (`1.0`, `0.5`, `1e+21`), which differs from
 * Java's `Double.toString` for exponents: documented, not hidden.
 */
import { bigintOf, bigintOfDouble, canonicalBigint, int64, type BigintValue } from "../types/bigint-value.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { decimalFromNumber, decimalToNumber, decimalToString, parseDecimal, toDecimalType, type Decimal } from "../types/decimal.ts";
import { formatDate, formatTime, formatTimestamp, parseDate, parseTime, parseTimestamp } from "../types/temporal.ts";
import { isIntegerType, isNumericType, isStringType, typeToString } from "./type-rules.ts";
import type { LogicalType } from "../types/logical-type.ts";
import { SqlRuntimeError } from "./sql-runtime-error.ts";
import { instantOfWallClock, timeZoneOffset } from "../types/time-zone.ts";

/** A conversion of a non-null value; throws {@link SqlRuntimeError} when the value does not convert. */
export type CastFunction = (v: SqlValue) => SqlValue;

const DAY_MS = 86_400_000;

const INTEGER_RANK = { tinyint: 1, smallint: 2, int: 3, bigint: 4 } as const;

/**
 * Whether a value of type `from` goes into a column of type `to` without an
 * explicit CAST, as a query's column into a sink's column (Flink's implicit
 * casts, `LogicalTypeCasts.supportsImplicitCast`): the same type; an integer
 * type into a wider one, any number into DECIMAL and DOUBLE, an integer or
 * DECIMAL into FLOAT; CHAR and VARCHAR of any length into each other, and
 * BINARY and VARBINARY; TIMESTAMP of any precision into TIMESTAMP (and
 * TIMESTAMP_LTZ into TIMESTAMP_LTZ), TIMESTAMP into DATE and TIME, TIME into
 * TIME; ROW, ARRAY, MULTISET and MAP when their parts go; the NULL literal
 * into anything. Text never goes into a number, a number never into text.
 * Nullability is not compared (the sink's planning refuses a NULL literal
 * for a NOT NULL column itself).
 *
 * @example
 * ```ts
 * supportsImplicitCast(logicalType({ kind: "int" }), logicalType({ kind: "bigint" })); // true
 * supportsImplicitCast(logicalType({ kind: "varchar", length: 10 }), logicalType({ kind: "bigint" })); // false
 * ```
 */
export function supportsImplicitCast(from: LogicalType, to: LogicalType): boolean {
  if (from.kind === "null") return true;
  switch (to.kind) {
    case "null":
      return false;
    case "boolean":
    case "date":
    case "time":
      return from.kind === to.kind || (to.kind !== "boolean" && from.kind === "timestamp" && !from.withLocalTimeZone);
    case "tinyint":
    case "smallint":
    case "int":
    case "bigint":
      return isIntegerType(from) && INTEGER_RANK[from.kind] <= INTEGER_RANK[to.kind];
    case "float":
      return isIntegerType(from) || from.kind === "decimal" || from.kind === "float";
    case "double":
    case "decimal":
      return isNumericType(from);
    case "char":
    case "varchar":
      return isStringType(from);
    case "binary":
    case "varbinary":
      return from.kind === "binary" || from.kind === "varbinary";
    case "timestamp":
      return from.kind === "timestamp" && from.withLocalTimeZone === to.withLocalTimeZone;
    case "interval":
      return from.kind === "interval" && isYearMonth(from.from) === isYearMonth(to.from);
    case "row":
      return from.kind === "row" && from.fields.length === to.fields.length && from.fields.every((f, i) => supportsImplicitCast(f.type, to.fields[i]!.type));
    case "array":
    case "multiset":
      return from.kind === to.kind && supportsImplicitCast(from.element, to.element);
    case "map":
      return from.kind === "map" && supportsImplicitCast(from.key, to.key) && supportsImplicitCast(from.value, to.value);
  }
}

function isYearMonth(unit: string): boolean {
  return unit === "YEAR" || unit === "MONTH";
}

/** Java's narrowing of an integral value to the integer type `kind`. */
export function wrapInteger(kind: "tinyint" | "smallint" | "int", v: number): number {
  return kind === "int" ? v | 0 : kind === "smallint" ? (v << 16) >> 16 : (v << 24) >> 24;
}

/**
 * The conversion of non-null values from `from` to `to`, or undefined when
 * the cast is not valid. TIMESTAMP_LTZ values (instants) convert to and
 * from TIMESTAMP, DATE, TIME and text through the wall clock of `timeZone`
 * (the session time zone, as Flink).
 *
 * @example
 * ```ts
 * castFunction(logicalType({ kind: "varchar", length: 10 }), logicalType({ kind: "int" }))!("42"); // 42
 * ```
 */
export function castFunction(from: LogicalType, to: LogicalType, timeZone = "UTC"): CastFunction | undefined {
  if (from.kind === "null") return (v) => v;
  if (from.kind === "timestamp" && from.withLocalTimeZone && !(to.kind === "timestamp" && to.withLocalTimeZone)) {
    const asWall = castFunction({ ...from, withLocalTimeZone: false }, to);
    if (asWall === undefined) return undefined;
    return (v) => asWall((v as number) + timeZoneOffset(v as number, timeZone));
  }
  if (to.kind === "timestamp" && to.withLocalTimeZone && !(from.kind === "timestamp" && from.withLocalTimeZone)) {
    const toWall = castFunction(from, { ...to, withLocalTimeZone: false });
    if (toWall === undefined) return undefined;
    return (v) => instantOfWallClock(toWall(v) as number, timeZone);
  }
  const toKind = to.kind;
  if (isNumericType(to)) {
    if (isNumericType(from)) return numericToNumeric(from, to);
    if (from.kind === "boolean") {
      const one = numericToNumeric({ ...from, kind: "int" } as LogicalType, to)!;
      return (v) => one(v ? 1 : 0);
    }
    if (isStringType(from)) return stringToNumeric(to);
    return undefined;
  }
  if (isStringType(to)) {
    const text = toText(from);
    if (text === undefined) return undefined;
    const n = to.length;
    if (to.kind === "char") return (v) => { const s = text(v); return s.length >= n ? s.slice(0, n) : s.padEnd(n); };
    return n === 2147483647 ? text : (v) => { const s = text(v); return s.length > n ? s.slice(0, n) : s; };
  }
  if (toKind === "boolean") {
    if (from.kind === "boolean") return (v) => v;
    if (isNumericType(from)) return (v) => (typeof v === "object" ? (v as Decimal).unscaled !== 0n : v != 0);
    if (isStringType(from)) return stringToBoolean;
    return undefined;
  }
  if (toKind === "date") {
    if (from.kind === "date") return (v) => v;
    if (from.kind === "timestamp" && !from.withLocalTimeZone) return (v) => Math.floor((v as number) / DAY_MS);
    if (isStringType(from)) return parsing(parseDate, "DATE");
    return undefined;
  }
  if (toKind === "time") {
    if (from.kind === "time") return (v) => v;
    if (from.kind === "timestamp" && !from.withLocalTimeZone) return (v) => (((v as number) % DAY_MS) + DAY_MS) % DAY_MS;
    if (isStringType(from)) return parsing(parseTime, "TIME");
    return undefined;
  }
  if (to.kind === "timestamp" && !to.withLocalTimeZone) {
    if (from.kind === "timestamp" && !from.withLocalTimeZone) return (v) => v;
    if (from.kind === "date") return (v) => (v as number) * DAY_MS;
    if (isStringType(from)) return parsing(parseTimestamp, "TIMESTAMP");
    return undefined;
  }
  if (to.kind === "timestamp" && from.kind === "timestamp") return (v) => v;
  return undefined;
}

function parsing(parse: (s: string) => number, target: string): CastFunction {
  return (v) => {
    try {
      return parse((v as string).trim());
    } catch {
      throw new SqlRuntimeError(`Cannot cast '${v as string}' to ${target}`);
    }
  };
}

const TRUE_TEXT = new Set(["t", "true", "y", "yes", "1"]);
const FALSE_TEXT = new Set(["f", "false", "n", "no", "0"]);

function stringToBoolean(v: SqlValue): SqlValue {
  const s = (v as string).trim().toLowerCase();
  if (TRUE_TEXT.has(s)) return true;
  if (FALSE_TEXT.has(s)) return false;
  throw new SqlRuntimeError(`Cannot cast '${v as string}' to BOOLEAN`);
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const RANGES = { tinyint: [-128n, 127n], smallint: [-32768n, 32767n], int: [-2147483648n, 2147483647n], bigint: [-(2n ** 63n), 2n ** 63n - 1n] } as const;

function stringToNumeric(to: LogicalType): CastFunction {
  const target = typeToString({ ...to, nullable: true } as LogicalType);
  const fail = (v: SqlValue): never => { throw new SqlRuntimeError(`Cannot cast '${v as string}' to ${target}`); };
  if (isIntegerType(to)) {
    const [lo, hi] = RANGES[to.kind];
    const big = to.kind === "bigint";
    return (v) => {
      const s = (v as string).trim();
      if (!INTEGER_TEXT.test(s)) return fail(v);
      const n = BigInt(s);
      if (n < lo || n > hi) return fail(v);
      return big ? bigintOf(n) : Number(n);
    };
  }
  if (to.kind === "decimal") {
    return (v) => {
      try {
        return parseDecimal((v as string).trim(), to);
      } catch {
        return fail(v);
      }
    };
  }
  const float = to.kind === "float";
  return (v) => {
    const s = (v as string).trim();
    let n: number;
    if (NUMBER_TEXT.test(s)) n = Number(s);
    else if (s === "NaN") n = NaN;
    else if (/^[+-]?Infinity$/.test(s)) n = Number(s);
    else return fail(v);
    return float ? Math.fround(n) : n;
  };
}

function numericToNumeric(from: LogicalType, to: LogicalType): CastFunction | undefined {
  const f = from.kind;
  switch (to.kind) {
    case "tinyint": case "smallint": case "int": {
      const k = to.kind;
      if (f === "bigint") return (v) => wrapInteger(k, typeof v === "number" ? v | 0 : Number(BigInt.asIntN(32, v as bigint)));
      if (f === "decimal") return (v) => wrapInteger(k, Number(BigInt.asIntN(32, truncDecimal(v as Decimal))));
      if (f === "float" || f === "double") return (v) => wrapInteger(k, saturate(v as number, 2147483647));
      return (v) => wrapInteger(k, v as number);
    }
    case "bigint":
      if (f === "bigint") return (v) => canonicalBigint(v as BigintValue);
      if (f === "decimal") return (v) => int64(truncDecimal(v as Decimal));
      if (f === "float" || f === "double") return (v) => bigintOfDouble(v as number);
      return (v) => v;
    case "decimal":
      if (f === "decimal") return (v) => toDecimalType(v as Decimal, to);
      return (v) => decimalFromNumber(v as number | bigint, to);
    case "float": case "double": {
      const round = to.kind === "float" ? Math.fround : (x: number) => x;
      if (f === "decimal") return (v) => round(decimalToNumber(v as Decimal));
      return (v) => round(Number(v as number | bigint));
    }
    default:
      return undefined;
  }
}

function truncDecimal(d: Decimal): bigint {
  return d.scale === 0 ? d.unscaled : d.unscaled / 10n ** BigInt(d.scale);
}

function saturate(x: number, max: number): number {
  if (Number.isNaN(x)) return 0;
  return Math.max(-max - 1, Math.min(max, Math.trunc(x)));
}

/** The text of a double as Flink prints it (see the file comment for the exponent form). */
export function doubleToString(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e7) return Object.is(x, -0) ? "-0.0" : x + ".0";
  return String(x);
}

function toText(from: LogicalType): ((v: SqlValue) => string) | undefined {
  switch (from.kind) {
    case "char": case "varchar": return (v) => v as string;
    case "boolean": return (v) => (v ? "TRUE" : "FALSE");
    case "tinyint": case "smallint": case "int": case "bigint": return (v) => String(v);
    case "decimal": return (v) => decimalToString(v as Decimal);
    case "float": case "double": return (v) => doubleToString(v as number);
    case "date": return (v) => formatDate(v as number);
    case "time": { const p = from.precision; return (v) => formatTime(v as number, p); }
    case "timestamp": {
      const p = from.precision;
      return (v) => formatTimestamp(v as number, p);
    }
    default: return undefined;
  }
}
