/**
 * Data types: `INT`, `DECIMAL(10, 2)`, `TIMESTAMP(3) WITH LOCAL TIME ZONE`,
 * `ROW<a INT, b STRING>`, `ARRAY<T>`, `MAP<K, V>`, each optionally `NOT NULL`.
 */
import type { DataType, RowField, TimeUnit } from "./ast.ts";
import type { Token } from "./lexer.ts";
import type { TokenCursor } from "./token-cursor.ts";

/** The largest length of CHAR/VARCHAR/BINARY/VARBINARY; `STRING` is `VARCHAR` of this length. */
export const MAX_LENGTH = 2147483647;

const SIMPLE = new Map<string, "boolean" | "tinyint" | "smallint" | "int" | "bigint" | "float" | "double" | "date">([
  ["BOOLEAN", "boolean"], ["TINYINT", "tinyint"], ["SMALLINT", "smallint"], ["INT", "int"], ["INTEGER", "int"],
  ["BIGINT", "bigint"], ["FLOAT", "float"], ["REAL", "float"], ["DOUBLE", "double"], ["DATE", "date"],
]);

const UNITS = new Set<TimeUnit>([
  "MILLENNIUM", "CENTURY", "DECADE", "YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND",
  "MILLISECOND", "MICROSECOND", "NANOSECOND", "DOW", "DOY", "EPOCH",
]);

/** Plural units, which interval literals accept as in Flink's documentation (`INTERVAL '10' MINUTES`). */
const PLURAL = new Map<string, TimeUnit>([
  ["YEARS", "YEAR"], ["MONTHS", "MONTH"], ["WEEKS", "WEEK"], ["DAYS", "DAY"], ["HOURS", "HOUR"], ["MINUTES", "MINUTE"], ["SECONDS", "SECOND"],
]);

/** The time unit at the cursor, if there is one (consumed); `plural` also accepts `MINUTES` and the like. */
export function acceptTimeUnit(c: TokenCursor, plural = false): TimeUnit | undefined {
  const k = c.keyword();
  if (k === undefined) return undefined;
  const unit = UNITS.has(k as TimeUnit) ? (k as TimeUnit) : plural ? PLURAL.get(k) : undefined;
  if (unit !== undefined) c.next();
  return unit;
}

/** A time unit such as `SECOND` (required). */
export function parseTimeUnit(c: TokenCursor, plural = false): TimeUnit {
  const u = acceptTimeUnit(c, plural);
  if (u === undefined) throw c.expected("a time unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, ...)");
  return u;
}

/** Parses a data type with its optional `NULL`/`NOT NULL`. */
export function parseDataType(c: TokenCursor): DataType {
  const t = c.nested(() => parseBaseType(c));
  if (c.acceptKeywords("NOT", "NULL")) t.nullable = false;
  else c.acceptKeyword("NULL");
  return t;
}

function integer(c: TokenCursor, what: string): number {
  const t = c.peek();
  if (t.kind !== "number" || !/^\d+$/.test(t.text)) throw c.expected(what);
  c.next();
  const n = Number(t.text);
  if (n > MAX_LENGTH) throw c.error(`${what} ${t.text} is too large`, t);
  return n;
}

/** `(n)` if present, else `fallback`. */
function optionalSize(c: TokenCursor, what: string, fallback: number): number {
  if (!c.acceptOp("(")) return fallback;
  const n = integer(c, what);
  c.expectOp(")");
  return n;
}

