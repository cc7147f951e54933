/**
 * Reading the records of a DataStream as rows of a table: a JavaScript value
 * becomes the SQL value of its column's type (see
 * `src/table/types/sql-value.ts`): numbers and bigints become canonical
 * BIGINTs (see `types/bigint-value.ts`) or exact DECIMALs, `Date`s and ISO strings become TIMESTAMP epoch milliseconds,
 * and so on. A value that does not fit is a located error, never a silent
 * NULL.
 */
import { isDecimal, parseDecimal, toDecimalType, type Decimal } from "../types/decimal.ts";
import { formatLogicalType, type LogicalType } from "../types/logical-type.ts";
import { bigintOf } from "../types/bigint-value.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { parseDate, parseTime, parseTimestamp } from "../types/temporal.ts";

/** A record value that does not fit its column. */
export class RecordConversionError extends Error {
  override readonly name = "RecordConversionError";
}

const DAY_MS = 86_400_000;

function describe(v: unknown): string {
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`;
  if (typeof v === "object") return v instanceof Date ? "a Date" : Array.isArray(v) ? "an array" : "an object";
  return `the ${typeof v} ${String(v)}`;
}

function mismatch(v: unknown, t: LogicalType, where: string): never {
  throw new RecordConversionError(`${where} is ${formatLogicalType(t)} but the record has ${describe(v)}`);
}

/**
 * `v` as a value of type `t`; `where` names the place for errors (e.g.
 * `column 'price' of table 'orders'`).
 *
 * @throws {RecordConversionError}
 * @example
 * ```ts
 * toSqlValue(12n, { kind: "bigint", nullable: true }, "column 'n'"); // 12
 * toSqlValue(new Date(0), { kind: "timestamp", precision: 3, withLocalTimeZone: false, nullable: true }, "column 't'"); // 0
 * ```
 */
export function toSqlValue(v: unknown, t: LogicalType, where: string): SqlValue {
  if (v === null || v === undefined) {
    if (!t.nullable) throw new RecordConversionError(`${where} is NOT NULL but the record has no value`);
    return null;
  }
  switch (t.kind) {
    case "boolean":
      return typeof v === "boolean" ? v : mismatch(v, t, where);
    case "tinyint":
    case "smallint":
    case "int":
      return typeof v === "number" && Number.isInteger(v) ? v : typeof v === "bigint" ? Number(v) : mismatch(v, t, where);
    case "bigint":
      if (typeof v === "bigint") return bigintOf(v);
      if (typeof v === "number" && Number.isInteger(v)) return Number.isSafeInteger(v) ? v + 0 : bigintOf(BigInt(v));
      return mismatch(v, t, where);
    case "float":
    case "double":
      return typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : mismatch(v, t, where);
    case "decimal": {
      let d: Decimal | null = null;
      if (isDecimal(v)) d = v;
      else if (typeof v === "number" || typeof v === "string" || typeof v === "bigint") d = parseDecimal(String(v));
      if (d === null) return mismatch(v, t, where);
      const fitted = toDecimalType(d, t);
      return fitted === null ? mismatch(v, t, where) : fitted;
    }
    case "char":
    case "varchar":
      return typeof v === "string" ? v : mismatch(v, t, where);
    case "binary":
    case "varbinary":
      return v instanceof Uint8Array ? v : mismatch(v, t, where);
    case "date":
      if (v instanceof Date) return Math.floor(v.getTime() / DAY_MS);
      if (typeof v === "string") return parseDate(v);
      return typeof v === "number" && Number.isInteger(v) ? v : mismatch(v, t, where);
    case "time":
      if (typeof v === "string") return parseTime(v);
      return typeof v === "number" ? v : mismatch(v, t, where);
    case "timestamp":
      if (v instanceof Date) return v.getTime();
      if (typeof v === "string") return t.withLocalTimeZone ? Date.parse(v) : parseTimestamp(v);
      return typeof v === "number" ? v : mismatch(v, t, where);
    case "array":
    case "multiset":
      return Array.isArray(v) ? v.map((x, i) => toSqlValue(x, t.element, `${where}[${i}]`)) : mismatch(v, t, where);
    case "map": {
      const entries = v instanceof Map ? [...v] : typeof v === "object" ? Object.entries(v as object) : mismatch(v, t, where);
      return new Map(entries.map(([k, x]) => [toSqlValue(k, t.key, `${where} key`), toSqlValue(x, t.value, `${where}[${String(k)}]`)]));
    }
    case "row": {
      if (Array.isArray(v)) return t.fields.map((f, i) => toSqlValue(v[i], f.type, `${where}.${f.name}`));
      if (typeof v !== "object") return mismatch(v, t, where);
      return t.fields.map((f) => toSqlValue((v as Record<string, unknown>)[f.name], f.type, `${where}.${f.name}`));
    }
    default:
      return mismatch(v, t, where);
  }
}
