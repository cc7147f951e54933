/**
 * Comparison of SQL values (see `sql-value.ts`): `=`, `<` and friends with
 * NULL (any comparison with NULL is UNKNOWN), and a total order for sorting.
 *
 * Numbers compare by value across representations (an INT `number`, a BIGINT
 * `bigint` and a {@link Decimal}; DOUBLE NaN is greater than everything and
 * equal to itself, as Java's `Double.compare`). Strings compare by Unicode
 * code point (the order of their UTF-8 bytes, as Flink's `BinaryStringData`),
 * not by UTF-16 code unit. Booleans: false < true. Bytes: unsigned,
 * lexicographic. Arrays and rows: element by element, then by length. Maps
 * have equality only (same keys, equal values).
 */
import { compareDecimal, isDecimal, parseDecimal, type Decimal } from "./decimal.ts";
import type { SqlBoolean } from "./three-valued-logic.ts";
import type { SqlValue } from "./sql-value.ts";

/** Thrown when two values have no SQL order (a string and a number, a map and anything). */
export class IncomparableValuesError extends Error {
  constructor(a: unknown, b: unknown) {
    super(`cannot compare ${describe(a)} with ${describe(b)}`);
    this.name = "IncomparableValuesError";
  }
}

function describe(v: unknown): string {
  if (v instanceof Map) return "a MAP";
  if (Array.isArray(v)) return "an ARRAY/ROW";
  if (v instanceof Uint8Array) return "BYTES";
  if (isDecimal(v)) return "a DECIMAL";
  return `a ${typeof v}`;
}

function isNumeric(v: unknown): v is number | bigint | Decimal {
  return typeof v === "number" || typeof v === "bigint" || isDecimal(v);
}

function toDecimal(v: number | bigint | Decimal): Decimal {
  if (typeof v === "bigint") return { unscaled: v, scale: 0 };
  if (typeof v === "number") return parseDecimal(String(v))!;
  return v;
}

function compareNumeric(a: number | bigint | Decimal, b: number | bigint | Decimal): number {
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : -1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === "number" && !Number.isFinite(a)) return Number.isNaN(a) || a > 0 ? 1 : -1;
  if (typeof b === "number" && !Number.isFinite(b)) return Number.isNaN(b) || b > 0 ? -1 : 1;
  if (typeof a !== "object" && typeof b !== "object") return a < b ? -1 : a > b ? 1 : 0; // number vs bigint: exact in JS
  return compareDecimal(toDecimal(a), toDecimal(b));
}

/** Compares strings by code point (UTF-8 byte order). */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // A surrogate (0xD800–0xDFFF) starts a code point above 0xFFFF: it sorts after 0xE000–0xFFFF.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) return xs ? 1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return a.length - b.length;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Three-way comparison of two non-null values; null when an element pair is NULL (UNKNOWN). */
function compareNonNull(a: SqlValue, b: SqlValue, nulls: "unknown" | "first"): number | null {
  if (isNumeric(a) && isNumeric(b)) return compareNumeric(a, b);
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  if (typeof a === "boolean" && typeof b === "boolean") return a === b ? 0 : a ? 1 : -1;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const c = nulls === "unknown" ? sqlCompare(a[i]!, b[i]!) : compareForSort(a[i]!, b[i]!);
      if (c === null) return null;
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  throw new IncomparableValuesError(a, b);
}

/**
 * `a <=> b` in SQL: negative, 0 or positive, or null (UNKNOWN) when either
 * is NULL (or, for arrays/rows, when the first differing position holds a NULL).
 *
 * @throws IncomparableValuesError for values of unrelated types, or maps
 * @example
 * ```ts
 * sqlCompare(1, 2n);       // -1
 * sqlCompare(null, 1);     // null
 * sqlCompare("b", "a");    // 1
 * ```
 */
export function sqlCompare(a: SqlValue, b: SqlValue): number | null {
  if (a === null || b === null) return null;
  return compareNonNull(a, b, "unknown");
}

/**
 * `a = b` in SQL: UNKNOWN (null) when either is NULL. Maps are equal when
 * they have the same keys (matched by SQL equality) with equal values.
 *
 * @example
 * ```ts
 * sqlEquals(1, 1n);       // true
 * sqlEquals(null, null);  // null
 * ```
 */
export function sqlEquals(a: SqlValue, b: SqlValue): SqlBoolean {
  if (a === null || b === null) return null;
  if (a instanceof Map || b instanceof Map) {
    if (!(a instanceof Map && b instanceof Map)) throw new IncomparableValuesError(a, b);
    if (a.size !== b.size) return false;
    let unknown = false;
    for (const [k, v] of a) {
      const match = mapGet(b, k);
      if (match === undefined) return false;
      const eq = sqlEquals(v, match);
      if (eq === false) return false;
      if (eq === null) unknown = true;
    }
    return unknown ? null : true;
  }
  const c = compareNonNull(a, b, "unknown");
  return c === null ? null : c === 0;
}

/**
 * `a IS NOT DISTINCT FROM b`: equality where NULL equals NULL (what `GROUP BY`,
 * `DISTINCT`, set operations and changelog retraction use). Never UNKNOWN.
 */
export function sqlNotDistinct(a: SqlValue, b: SqlValue): boolean {
  if (a === null || b === null) return a === b;
  if (a instanceof Map || b instanceof Map) {
    if (!(a instanceof Map && b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) {
      const match = mapGet(b, k);
      if (match === undefined || !sqlNotDistinct(v, match)) return false;
    }
    return true;
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sqlNotDistinct(x, b[i]!));
  try {
    return compareNonNull(a, b, "first") === 0;
  } catch (e) {
    if (e instanceof IncomparableValuesError) return false;
    throw e;
  }
}

/**
 * The value of `key` in a MAP (`m[key]`), matching keys by `IS NOT DISTINCT
 * FROM`: a direct lookup for primitive keys, a scan for object keys
 * (decimals, arrays). `undefined` when absent (SQL then gives NULL).
 */
export function mapGet(map: Map<SqlValue, SqlValue>, key: SqlValue): SqlValue | undefined {
  if (key === null || typeof key !== "object") {
    const v = map.get(key);
    if (v !== undefined || map.has(key)) return v;
    if (typeof key !== "number" && typeof key !== "bigint") return undefined;
  }
  for (const [k, v] of map) if (sqlNotDistinct(k, key)) return v;
  return undefined;
}

/**
 * A total order for sorting (ORDER BY, Top-N): NULL sorts first (Flink's
 * default for ascending order; reverse the result for descending with NULLs
 * last), NULLs inside arrays/rows too.
 *
 * @throws IncomparableValuesError for values of unrelated types, or maps
 */
export function compareForSort(a: SqlValue, b: SqlValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  return compareNonNull(a, b, "first")!;
}
