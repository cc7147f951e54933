/**
 * SQL values to and from JSON as Flink's `json` format maps them
 * (`JsonToRowDataConverters` / `RowDataToJsonConverters`): ROW as an object
 * by field name, ARRAY as an array, MAP as an object (keys as text), numbers
 * as JSON numbers read exactly (BIGINT beyond 2^53, DECIMAL digit for digit),
 * strings, booleans; DATE/TIME/TIMESTAMP as text (`temporal-text.ts`), bytes
 * in base64; NaN and infinities as the strings `"NaN"`, `"Infinity"`.
 * Reading is lenient as Flink's is: numbers and booleans may be given as
 * strings (`"42"`), and a STRING column takes any JSON value as its text.
 * Unlike Flink, nothing is lost silently: a number too large for its integer
 * or DECIMAL type, or with a fraction for an integer type, is an error (Flink
 * reads NULL, wraps or truncates); a DECIMAL with more fraction digits than
 * its scale is rounded HALF_UP, as in Flink.
 */
import type { LogicalType } from "../types/logical-type.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { typeToString, type RowType } from "../expr/type-rules.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { FormatValueError } from "./format-value-error.ts";
import { jsonNodeText, JsonNumber, type JsonNode } from "./json-text.ts";
import { scalarReader, scalarWriter, type ScalarTextOptions } from "./scalar-text.ts";

/** How JSON values are read and written (the `json` format's options). */
export interface JsonCodecOptions extends ScalarTextOptions {
  /** A field missing from an object is an error instead of NULL (`fail-on-missing-field`). */
  readonly failOnMissingField: boolean;
  /** A field that does not read as its type is NULL instead of an error (`ignore-parse-errors`, as in Flink). */
  readonly nullOnFieldError: boolean;
  /** What to write for a NULL map key (`map-null-key.mode`). */
  readonly mapNullKeyMode: "FAIL" | "DROP" | "LITERAL";
  /** The key written for a NULL map key in LITERAL mode. */
  readonly mapNullKeyLiteral: string;
  /** Omit fields whose value is NULL when writing (`encode.ignore-null-fields`). */
  readonly ignoreNullFields: boolean;
  /** The format's name in error messages. */
  readonly formatName: string;
}

/** Reads a JSON value as a SQL value. */
export type JsonValueReader = (node: JsonNode) => SqlValue;
/** Writes a SQL value as JSON text. */
export type JsonValueWriter = (value: SqlValue) => string;

function mismatch(node: JsonNode, t: LogicalType): FormatValueError {
  return new FormatValueError(`cannot read ${excerptOf(node)} as ${typeToString(t)}`);
}

function excerptOf(node: JsonNode): string {
  const text = jsonNodeText(node);
  return text.length <= 60 ? text : text.slice(0, 60) + "…";
}

function unsupported(o: JsonCodecOptions, t: LogicalType, column: string): never {
  throw new SqlValidationError(`The '${o.formatName}' format does not support the type ${typeToString(t)} (column '${column}').`);
}

/**
 * The reader of the objects of a table row: its fields by column name, in column order.
 *
 * With `projection`, only those columns are read; the others are NULL.
 *
 * @throws {SqlValidationError} when a column has a type the format does not support (INTERVAL, MULTISET)
 * @example
 * ```ts
 * const read = jsonRowReader(rowType, options);
 * read(parseJsonText('{"name": "Mary", "cnt": 12345678901234567890}')); // ["Mary", 12345678901234567890n] for (name STRING, cnt DECIMAL(20, 0))
 * ```
 */
export function jsonRowReader(rowType: RowType, o: JsonCodecOptions, projection?: readonly number[]): (node: JsonNode) => SqlValue[] {
  const fields = rowType.names.map((name, i) => ({ name, type: rowType.types[i]! }));
  const read = rowReader(fields, o, "", projection === undefined ? undefined : new Set(projection));
  return (node) => {
    if (!(node instanceof Map)) throw new FormatValueError(`expected a JSON object, got ${excerptOf(node)}`);
    return read(node);
  };
}

/** The writer of table rows as JSON objects. */
export function jsonRowWriter(rowType: RowType, o: JsonCodecOptions): (fields: readonly SqlValue[]) => string {
  const fields = rowType.names.map((name, i) => ({ name, type: rowType.types[i]! }));
  return rowWriter(fields, o, "");
}

function rowReader(
  fields: readonly { name: string; type: LogicalType }[],
  o: JsonCodecOptions,
  where: string,
  read?: ReadonlySet<number>,
): (m: Map<string, JsonNode>) => SqlValue[] {
  const readers = fields.map((f) => valueReader(f.type, o, where + f.name));
  return (m) => {
    const out: SqlValue[] = new Array(fields.length);
    for (let i = 0; i < fields.length; i++) {
      if (read !== undefined && !read.has(i)) {
        out[i] = null; // a column the query does not read (projection push-down)
        continue;
      }
      const name = fields[i]!.name;
      const node = m.get(name);
      if (node === undefined) {
        if (o.failOnMissingField) throw new FormatValueError("the field is missing", [name]);
        out[i] = null;
        continue;
      }
      try {
        out[i] = node === null ? null : readers[i]!(node);
      } catch (e) {
        if (!(e instanceof FormatValueError)) throw e;
        if (!o.nullOnFieldError) throw e.within(name);
        out[i] = null;
      }
    }
    return out;
  };
}

