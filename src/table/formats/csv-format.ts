/**
 * The `csv` format: one RFC 4180 record per row, fields in column order, no
 * header (Flink's `csv` format), parsed by the file connector's CSV parser
 * (`src/connectors/file/csv-record-parser.ts`: a quoted field may hold the
 * delimiter, `""` and line breaks). Insert-only.
 *
 * Values: as text (see `scalar-text.ts`: exact BIGINT and DECIMAL, doubles as
 * Java prints them, `yyyy-MM-dd HH:mm:ss[.fff]` timestamps, base64 bytes);
 * an ARRAY of scalars as its elements joined by `array-element-delimiter`.
 * NULL: the `null-literal` text when set; otherwise an empty field, which
 * reads as NULL for every type but strings and bytes (an empty STRING field is `''`).
 * An empty ARRAY is an empty field too (NULL without a `null-literal`).
 * ROW and MAP columns are not supported (as in Flink's CSV for MAP).
 *
 * Options (with the `csv.` prefix in a table's `WITH`): `field-delimiter`
 * (`,`; `\t` for a tab), `null-literal`, `allow-comments` (skip lines
 * starting with `#`), `ignore-parse-errors` (skip records that do not parse
 * or have the wrong number of fields; a field that does not read as its type
 * is NULL, as in Flink), `array-element-delimiter` (`;`),
 * `write-bigdecimal-in-scientific-notation` (true: `1E-10`). The quote is
 * always `"`: other `quote-character`s, `disable-quote-character` and
 * `escape-character` are refused.
 *
 * @example
 * ```sql
 * CREATE TABLE orders (id BIGINT, amount DECIMAL(12, 2), note STRING)
 * WITH ('connector' = 'filesystem', 'path' = 'orders.csv', 'format' = 'csv',
 *       'csv.field-delimiter' = ';', 'csv.null-literal' = '\N');
 * -- orders.csv: 1;12.50;"first; with a delimiter"
 * ```
 */
import { csvFieldsFormat } from "../../connectors/file/csv-format.ts";
import { csvField } from "../../connectors/file/file-sink-encoder.ts";
import { MalformedRecordError, skipMalformed } from "../../connectors/file/record-format.ts";
import type { OptionValue } from "../../config/config-option.ts";
import { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import { typeToString, type RowType } from "../expr/type-rules.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import type { LogicalType } from "../types/logical-type.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { FormatValueError } from "./format-value-error.ts";
import { isScalarType, scalarReader, scalarWriter, type ScalarTextOptions } from "./scalar-text.ts";
import type { TableFormat } from "./table-format.ts";

/** A delimiter option's text with `\t` (and `\\`) read as Flink reads them. */
function unescape(text: string): string {
  return text.replace(/\\(t|\\)/g, (_m, c: string) => (c === "t" ? "\t" : "\\"));
}

interface ColumnCodec {
  read(text: string): SqlValue;
  write(v: SqlValue): string;
}

/**
 * The `csv` format of a table with physical row type `rowType`.
 *
 * @throws {SqlValidationError} for unsupported options or column types (ROW, MAP, MULTISET, INTERVAL)
 * @example
 * ```ts
 * csvFormat(rowType, new Map([["field-delimiter", ";"]])).encode(Row.of("a;b", 1n)); // '"a;b";1'
 * ```
 */
export function csvFormat(rowType: RowType, options: ReadonlyMap<string, OptionValue>, projection?: readonly number[]): TableFormat {
  if (options.get("quote-character") !== undefined && options.get("quote-character") !== '"') {
    throw new SqlValidationError(`The 'csv' format supports only '"' as 'csv.quote-character'.`);
  }
  if (options.get("disable-quote-character") === true) throw new SqlValidationError("The 'csv' format does not support 'csv.disable-quote-character'.");
  if (options.get("escape-character") !== undefined) throw new SqlValidationError("The 'csv' format does not support 'csv.escape-character'.");
  const delimiter = unescape(String(options.get("field-delimiter") ?? ","));
  if (delimiter.length !== 1 || /["\r\n]/.test(delimiter)) {
    throw new SqlValidationError(`'csv.field-delimiter' must be a single character other than a quote or a line break, got ${JSON.stringify(delimiter)}.`);
  }
  const elementDelimiter = unescape(String(options.get("array-element-delimiter") ?? ";"));
  const nullLiteral = options.get("null-literal") as string | undefined;
  const ignoreParseErrors = options.get("ignore-parse-errors") === true;
  const scalar: ScalarTextOptions = { timestampStandard: "SQL", decimalPlain: options.get("write-bigdecimal-in-scientific-notation") === false };
  const nullText = nullLiteral ?? "";

  const codecOf = (t: LogicalType, column: string): ColumnCodec => {
    const isText = ["char", "varchar", "binary", "varbinary"].includes(t.kind);
    if (t.kind === "array" && isScalarType(t.element)) {
      const element = codecOf(t.element, column);
      return {
        // an empty field is an empty array when NULL has its own literal, else NULL
        read: (text) => (text === "" ? (nullLiteral === undefined ? null : []) : text.split(elementDelimiter).map((e) => (e === nullLiteral ? null : element.read(e)))),
        write: (v) => (v as SqlValue[]).map((e) => (e === null ? nullText : element.write(e))).join(elementDelimiter),
      };
    }
    if (!isScalarType(t)) throw new SqlValidationError(`The 'csv' format does not support the type ${typeToString(t)} (column '${column}').`);
    const read = scalarReader(t, scalar);
    return {
      read: isText ? read : (text) => (text === "" ? null : read(text)),
      write: scalarWriter(t, scalar),
    };
  };
  const codecs = rowType.names.map((name, i) => codecOf(rowType.types[i]!, name));
  const width = codecs.length;
  const read = projection === undefined ? undefined : new Set(projection);

  const convert = (fields: string[]): Row[] => {
    const values: SqlValue[] = new Array(width);
    for (let i = 0; i < width; i++) {
      const text = fields[i]!;
      if (read !== undefined && !read.has(i)) {
        values[i] = null; // a column the query does not read (projection push-down)
        continue;
      }
      if (text === nullLiteral) {
        values[i] = null;
        continue;
      }
      try {
        values[i] = codecs[i]!.read(text);
      } catch (e) {
        if (!(e instanceof FormatValueError)) throw e;
        if (!ignoreParseErrors) throw new MalformedRecordError(`column ${i + 1} ('${rowType.names[i]}'): ${e.problem}`);
        values[i] = null;
      }
    }
    return [{ kind: RowKind.INSERT, fields: values }];
  };
  const records = csvFieldsFormat({ delimiter, width, comments: options.get("allow-comments") === true, convert });
  return {
    identifier: "csv",
    changelogMode: ChangelogMode.INSERT_ONLY,
    records: ignoreParseErrors ? skipMalformed(records) : records,
    encode(row) {
      if (row.kind !== RowKind.INSERT) throw new FormatValueError(`the 'csv' format writes only inserts (+I), got ${Row.toString(row)}`);
      let line = "";
      for (let i = 0; i < width; i++) {
        const v = row.fields[i] ?? null;
        const text = v === null ? nullText : codecs[i]!.write(v);
        // a first field starting with '#' is quoted: it must not read as a comment
        line += i === 0 ? (text.startsWith("#") ? `"${text.replaceAll('"', '""')}"` : csvField(text, delimiter)) : delimiter + csvField(text, delimiter);
      }
      // one empty field would be a blank line, which holds no record
      return line === "" && width === 1 ? '""' : line;
    },
  };
}