function parseBaseType(c: TokenCursor): DataType {
  const start: Token = c.peek();
  const loc = start.loc;
  const k = c.keyword();
  if (k === undefined) throw c.expected("a data type");
  const simple = SIMPLE.get(k);
  if (simple !== undefined) {
    c.next();
    if (k === "DOUBLE") c.acceptKeyword("PRECISION");
    return { kind: simple, nullable: true, loc };
  }
  switch (k) {
    case "DECIMAL":
    case "DEC":
    case "NUMERIC": {
      c.next();
      let precision = 10;
      let scale = 0;
      if (c.acceptOp("(")) {
        precision = integer(c, "a precision");
        if (c.acceptOp(",")) scale = integer(c, "a scale");
        c.expectOp(")");
      }
      if (precision < 1 || precision > 38) throw c.error(`DECIMAL precision must be between 1 and 38, not ${precision}`, start);
      if (scale > precision) throw c.error(`DECIMAL scale ${scale} is larger than its precision ${precision}`, start);
      return { kind: "decimal", precision, scale, nullable: true, loc };
    }
    case "CHAR":
    case "CHARACTER":
    case "BINARY": {
      c.next();
      const varying = c.acceptKeyword("VARYING");
      const kind = k === "BINARY" ? (varying ? "varbinary" : "binary") : varying ? "varchar" : "char";
      return { kind, length: optionalSize(c, "a length", 1), nullable: true, loc };
    }
    case "VARCHAR":
    case "VARBINARY":
      c.next();
      return { kind: k === "VARCHAR" ? "varchar" : "varbinary", length: optionalSize(c, "a length", 1), nullable: true, loc };
    case "STRING":
      c.next();
      return { kind: "varchar", length: MAX_LENGTH, nullable: true, loc };
    case "BYTES":
      c.next();
      return { kind: "varbinary", length: MAX_LENGTH, nullable: true, loc };
    case "TIME": {
      c.next();
      const precision = optionalSize(c, "a precision", 0);
      c.acceptKeywords("WITHOUT", "TIME", "ZONE");
      return { kind: "time", precision, nullable: true, loc };
    }
    case "TIMESTAMP": {
      c.next();
      const precision = optionalSize(c, "a precision", 6);
      let withLocalTimeZone = false;
      if (c.acceptKeywords("WITH", "LOCAL", "TIME", "ZONE")) withLocalTimeZone = true;
      else if (c.isKeyword("WITH") && c.isKeyword("TIME", 1)) throw c.unsupported("TIMESTAMP WITH TIME ZONE");
      else c.acceptKeywords("WITHOUT", "TIME", "ZONE");
      if (precision > 9) throw c.error(`TIMESTAMP precision must be between 0 and 9, not ${precision}`, start);
      return { kind: "timestamp", precision, withLocalTimeZone, nullable: true, loc };
    }
    case "TIMESTAMP_LTZ": {
      c.next();
      const precision = optionalSize(c, "a precision", 6);
      if (precision > 9) throw c.error(`TIMESTAMP_LTZ precision must be between 0 and 9, not ${precision}`, start);
      return { kind: "timestamp", precision, withLocalTimeZone: true, nullable: true, loc };
    }
    case "INTERVAL": {
      c.next();
      const from = parseTimeUnit(c);
      optionalSize(c, "a precision", 0);
      const to = c.acceptKeyword("TO") ? parseTimeUnit(c) : undefined;
      if (to !== undefined) optionalSize(c, "a precision", 0);
      return to === undefined ? { kind: "interval", from, nullable: true, loc } : { kind: "interval", from, to, nullable: true, loc };
    }
    case "ROW": {
      c.next();
      const open = c.isOp("<") ? "<" : c.isOp("(") ? "(" : undefined;
      if (open === undefined) throw c.expected("'<' or '('");
      c.next();
      const close = open === "<" ? ">" : ")";
      const fields: RowField[] = [];
      if (!c.acceptOp(close)) {
        fields.push(...c.commaList(() => rowField(c)));
        c.expectOp(close);
      }
      return { kind: "row", fields, nullable: true, loc };
    }
    case "ARRAY":
    case "MULTISET": {
      c.next();
      c.expectOp("<");
      const element = parseDataType(c);
      c.expectOp(">");
      return { kind: k === "ARRAY" ? "array" : "multiset", element, nullable: true, loc };
    }
    case "MAP": {
      c.next();
      c.expectOp("<");
      const key = parseDataType(c);
      c.expectOp(",");
      const value = parseDataType(c);
      c.expectOp(">");
      return { kind: "map", key, value, nullable: true, loc };
    }
    case "RAW":
    case "STRUCTURED":
    case "VARIANT":
      throw c.unsupported(`type ${k}`);
    default:
      throw c.expected("a data type");
  }
}

function rowField(c: TokenCursor): RowField {
  const name = c.identifier("a field name");
  const type = parseDataType(c);
  if (c.peek().kind === "string") return { name, type, description: c.string() };
  return { name, type };
}