function valueReader(t: LogicalType, o: JsonCodecOptions, where: string): JsonValueReader {
  switch (t.kind) {
    case "interval":
    case "multiset":
    case "null":
      return unsupported(o, t, where);
    case "row": {
      const read = rowReader(t.fields, o, where + ".");
      return (node) => {
        if (!(node instanceof Map)) throw mismatch(node, t);
        return read(node);
      };
    }
    case "array": {
      const element = valueReader(t.element, o, where + "[]");
      return (node) => {
        if (!Array.isArray(node)) throw mismatch(node, t);
        return node.map((n, i) => {
          try {
            return n === null ? null : element(n);
          } catch (e) {
            if (e instanceof FormatValueError) throw e.within(`[${i}]`);
            throw e;
          }
        });
      };
    }
    case "map": {
      const key = valueReader(t.key, o, where + "{key}");
      const value = valueReader(t.value, o, where + "{value}");
      return (node) => {
        if (!(node instanceof Map)) throw mismatch(node, t);
        const out = new Map<SqlValue, SqlValue>();
        for (const [k, v] of node) {
          try {
            out.set(key(k), v === null ? null : value(v));
          } catch (e) {
            if (e instanceof FormatValueError) throw e.within(k);
            throw e;
          }
        }
        return out;
      };
    }
    case "char":
    case "varchar":
      return (node) => (typeof node === "string" ? node : jsonNodeText(node));
    case "boolean":
    case "tinyint":
    case "smallint":
    case "int":
    case "bigint":
    case "float":
    case "double":
    case "decimal": {
      const text = scalarReader(t, o);
      return (node) => {
        if (typeof node === "string") return text(node);
        if (node instanceof JsonNumber) return t.kind === "boolean" ? fail(node, t) : text(node.text);
        if (typeof node === "boolean" && t.kind === "boolean") return node;
        return fail(node, t);
      };
    }
    default: {
      const text = scalarReader(t, o);
      return (node) => (typeof node === "string" ? text(node) : fail(node, t));
    }
  }
}

function fail(node: JsonNode, t: LogicalType): never {
  throw mismatch(node, t);
}

function rowWriter(fields: readonly { name: string; type: LogicalType }[], o: JsonCodecOptions, where: string): (values: readonly SqlValue[]) => string {
  const names = fields.map((f) => JSON.stringify(f.name) + ":");
  const writers = fields.map((f) => valueWriter(f.type, o, where + f.name));
  return (values) => {
    let text = "{";
    let first = true;
    for (let i = 0; i < names.length; i++) {
      const v = values[i] ?? null;
      if (v === null && o.ignoreNullFields) continue;
      text += (first ? "" : ",") + names[i] + (v === null ? "null" : writers[i]!(v));
      first = false;
    }
    return text + "}";
  };
}

function valueWriter(t: LogicalType, o: JsonCodecOptions, where: string): JsonValueWriter {
  switch (t.kind) {
    case "interval":
    case "multiset":
    case "null":
      return unsupported(o, t, where);
    case "row": {
      const write = rowWriter(t.fields, o, where + ".");
      return (v) => write(v as SqlValue[]);
    }
    case "array": {
      const element = valueWriter(t.element, o, where + "[]");
      return (v) => "[" + (v as SqlValue[]).map((e) => (e === null ? "null" : element(e))).join(",") + "]";
    }
    case "map": {
      const key = t.key.kind === "char" || t.key.kind === "varchar" ? (k: SqlValue) => k as string : scalarTextOf(t.key, o, where);
      const value = valueWriter(t.value, o, where + "{value}");
      return (v) => {
        const parts: string[] = [];
        for (const [k, x] of v as Map<SqlValue, SqlValue>) {
          let name: string;
          if (k !== null) name = key(k);
          else if (o.mapNullKeyMode === "DROP") continue;
          else if (o.mapNullKeyMode === "LITERAL") name = o.mapNullKeyLiteral;
          else throw new FormatValueError(`a map has a NULL key; set '${o.formatName}.map-null-key.mode' to 'DROP' or 'LITERAL' to write it`);
          parts.push(JSON.stringify(name) + ":" + (x === null ? "null" : value(x)));
        }
        return "{" + parts.join(",") + "}";
      };
    }
    case "char":
    case "varchar":
      return (v) => JSON.stringify(v);
    case "boolean":
    case "tinyint":
    case "smallint":
    case "int":
    case "bigint":
      return (v) => String(v);
    case "float":
    case "double": {
      const text = scalarWriter(t, o);
      return (v) => (Number.isFinite(v) ? text(v) : JSON.stringify(text(v)));
    }
    case "decimal":
      return scalarWriter(t, o);
    default: {
      const text = scalarWriter(t, o);
      return (v) => JSON.stringify(text(v));
    }
  }
}

/** A map key as text: scalars only. */
function scalarTextOf(t: LogicalType, o: JsonCodecOptions, where: string): (v: SqlValue) => string {
  if (["row", "array", "map", "multiset", "interval", "null"].includes(t.kind)) unsupported(o, t, where + "{key}");
  return scalarWriter(t, o);
}
