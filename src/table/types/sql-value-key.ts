/**
 * A string per SQL value such that two values get the same string exactly
 * when they are not distinct (`IS NOT DISTINCT FROM`, see `sql-compare.ts`):
 * for hashing rows in multisets, upsert keys and `GROUP BY`-style maps.
 */
import { isDecimal, normalizeDecimal, parseDecimal, type Decimal } from "./decimal.ts";
import type { SqlValue } from "./sql-value.ts";

/** An integer-valued number and a bigint of the same value share a key; so do 1.5, 1.50 as DECIMAL and 1.5 as DOUBLE. */
function numberKey(n: number): string {
  if (Number.isSafeInteger(n)) return "i" + n; // the digits of BigInt(n) (-0 prints "0"), with no bigint allocated
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "+inf" : "-inf";
  if (Number.isInteger(n)) return "i" + BigInt(n).toString();
  return decimalKey(parseDecimal(String(n))!); // the double's shortest decimal text, exponent forms included
}

function decimalKey(value: Decimal): string {
  const d = normalizeDecimal(value);
  if (d.scale === 0) return "i" + d.unscaled.toString();
  const neg = d.unscaled < 0n;
  const digits = (neg ? -d.unscaled : d.unscaled).toString().padStart(d.scale + 1, "0");
  return "d" + (neg ? "-" : "") + digits.slice(0, digits.length - d.scale) + "." + digits.slice(digits.length - d.scale);
}

/**
 * The key of `value`; the same for values that are not distinct.
 *
 * @example
 * ```ts
 * sqlValueKey([1, "a"]) === sqlValueKey([1n, "a"]);               // true
 * sqlValueKey({ unscaled: 150n, scale: 2 }) === sqlValueKey(1.5); // true
 * sqlValueKey(null) === sqlValueKey("null");                      // false
 * ```
 */
export function sqlValueKey(value: SqlValue): string {
  if (value === null) return "N";
  switch (typeof value) {
    case "boolean":
      return value ? "T" : "F";
    case "number":
      return numberKey(value);
    case "bigint":
      return "i" + value.toString();
    case "string":
      return JSON.stringify(value);
  }
  if (Array.isArray(value)) return "[" + value.map(sqlValueKey).join(",") + "]";
  if (value instanceof Map) {
    const entries = [...value].map(([k, v]) => sqlValueKey(k) + ":" + sqlValueKey(v)).sort();
    return "{" + entries.join(",") + "}";
  }
  if (value instanceof Uint8Array) return "x" + Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex");
  if (isDecimal(value)) return decimalKey(value);
  throw new TypeError(`not a SQL value: ${Object.prototype.toString.call(value)}`);
}

/**
 * A key of a SQL value for maps held in memory: cheaper than {@link sqlValueKey}, with the same equality
 * (two values get the same compact key exactly when they are not distinct). An integer value in the safe
 * range, whatever its form (a number, a bigint, a DECIMAL such as 7.00), is that number; any other value
 * is its {@link sqlValueKey}. {@link valueKeyOfCompactKey} and {@link compactKeyOfValueKey} convert between
 * the two (for keyed state, whose keys are the strings).
 *
 * @example
 * ```ts
 * sqlValueCompactKey(7n) === sqlValueCompactKey(7);   // true: both 7
 * sqlValueCompactKey(2.5);                            // "d2.5"
 * valueKeyOfCompactKey(sqlValueCompactKey(7n));       // "i7", as sqlValueKey(7n)
 * ```
 */
export function sqlValueCompactKey(value: SqlValue): string | number {
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return value === 0 ? 0 : value; // -0 is 0 (as "i0")
  } else if (typeof value === "bigint") {
    if (value >= MIN_SAFE && value <= MAX_SAFE) return Number(value);
  } else if (isDecimal(value)) {
    const d = normalizeDecimal(value);
    if (d.scale === 0 && d.unscaled >= MIN_SAFE && d.unscaled <= MAX_SAFE) return Number(d.unscaled);
  }
  return sqlValueKey(value);
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The {@link sqlValueKey} of the values whose {@link sqlValueCompactKey} is `key`. */
export function valueKeyOfCompactKey(key: string | number): string {
  return typeof key === "number" ? "i" + key : key;
}

/** The {@link sqlValueCompactKey} of the values whose {@link sqlValueKey} (or key of several values, see row-key.ts) is `key`. */
export function compactKeyOfValueKey(key: string): string | number {
  if (key.length < 2 || key.length > 18 || key.charCodeAt(0) !== 105 /* i */) return key;
  const n = Number(key.slice(1));
  return Number.isSafeInteger(n) && "i" + n === key ? n : key;
}
