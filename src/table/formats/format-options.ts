/**
 * The option declarations of the built-in formats (`json`, `csv`,
 * `debezium-json`, `canal-json`, `raw`), with Flink's keys and defaults.
 * (Each connector declares its own options in its factory.)
 */
import { option } from "../../config/config-option.ts";
import type { FactoryOptions } from "../catalog/factory-options.ts";

const timestampStandard = ["SQL", "ISO-8601"] as const;
const mapNullKeyModes = ["FAIL", "DROP", "LITERAL"] as const;

/** `json`: one JSON object per line. */
export const JSON_FORMAT: FactoryOptions = {
  identifier: "json",
  kind: "format",
  requiredOptions: [],
  optionalOptions: [
    option("fail-on-missing-field", { kind: "boolean" }, "Fail when a field is missing instead of reading NULL.", false),
    option("ignore-parse-errors", { kind: "boolean" }, "Skip lines that do not parse instead of failing.", false),
    option("timestamp-format.standard", { kind: "enum", values: timestampStandard }, "The text format of timestamps.", "SQL"),
    option("map-null-key.mode", { kind: "enum", values: mapNullKeyModes }, "What to do with a NULL map key when writing.", "FAIL"),
    option("map-null-key.literal", { kind: "string" }, "The key written for a NULL map key in LITERAL mode.", "null"),
    option("encode.decimal-as-plain-number", { kind: "boolean" }, "Write decimals without scientific notation.", false),
    option("encode.ignore-null-fields", { kind: "boolean" }, "Omit fields whose value is NULL when writing.", false),
  ],
};

/** `csv`: RFC 4180 lines. */
export const CSV_FORMAT: FactoryOptions = {
  identifier: "csv",
  kind: "format",
  requiredOptions: [],
  optionalOptions: [
    option("field-delimiter", { kind: "string" }, "The field delimiter character.", ","),
    option("disable-quote-character", { kind: "boolean" }, "Do not quote fields.", false),
    option("quote-character", { kind: "string" }, "The quote character.", '"'),
    option("allow-comments", { kind: "boolean" }, "Skip lines starting with '#'.", false),
    option("ignore-parse-errors", { kind: "boolean" }, "Skip lines that do not parse instead of failing.", false),
    option("array-element-delimiter", { kind: "string" }, "The delimiter of array elements.", ";"),
    option("escape-character", { kind: "string" }, "The escape character; none when unset."),
    option("null-literal", { kind: "string" }, "The text read and written as NULL; none when unset."),
    option("write-bigdecimal-in-scientific-notation", { kind: "boolean" }, "Write decimals in scientific notation.", true),
  ],
};

/** `debezium-json`: changelogs as Debezium's `op`/`before`/`after` JSON. */
export const DEBEZIUM_JSON_FORMAT: FactoryOptions = {
  identifier: "debezium-json",
  kind: "format",
  requiredOptions: [],
  optionalOptions: [
    option("schema-include", { kind: "boolean" }, "The records carry Debezium's schema envelope.", false),
    option("ignore-parse-errors", { kind: "boolean" }, "Skip lines that do not parse instead of failing.", false),
    option("timestamp-format.standard", { kind: "enum", values: timestampStandard }, "The text format of timestamps.", "SQL"),
    option("map-null-key.mode", { kind: "enum", values: mapNullKeyModes }, "What to do with a NULL map key when writing.", "FAIL"),
    option("map-null-key.literal", { kind: "string" }, "The key written for a NULL map key in LITERAL mode.", "null"),
    option("encode.decimal-as-plain-number", { kind: "boolean" }, "Write decimals without scientific notation.", false),
  ],
};

/** `canal-json`: changelogs as Canal's `data`/`old`/`type` JSON. */
export const CANAL_JSON_FORMAT: FactoryOptions = {
  identifier: "canal-json",
  kind: "format",
  requiredOptions: [],
  optionalOptions: [
    option("ignore-parse-errors", { kind: "boolean" }, "Skip lines that do not parse instead of failing.", false),
    option("timestamp-format.standard", { kind: "enum", values: timestampStandard }, "The text format of timestamps.", "SQL"),
    option("map-null-key.mode", { kind: "enum", values: mapNullKeyModes }, "What to do with a NULL map key when writing.", "FAIL"),
    option("map-null-key.literal", { kind: "string" }, "The key written for a NULL map key in LITERAL mode.", "null"),
    option("encode.decimal-as-plain-number", { kind: "boolean" }, "Write decimals without scientific notation.", false),
    option("database.include", { kind: "string" }, "Read only the messages whose 'database' matches this regular expression."),
    option("table.include", { kind: "string" }, "Read only the messages whose 'table' matches this regular expression."),
  ],
};

/** `raw`: a single STRING or BYTES column holding the whole record. */
export const RAW_FORMAT: FactoryOptions = {
  identifier: "raw",
  kind: "format",
  requiredOptions: [],
  optionalOptions: [
    option("charset", { kind: "string" }, "The charset of the text.", "UTF-8"),
    option("endianness", { kind: "enum", values: ["big-endian", "little-endian"] }, "The byte order of numeric values.", "big-endian"),
  ],
};

/** Every built-in format's declaration. */
export const BUILTIN_FORMATS: readonly FactoryOptions[] = [JSON_FORMAT, CSV_FORMAT, DEBEZIUM_JSON_FORMAT, CANAL_JSON_FORMAT, RAW_FORMAT];
