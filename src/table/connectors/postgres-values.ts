/**
 * SQL values to and from PostgreSQL, for the `jdbc` and `postgres-cdc` connectors: one conversion from
 * PostgreSQL's text form (what `pgoutput` sends, and what a query returns with {@link TEXT_PARSERS}) to
 * the run-time values of `sql-value.ts`, one from those values to `pg` query parameters, and which
 * PostgreSQL column types a declared SQL type fits (Flink's JDBC type mapping for PostgreSQL).
 *
 * | SQL type                 | PostgreSQL types                                               |
 * | ------------------------ | -------------------------------------------------------------- |
 * | BOOLEAN                  | boolean                                                        |
 * | TINYINT, SMALLINT        | smallint                                                       |
 * | INT                      | integer (smallint when reading)                                |
 * | BIGINT                   | bigint (integer, smallint when reading)                        |
 * | FLOAT                    | real                                                           |
 * | DOUBLE                   | double precision (real when reading)                           |
 * | DECIMAL(p, s)            | numeric, numeric(p', s')                                       |
 * | CHAR, VARCHAR, STRING    | text, character varying, character, uuid, json, jsonb, enums…  |
 * | BINARY, VARBINARY, BYTES | bytea                                                          |
 * | DATE                     | date                                                           |
 * | TIME                     | time without time zone                                         |
 * | TIMESTAMP                | timestamp without time zone                                    |
 * | TIMESTAMP_LTZ            | timestamp with time zone                                       |
 * | ARRAY<T>                 | T[] (one dimension)                                            |
 */
import { decimalToString, parseDecimal, type Decimal } from "../types/decimal.ts";
import type { LogicalType } from "../types/logical-type.ts";
import { bigintOf } from "../types/bigint-value.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { formatDate, formatTimestamp, parseDate, parseTime, parseTimestamp } from "../types/temporal.ts";
import { typeToString } from "../expr/type-rules.ts";

/** A PostgreSQL value that is not a value of the declared type. */
export class PostgresValueError extends Error {
  constructor(text: string, type: LogicalType, why?: string) {
    super(`cannot read PostgreSQL value ${JSON.stringify(text.length > 80 ? text.slice(0, 80) + "…" : text)} as ${typeToString(type)}${why === undefined ? "" : ` (${why})`}`);
    this.name = "PostgresValueError";
  }
}

/**
 * The `pg` client's `types` option that leaves every column as PostgreSQL's text, for
 * {@link fromPgText} (the client's own parsers would turn BIGINT and NUMERIC into lossy numbers).
 *
 * @example
 * ```ts
 * const rows = (await client.query({ text: "SELECT * FROM rates", types: TEXT_PARSERS, rowMode: "array" })).rows;
 * ```
 */
export const TEXT_PARSERS = { getTypeParser: () => (text: string) => text } as const;

const INTEGER = /^[+-]?\d+$/;
const INT_RANGE = { tinyint: 2 ** 7, smallint: 2 ** 15, int: 2 ** 31 } as const;

function integer(text: string, type: LogicalType, kind: keyof typeof INT_RANGE): number {
  if (!INTEGER.test(text)) throw new PostgresValueError(text, type);
  const n = Number(text);
  const bound = INT_RANGE[kind];
  if (n < -bound || n >= bound) throw new PostgresValueError(text, type, "out of range");
  return n;
}

function floating(text: string, type: LogicalType): number {
  const n = text === "Infinity" ? Infinity : text === "-Infinity" ? -Infinity : Number(text);
  if (Number.isNaN(n) && text !== "NaN") throw new PostgresValueError(text, type);
  return type.kind === "float" ? Math.fround(n) : n;
}

