/**
 * The `raw` format: a table of a single STRING (CHAR, VARCHAR) or BYTES
 * (BINARY, VARBINARY) column whose value is a whole record, as is (Flink's
 * `raw`). In files a record is a line, as Flink's filesystem connector cuts
 * them: each line (without its terminator; blank lines included) is a row.
 * Insert-only.
 *
 * - `raw.charset` (`UTF-8`): the charset of a STRING column's text. Reading
 *   takes any ASCII-compatible charset (`ISO-8859-1`, `US-ASCII`,
 *   `windows-1252`, …); the `filesystem` sink writes UTF-8 only.
 * - `raw.endianness` (`big-endian`): accepted for Flink's DDL; it applies to
 *   Flink's numeric raw columns, which a line-based file cannot hold, so Weir
 *   refuses numeric columns.
 *
 * A BYTES column reads the line's bytes. Writing: a NULL value is an empty
 * line (read back as an empty value), a value holding a line break fails the
 * job naming the table, and BYTES are refused by the sink (it writes text).
 *
 * @example
 * ```sql
 * CREATE TABLE logs (line STRING) WITH ('connector' = 'filesystem', 'path' = 'logs/', 'format' = 'raw');
 * SELECT line FROM logs WHERE line LIKE '%ERROR%';
 * ```
 */
import { lineFormat } from "../../connectors/file/record-format.ts";
import type { OptionValue } from "../../config/config-option.ts";
import { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import { typeToString, type RowType } from "../expr/type-rules.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { FormatValueError } from "./format-value-error.ts";
import type { TableFormat } from "./table-format.ts";

/** A charset as a `TextDecoder` label, refusing those a line reader cannot cut (UTF-16, UTF-32). */
function decoderOf(charset: string): TextDecoder {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    throw new SqlValidationError(`Invalid value for option 'raw.charset': '${charset}' is not a charset (e.g. 'UTF-8', 'ISO-8859-1', 'US-ASCII').`);
  }
  if (/^utf-(16|32)/.test(decoder.encoding)) {
    throw new SqlValidationError(`Invalid value for option 'raw.charset': '${charset}' is not ASCII-compatible; files of the 'raw' format are read line by line.`);
  }
  return decoder;
}

/**
 * The `raw` format of a table with physical row type `rowType`.
 *
 * @throws {SqlValidationError} for a table of more than one column, a column that is neither text nor bytes, or an unknown charset
 * @example
 * ```ts
 * rawFormat({ names: ["line"], types: [{ kind: "varchar", length: 2147483647, nullable: true }] }, new Map()).encode(Row.of("GET /")); // "GET /"
 * ```
 */
export function rawFormat(rowType: RowType, options: ReadonlyMap<string, OptionValue>): TableFormat {
  const type = rowType.types[0];
  if (rowType.types.length !== 1 || type === undefined) {
    throw new SqlValidationError(`The 'raw' format supports only a single physical column; the table has ${rowType.types.length}: ${rowType.names.join(", ")}.`);
  }
  const bytes = ["binary", "varbinary"].includes(type.kind);
  if (!bytes && !["char", "varchar"].includes(type.kind)) {
    throw new SqlValidationError(
      `The 'raw' format in files supports a STRING, CHAR, VARCHAR, BYTES, BINARY or VARBINARY column; '${rowType.names[0]}' is ${typeToString(type)}.`,
    );
  }
  const decoder = decoderOf(String(options.get("charset") ?? "UTF-8"));
  const utf8 = decoder.encoding === "utf-8";
  const toRow = (fields: Row["fields"]): Row[] => [{ kind: RowKind.INSERT, fields }];
  const records = bytes
    ? lineFormat(false, (line) => toRow([Uint8Array.from(Buffer.from(line, "latin1"))]), "latin1")
    : utf8
      ? lineFormat(false, (line) => toRow([line]))
      : lineFormat(false, (line) => toRow([decoder.decode(Buffer.from(line, "latin1"))]), "latin1");
  return {
    identifier: "raw",
    changelogMode: ChangelogMode.INSERT_ONLY,
    records,
    encode(row) {
      if (row.kind !== RowKind.INSERT) throw new FormatValueError(`the 'raw' format writes only inserts (+I), got ${Row.toString(row)}`);
      const v = row.fields[0] ?? null;
      if (v === null) return "";
      const text = String(v);
      if (/[\r\n]/.test(text)) throw new FormatValueError(`a 'raw' value holding a line break cannot be written as a line: ${JSON.stringify(text.slice(0, 60))}`);
      return text;
    },
  };
}
