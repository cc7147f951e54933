/**
 * A table format over whole Kafka messages: the key or value bytes of one
 * record become the rows of the format's row type, and a row becomes the
 * bytes of one message (Flink's `DeserializationSchema<RowData>` /
 * `SerializationSchema<RowData>` of a format).
 *
 * `json`, `csv`, `debezium-json` and `canal-json` reuse the formats of
 * `src/table/formats/` (a JSON message may span lines: its line breaks are
 * whitespace). `raw` reads the whole message as one value: text in its
 * charset, bytes as they are, or a number (`BOOLEAN`, `TINYINT` … `DOUBLE`)
 * in `raw.endianness`, as Flink's raw format does; a NULL value is a null
 * message.
 */
import { newFileSplit } from "../../connectors/file/file-source-split.ts";
import { MalformedRecord, NEED_MORE_BYTES } from "../../connectors/file/record-format.ts";
import type { OptionValue } from "../../config/config-option.ts";
import type { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import { typeToString, type RowType } from "../expr/type-rules.ts";
import { createTableFormat } from "../formats/builtin-formats.ts";
import { FormatValueError } from "../formats/format-value-error.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { bigintOf, toBigInt, type BigintValue } from "../types/bigint-value.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

/** A format of whole messages. */
export interface MessageFormat {
  readonly identifier: string;
  readonly changelogMode: ChangelogMode;
  /**
   * The rows of one message (none when the format skips it with `ignore-parse-errors`).
   *
   * @throws {FormatValueError} for a message that does not parse
   */
  decode(bytes: Uint8Array): Row[];
  /**
   * The message of one row (null for a `raw` NULL value).
   *
   * @throws {FormatValueError} for a row the format cannot write
   */
  encode(row: Row): Uint8Array | null;
}

const JSON_FAMILY = ["json", "debezium-json", "canal-json"];

/**
 * The format `identifier` (with its unprefixed options) of messages holding `rowType`.
 *
 * @throws {SqlValidationError} for an unknown format or a column type it cannot hold
 * @example
 * ```ts
 * const f = messageFormat("json", rowType, new Map());
 * f.decode(Buffer.from('{"id": 1}')); // [{ kind: "+I", fields: [1] }]
 * ```
 */
export function messageFormat(identifier: string, rowType: RowType, options: ReadonlyMap<string, OptionValue>): MessageFormat {
  if (identifier === "raw") return rawMessageFormat(rowType, options);
  const format = createTableFormat(identifier, rowType, options);
  const oneLine = JSON_FAMILY.includes(identifier);
  return {
    identifier,
    changelogMode: format.changelogMode,
    decode(bytes) {
      const split = newFileSplit("message");
      const decoder = format.records.open(split);
      // JSON text holds line breaks only as whitespace (never inside strings): one message is one line
      decoder.append(oneLine ? Buffer.from(Buffer.from(bytes).toString("utf8").replace(/[\r\n]/g, " ")) : bytes);
      decoder.markEnd();
      const rows: Row[] = [];
      for (;;) {
        const item = decoder.next(split);
        if (item === NEED_MORE_BYTES) return rows;
        if (item instanceof MalformedRecord) throw new FormatValueError(item.reason);
        rows.push(...item);
      }
    },
    encode: (row) => Buffer.from(format.encode(row)),
  };
}

const NUMBER_SIZES: Readonly<Record<string, number>> = { boolean: 1, tinyint: 1, smallint: 2, int: 4, bigint: 8, float: 4, double: 8 };

function rawMessageFormat(rowType: RowType, options: ReadonlyMap<string, OptionValue>): MessageFormat {
  const type = rowType.types[0];
  if (rowType.types.length !== 1 || type === undefined) {
    throw new SqlValidationError(`The 'raw' format supports only a single physical column; the message holds ${rowType.types.length}: ${rowType.names.join(", ")}.`);
  }
  const kind = type.kind;
  const text = kind === "char" || kind === "varchar";
  const bytes = kind === "binary" || kind === "varbinary";
  const size = NUMBER_SIZES[kind];
  if (!text && !bytes && size === undefined) {
    throw new SqlValidationError(`The 'raw' format supports a text, bytes, boolean or numeric column; '${rowType.names[0]}' is ${typeToString(type)}.`);
  }
  const charset = String(options.get("charset") ?? "UTF-8");
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    throw new SqlValidationError(`Invalid value for option 'raw.charset': '${charset}' is not a charset (e.g. 'UTF-8', 'ISO-8859-1').`);
  }
  if (text && decoder.encoding !== "utf-8" && decoder.encoding !== "windows-1252" && decoder.encoding !== "iso-8859-1") {
    throw new SqlValidationError(`The 'raw' format writes text in UTF-8 or ISO-8859-1; 'raw.charset' is '${charset}'.`);
  }
  const little = options.get("endianness") === "little-endian";
  const read = (b: Uint8Array): SqlValue => {
    if (text) return decoder.decode(b);
    if (bytes) return Uint8Array.from(b);
    if (b.length !== size) throw new FormatValueError(`a 'raw' ${typeToString(type)} value has ${size} bytes, the message has ${b.length}`);
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    switch (kind) {
      case "boolean":
        return v.getUint8(0) !== 0;
      case "tinyint":
        return v.getInt8(0);
      case "smallint":
        return v.getInt16(0, little);
      case "int":
        return v.getInt32(0, little);
      case "bigint":
        return bigintOf(v.getBigInt64(0, little));
      case "float":
        return v.getFloat32(0, little);
      default:
        return v.getFloat64(0, little);
    }
  };
  const write = (value: SqlValue): Uint8Array => {
    if (text) return decoder.encoding === "utf-8" ? Buffer.from(String(value), "utf8") : Buffer.from(String(value), "latin1");
    if (bytes) return value as Uint8Array;
    const out = new Uint8Array(size!);
    const v = new DataView(out.buffer);
    switch (kind) {
      case "boolean":
        v.setUint8(0, value === true ? 1 : 0);
        break;
      case "tinyint":
        v.setInt8(0, value as number);
        break;
      case "smallint":
        v.setInt16(0, value as number, little);
        break;
      case "int":
        v.setInt32(0, value as number, little);
        break;
      case "bigint":
        v.setBigInt64(0, toBigInt(value as BigintValue), little);
        break;
      case "float":
        v.setFloat32(0, value as number, little);
        break;
      default:
        v.setFloat64(0, value as number, little);
    }
    return out;
  };
  return {
    identifier: "raw",
    changelogMode: ChangelogMode.INSERT_ONLY,
    decode: (b) => [{ kind: RowKind.INSERT, fields: [read(b)] }],
    encode(row) {
      if (row.kind !== RowKind.INSERT) throw new FormatValueError(`the 'raw' format writes only inserts (+I), got ${row.kind}`);
      const value = row.fields[0] ?? null;
      return value === null ? null : write(value);
    },
  };
}