/** `+05:30`, `-08`, `+00` at the end of a `timestamptz` text, in ms east of UTC. */
function zoneOffsetMs(text: string): { wall: string; offsetMs: number } | undefined {
  const m = /([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?$/.exec(text);
  if (m === null || m.index < 10) return undefined;
  const sign = m[1] === "-" ? -1 : 1;
  const offsetMs = sign * ((Number(m[2]) * 60 + Number(m[3] ?? 0)) * 60 + Number(m[4] ?? 0)) * 1000;
  return { wall: text.slice(0, m.index), offsetMs };
}

function temporal(text: string, type: LogicalType, read: (t: string) => number): number {
  try {
    return read(text);
  } catch (e) {
    throw new PostgresValueError(text, type, (e as Error).message);
  }
}

/** The elements' texts of a one-dimensional PostgreSQL array literal (`{1,2,NULL}`, `{"a b","c\"d"}`), null for NULL. */
function arrayElements(text: string, type: LogicalType): (string | null)[] {
  if (!text.startsWith("{") || !text.endsWith("}")) throw new PostgresValueError(text, type, "expected an array {…}");
  const body = text.slice(1, -1);
  const out: (string | null)[] = [];
  if (body === "") return out;
  let i = 0;
  while (i <= body.length) {
    if (body[i] === "{") throw new PostgresValueError(text, type, "multi-dimensional arrays are not supported");
    if (body[i] === '"') {
      let s = "";
      i++;
      while (i < body.length && body[i] !== '"') {
        if (body[i] === "\\") i++;
        s += body[i];
        i++;
      }
      out.push(s);
      i += 2; // closing quote and comma
    } else {
      let end = body.indexOf(",", i);
      if (end < 0) end = body.length;
      const s = body.slice(i, end).trim();
      out.push(s === "NULL" ? null : s);
      i = end + 1;
    }
  }
  return out;
}

/**
 * The SQL value of type `type` of a PostgreSQL value in text form (`null` for SQL NULL).
 *
 * @throws PostgresValueError for text that is not a value of `type`
 * @example
 * ```ts
 * fromPgText("9223372036854775807", { kind: "bigint", nullable: true }); // 9223372036854775807n
 * fromPgText("2024-03-01 10:00:00+01", { kind: "timestamp", precision: 3, withLocalTimeZone: true, nullable: true }); // 1709283600000
 * ```
 */
export function fromPgText(text: string | null, type: LogicalType): SqlValue {
  if (text === null) return null;
  switch (type.kind) {
    case "boolean":
      if (text === "t" || text === "true") return true;
      if (text === "f" || text === "false") return false;
      throw new PostgresValueError(text, type);
    case "tinyint":
    case "smallint":
    case "int":
      return integer(text, type, type.kind);
    case "bigint":
      if (!INTEGER.test(text)) throw new PostgresValueError(text, type);
      return bigintOf(BigInt(text));
    case "float":
    case "double":
      return floating(text, type);
    case "decimal": {
      let d: Decimal | null;
      try {
        d = parseDecimal(text, { precision: type.precision, scale: type.scale });
      } catch {
        throw new PostgresValueError(text, type);
      }
      if (d === null) throw new PostgresValueError(text, type, `more than ${type.precision - type.scale} digits before the point`);
      return d;
    }
    case "char":
    case "varchar":
      return text;
    case "binary":
    case "varbinary":
      if (!text.startsWith("\\x")) throw new PostgresValueError(text, type, "expected bytea in hex form \\x…");
      return new Uint8Array(Buffer.from(text.slice(2), "hex"));
    case "date":
      return temporal(text, type, parseDate);
    case "time":
      return temporal(text, type, parseTime);
    case "timestamp": {
      if (!type.withLocalTimeZone) return temporal(text, type, parseTimestamp);
      const zoned = zoneOffsetMs(text);
      if (zoned === undefined) throw new PostgresValueError(text, type, "expected a time zone offset");
      return temporal(zoned.wall, type, parseTimestamp) - zoned.offsetMs;
    }
    case "array":
      return arrayElements(text, type).map((e) => fromPgText(e, type.element));
    default:
      throw new PostgresValueError(text, type, "the type has no PostgreSQL mapping");
  }
}

/** `HH:mm:ss.fff` of milliseconds of the day. */
function timeText(ms: number): string {
  return formatTimestamp(ms).slice(11);
}

/**
 * A `pg` query parameter for the value `value` of type `type`: numbers that must stay exact and times as
 * PostgreSQL text, bytes as a Buffer, arrays element by element (the client writes the array literal).
 *
 * @example
 * ```ts
 * await client.query("INSERT INTO t VALUES ($1, $2)", [pgParam(12n, bigint), pgParam(dec, decimal10_2)]);
 * ```
 */
export function pgParam(value: SqlValue, type: LogicalType): unknown {
  if (value === null) return null;
  switch (type.kind) {
    case "bigint":
      return String(value);
    case "float":
    case "double": {
      const n = value as number;
      return Number.isFinite(n) ? n : n > 0 ? "Infinity" : n < 0 ? "-Infinity" : "NaN";
    }
    case "decimal":
      return decimalToString(value as Decimal);
    case "binary":
    case "varbinary": {
      const b = value as Uint8Array;
      return Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    }
    case "date":
      return formatDate(value as number);
    case "time":
      return timeText(value as number);
    case "timestamp":
      return type.withLocalTimeZone ? formatTimestamp(value as number) + "+00" : formatTimestamp(value as number);
    case "array":
      return (value as SqlValue[]).map((e) => pgParam(e, type.element));
    case "map":
    case "row":
    case "multiset":
      throw new Error(`${typeToString(type)} has no PostgreSQL mapping`);
    default:
      return value;
  }
}

const TEXT_LIKE = /^(text|character varying(\(\d+\))?|character(\(\d+\))?|"char"|name|uuid|json|jsonb|xml|citext|inet|cidr|macaddr)$/;
const NOT_TEXT = /^(boolean|smallint|integer|bigint|real|double precision|numeric.*|bytea|date|time.*|timestamp.*|interval.*|.*\[\])$/;

const INT_WIDTH: Record<string, number> = { smallint: 2, integer: 4, bigint: 8 };
const SQL_INT_WIDTH: Record<string, number> = { tinyint: 1, smallint: 2, int: 4, bigint: 8 };
const INT_DIGITS: Record<string, number> = { tinyint: 3, smallint: 5, int: 10, bigint: 19 };

/**
 * Whether a PostgreSQL column of type `pgType` (`format_type` text) fits the declared SQL type: when
 * `direction` is `read`, every value of the column is a value of `type`; when `write`, every value of
 * `type` can be stored in the column. Undefined when it fits, else the reason.
 *
 * @example
 * ```ts
 * pgTypeFits("integer", { kind: "bigint", nullable: true }, "read");  // undefined
 * pgTypeFits("integer", { kind: "bigint", nullable: true }, "write"); // "BIGINT values do not fit in integer"
 * ```
 */
export function pgTypeFits(pgType: string, type: LogicalType, direction: "read" | "write"): string | undefined {
  const declared = typeToString(type);
  const no = direction === "read" ? `a ${pgType} column cannot be read as ${declared}` : `${declared} values do not fit in ${pgType}`;
  switch (type.kind) {
    case "boolean":
      return pgType === "boolean" ? undefined : no;
    case "tinyint":
    case "smallint":
    case "int":
    case "bigint": {
      const width = INT_WIDTH[pgType];
      if (width === undefined) {
        // into a numeric: its digits before the point must hold the integer type's
        const m = /^numeric(?:\((\d+),(\d+)\))?$/.exec(pgType);
        if (m === null || direction === "read") return no;
        return m[1] === undefined || Number(m[1]) - Number(m[2]) >= INT_DIGITS[type.kind]! ? undefined : no;
      }
      const sqlWidth = SQL_INT_WIDTH[type.kind]!;
      return (direction === "read" ? width <= Math.max(sqlWidth, 2) : sqlWidth <= width) ? undefined : no;
    }
    case "float":
      return pgType === "real" || (direction === "write" && pgType === "double precision") ? undefined : no;
    case "double":
      return pgType === "double precision" || (direction === "read" && pgType === "real") ? undefined : no;
    case "decimal": {
      if (!pgType.startsWith("numeric")) return no;
      const m = /^numeric\((\d+),(\d+)\)$/.exec(pgType);
      if (m === null) return undefined; // an unconstrained numeric: each value is checked as it is read or written
      const pg = { integer: Number(m[1]) - Number(m[2]), scale: Number(m[2]) };
      const sql = { integer: type.precision - type.scale, scale: type.scale };
      const [from, to] = direction === "read" ? [pg, sql] : [sql, pg];
      return from.integer <= to.integer && from.scale <= to.scale ? undefined : no;
    }
    case "char":
    case "varchar":
      return TEXT_LIKE.test(pgType) || !NOT_TEXT.test(pgType) ? undefined : no;
    case "binary":
    case "varbinary":
      return pgType === "bytea" ? undefined : no;
    case "date":
      return pgType === "date" ? undefined : no;
    case "time":
      return /^time(\(\d\))? without time zone$/.test(pgType) ? undefined : no;
    case "timestamp":
      return (type.withLocalTimeZone ? /^timestamp(\(\d\))? with time zone$/ : /^timestamp(\(\d\))? without time zone$/).test(pgType) ? undefined : no;
    case "array":
      return pgType.endsWith("[]") && pgTypeFits(pgType.slice(0, -2), type.element, direction) === undefined ? undefined : no;
    default:
      return `${declared} has no PostgreSQL mapping`;
  }
}
