/**
 * The `json` format: one JSON object per line, a field per column by name
 * (Flink's `json` format; values as `json-value-codec.ts` maps them).
 * Insert-only: it reads `+I` rows and writes only `+I` rows.
 *
 * Options (with the `json.` prefix in a table's `WITH`):
 * - `fail-on-missing-field` (false): a missing field is an error instead of NULL;
 * - `ignore-parse-errors` (false): a line that is not a JSON object is skipped,
 *   and a field that does not read as its type is NULL (as in Flink);
 * - `timestamp-format.standard` (`SQL`): `SQL` `yyyy-MM-dd HH:mm:ss[.fff]` or
 *   `ISO-8601` `yyyy-MM-ddTHH:mm:ss[.fff]`;
 * - `map-null-key.mode` (`FAIL`, `DROP`, `LITERAL`) and `map-null-key.literal`;
 * - `encode.decimal-as-plain-number` (false): `1E-10` or `0.0000000001`;
 * - `encode.ignore-null-fields` (false): omit NULL fields.
 *
 * Without `ignore-parse-errors`, a malformed line fails the job with a
 * `FileSourceParseError`: `in/clicks.json:7: field 'ts': cannot read "noon" as
 * TIMESTAMP(3) (expected a timestamp yyyy-MM-dd HH:mm:ss[.fff] …): {…}`, or
 * `in/clicks.json:9: invalid JSON at column 14: expected ',' or '}' in an object: {…}`.
 *
 * @example
 * ```sql
 * CREATE TABLE clicks (`user` STRING, url STRING, ts TIMESTAMP(3), price DECIMAL(38, 10))
 * WITH ('connector' = 'filesystem', 'path' = 'clicks/', 'format' = 'json',
 *       'json.timestamp-format.standard' = 'ISO-8601');
 * -- clicks/part-0: {"user":"Mary","url":"./home","ts":"2020-04-15T08:05:00","price":12345678901234567890.0123456789}
 * ```
 */
import { lineFormat, MalformedRecordError, skipMalformed } from "../../connectors/file/record-format.ts";
import type { OptionValue } from "../../config/config-option.ts";
import { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { RowType } from "../expr/type-rules.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { FormatValueError } from "./format-value-error.ts";
import { JsonSyntaxError, parseJsonText, type JsonNode } from "./json-text.ts";
import { jsonRowReader, jsonRowWriter, type JsonCodecOptions } from "./json-value-codec.ts";
import type { TableFormat } from "./table-format.ts";
import type { TimestampStandard } from "./temporal-text.ts";

/** The codec options of the `json` or `debezium-json` format from its validated options. */
export function jsonCodecOptions(formatName: string, options: ReadonlyMap<string, OptionValue>): JsonCodecOptions {
  const failOnMissingField = options.get("fail-on-missing-field") === true;
  const ignoreParseErrors = options.get("ignore-parse-errors") === true;
  if (failOnMissingField && ignoreParseErrors) {
    throw new SqlValidationError(`fail-on-missing-field and ignore-parse-errors shouldn't both be true (format '${formatName}').`);
  }
  return {
    formatName,
    failOnMissingField,
    nullOnFieldError: ignoreParseErrors,
    timestampStandard: (options.get("timestamp-format.standard") ?? "SQL") as TimestampStandard,
    decimalPlain: options.get("encode.decimal-as-plain-number") === true,
    mapNullKeyMode: (options.get("map-null-key.mode") ?? "FAIL") as JsonCodecOptions["mapNullKeyMode"],
    mapNullKeyLiteral: String(options.get("map-null-key.literal") ?? "null"),
    ignoreNullFields: options.get("encode.ignore-null-fields") === true,
  };
}

/** Parses one line as JSON; a syntax error becomes a malformed record. */
export function parseJsonLine(line: string): JsonNode {
  try {
    return parseJsonText(line);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new MalformedRecordError(e.message);
    throw e;
  }
}

/** Runs `read`; a value that does not read as its type becomes a malformed record. */
export function readOrMalformed<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof FormatValueError) throw new MalformedRecordError(e.message);
    throw e;
  }
}

/**
 * The `json` format of a table with physical row type `rowType`.
 *
 * @throws {SqlValidationError} for contradicting options or a column type JSON cannot hold (INTERVAL, MULTISET)
 * @example
 * ```ts
 * const f = jsonFormat(rowType, validated.format!.options);
 * f.encode(Row.of("Mary", 1n)); // '{"user":"Mary","cnt":1}'
 * ```
 */
export function jsonFormat(rowType: RowType, options: ReadonlyMap<string, OptionValue>, projection?: readonly number[]): TableFormat {
  const o = jsonCodecOptions("json", options);
  const read = jsonRowReader(rowType, o, projection);
  const write = jsonRowWriter(rowType, o);
  const lines = lineFormat(true, (line): Row[] => {
    const node = parseJsonLine(line);
    return [{ kind: RowKind.INSERT, fields: readOrMalformed(() => read(node)) }];
  });
  return {
    identifier: "json",
    changelogMode: ChangelogMode.INSERT_ONLY,
    records: o.nullOnFieldError ? skipMalformed(lines) : lines,
    encode(row) {
      if (row.kind !== RowKind.INSERT) throw new FormatValueError(`the 'json' format writes only inserts (+I), got ${Row.toString(row)}`);
      return write(row.fields);
    },
  };
}
