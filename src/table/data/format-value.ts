/**
 * Text of SQL values as Flink's `Row.toString()` prints them (what the
 * `print` connector and `toChangelogStream(...).print()` show): Java's
 * `toString` of each value's default external class. `null` is `null`;
 * DOUBLE/FLOAT `1.0` and `1.0E7`; DECIMAL as `BigDecimal.toString`
 * (`12.30`, `1E-10`); DATE `2020-04-15`; TIME `08:05` / `08:05:01.5`
 * style as `LocalTime`; TIMESTAMP as `LocalDateTime` (`2020-04-15T08:05`);
 * TIMESTAMP_LTZ as `Instant` (`2020-04-15T08:05:00Z`); day-time INTERVAL as
 * `Duration` (`PT1H30M`); year-month INTERVAL as `Period` (`P1Y2M`); arrays
 * `[a, b]`; maps `{k=v, …}`; nested rows `+I[a, b]` (with a ROW format).
 * Values whose type the JavaScript value does not tell (a DOUBLE 1 is the
 * number 1) need a {@link ValueFormat}.
 */
import { isDecimal, type Decimal } from "../types/decimal.ts";
import type { SqlValue, ValueFormat } from "../types/sql-value.ts";
import { formatDate } from "../types/temporal.ts";

const MS_PER_DAY = 86_400_000;

/** Java's `Double.toString`: at least one fraction digit; scientific below 1e-3 and from 1e7. */
export function formatDouble(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const a = Math.abs(n);
  if (a >= 1e-3 && a < 1e7) {
    const s = String(n);
    return s.includes(".") ? s : s + ".0";
  }
  const [mantissa, exp] = n.toExponential().split("e");
  return `${mantissa!.includes(".") ? mantissa : mantissa + ".0"}E${Number(exp)}`;
}

/** Java's `BigDecimal.toString`: plain unless the adjusted exponent is below -6 (`1E-10`, `1.5E-8`). */
export function formatDecimalJava(d: Decimal): string {
  const neg = d.unscaled < 0n;
  const digits = (neg ? -d.unscaled : d.unscaled).toString();
  const adjusted = digits.length - 1 - d.scale;
  const sign = neg ? "-" : "";
  if (d.scale === 0) return sign + digits;
  if (adjusted >= -6) {
    const padded = digits.length <= d.scale ? "0".repeat(d.scale - digits.length + 1) + digits : digits;
    const point = padded.length - d.scale;
    return sign + padded.slice(0, point) + "." + padded.slice(point);
  }
  return sign + digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "") + "E" + adjusted;
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, "0");
}

/** Java's `LocalTime.toString`: `HH:mm`, then `:ss` unless seconds and fraction are zero, then `.SSS` if any milliseconds. */
function javaTime(msOfDay: number): string {
  const s = Math.floor(msOfDay / 1000);
  const ms = msOfDay % 1000;
  let text = `${pad(Math.floor(s / 3600), 2)}:${pad(Math.floor(s / 60) % 60, 2)}`;
  if (s % 60 !== 0 || ms !== 0) text += `:${pad(s % 60, 2)}`;
  if (ms !== 0) text += `.${pad(ms, 3)}`;
  return text;
}

function javaDateTime(epochMs: number): string {
  const days = Math.floor(epochMs / MS_PER_DAY);
  return `${formatDate(days)}T${javaTime(epochMs - days * MS_PER_DAY)}`;
}

/** Java's `Instant.toString`: always seconds, a fraction only when non-zero, `Z`. */
function javaInstant(epochMs: number): string {
  const days = Math.floor(epochMs / MS_PER_DAY);
  const msOfDay = epochMs - days * MS_PER_DAY;
  const s = Math.floor(msOfDay / 1000);
  const ms = msOfDay % 1000;
  return `${formatDate(days)}T${pad(Math.floor(s / 3600), 2)}:${pad(Math.floor(s / 60) % 60, 2)}:${pad(s % 60, 2)}${ms === 0 ? "" : "." + pad(ms, 3)}Z`;
}

/** Java's `Duration.toString` of milliseconds: `PT0S`, `PT1H30M`, `PT-0.5S`. */
function javaDuration(ms: number): string {
  if (ms === 0) return "PT0S";
  const hours = Math.trunc(ms / 3_600_000);
  const minutes = Math.trunc((ms % 3_600_000) / 60_000);
  const rest = ms % 60_000;
  let text = "PT";
  if (hours !== 0) text += `${hours}H`;
  if (minutes !== 0) text += `${minutes}M`;
  if (rest !== 0) {
    const a = Math.abs(rest);
    const frac = a % 1000 === 0 ? "" : "." + pad(a % 1000, 3).replace(/0+$/, "");
    text += `${rest < 0 ? "-" : ""}${Math.floor(a / 1000)}${frac}S`;
  }
  return text;
}

/** Java's `Period.toString` of months (normalized to years and months): `P1Y2M`, `P0D`. */
function javaPeriod(months: number): string {
  if (months === 0) return "P0D";
  const years = Math.trunc(months / 12);
  const rest = months % 12;
  return `P${years !== 0 ? `${years}Y` : ""}${rest !== 0 ? `${rest}M` : ""}`;
}

function formatBytes(b: Uint8Array): string {
  return "[" + Array.from(b, (x) => String(x > 127 ? x - 256 : x)).join(", ") + "]";
}

/**
 * Flink's `Row.toString()` text of one value.
 *
 * @example
 * ```ts
 * formatValue(1);                                     // "1"
 * formatValue(1, { kind: "DOUBLE" });                 // "1.0"
 * formatValue(1_586_937_900_000, { kind: "TIMESTAMP" }); // "2020-04-15T08:05"
 * formatValue({ unscaled: 1230n, scale: 2 });         // "12.30"
 * ```
 */
export function formatValue(value: SqlValue, format?: ValueFormat): string {
  if (value === null) return "null";
  if (typeof value === "number") {
    switch (format?.kind) {
      case "FLOAT":
      case "DOUBLE":
        return formatDouble(value);
      case "DATE":
        return formatDate(value);
      case "TIME":
        return javaTime(value);
      case "TIMESTAMP":
        return javaDateTime(value);
      case "TIMESTAMP_LTZ":
        return javaInstant(value);
      case "INTERVAL_DAY_TIME":
        return javaDuration(value);
      case "INTERVAL_YEAR_MONTH":
        return javaPeriod(value);
    }
    return Number.isInteger(value) ? String(value) : formatDouble(value);
  }
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) {
    if (format?.kind === "ROW") return "+I[" + value.map((v, i) => formatValue(v, format.fields[i])).join(", ") + "]";
    const element = format?.kind === "ARRAY" ? format.element : undefined;
    return "[" + value.map((v) => formatValue(v, element)).join(", ") + "]";
  }
  if (value instanceof Map) {
    const kf = format?.kind === "MAP" ? format.key : undefined;
    const vf = format?.kind === "MAP" ? format.value : undefined;
    return "{" + [...value].map(([k, v]) => `${formatValue(k, kf)}=${formatValue(v, vf)}`).join(", ") + "}";
  }
  if (value instanceof Uint8Array) return formatBytes(value);
  if (isDecimal(value)) return formatDecimalJava(value);
  return String(value);
}
