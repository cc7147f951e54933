import { describe, expect, it } from "vitest";
import type { StatementOf } from "../sql/ast.ts";
import { parseStatement } from "../sql/parser.ts";
import { tableFactoryRegistry } from "../connectors/table-factory-registry.ts";
import type { ValidatedTableOptions } from "./factory-options.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

/** Validates the WITH options of a CREATE TABLE statement. */
function validate(ddl: string): ValidatedTableOptions {
  const s = parseStatement(ddl) as StatementOf<"createTable">;
  return tableFactoryRegistry().validate(new Map(s.options.map((o) => [o.key, o.value])));
}

function errorOf(ddl: string): string {
  try {
    validate(ddl);
  } catch (e) {
    if (e instanceof SqlValidationError) return e.message;
    throw e;
  }
  throw new Error(`no error for ${ddl}`);
}

const FILESYSTEM_SUPPORTED = `connector
format
json.encode.decimal-as-plain-number
json.encode.ignore-null-fields
json.fail-on-missing-field
json.ignore-parse-errors
json.map-null-key.literal
json.map-null-key.mode
json.timestamp-format.standard
partition.default-name
partition.time-extractor.timestamp-formatter
partition.time-extractor.timestamp-pattern
path
scan.watermark.alignment.group
scan.watermark.alignment.max-drift
scan.watermark.alignment.update-interval
sink.parallelism
sink.partition-commit.delay
sink.partition-commit.policy.kind
sink.partition-commit.success-file.name
sink.partition-commit.trigger
sink.partition-commit.watermark-time-zone
sink.rolling-policy.check-interval
sink.rolling-policy.file-size
sink.rolling-policy.inactivity-interval
sink.rolling-policy.rollover-interval
sink.shuffle-by-partition.enable
source.monitor-interval`;

describe("connector option validation", () => {
  it("reads the issue's filesystem table with defaults filled in, format options unprefixed", () => {
    const v = validate(`CREATE TABLE clicks (user STRING) WITH ('connector' = 'filesystem', 'path' = 'clicks/', 'format' = 'json',
      'source.monitor-interval' = '1 s', 'json.ignore-parse-errors' = 'true', 'sink.rolling-policy.file-size' = '1 mb')`);
    expect(v.connector).toBe("filesystem");
    expect(Object.fromEntries(v.options)).toEqual({
      path: "clicks/",
      format: "json",
      "source.monitor-interval": 1_000,
      "sink.rolling-policy.file-size": 1024 * 1024,
      "sink.rolling-policy.rollover-interval": 1_800_000,
      "sink.rolling-policy.inactivity-interval": 1_800_000,
      "sink.rolling-policy.check-interval": 60_000,
      "partition.default-name": "__DEFAULT_PARTITION__",
      "sink.partition-commit.trigger": "process-time",
      "sink.partition-commit.delay": 0,
      "sink.partition-commit.watermark-time-zone": "UTC",
      "sink.partition-commit.success-file.name": "_SUCCESS",
      "sink.shuffle-by-partition.enable": false,
    });
    expect(v.format?.identifier).toBe("json");
    expect(Object.fromEntries(v.format!.options)).toEqual({
      "ignore-parse-errors": true,
      "fail-on-missing-field": false,
      "timestamp-format.standard": "SQL",
      "map-null-key.mode": "FAIL",
      "map-null-key.literal": "null",
      "encode.decimal-as-plain-number": false,
      "encode.ignore-null-fields": false,
    });
  });

  it("lists unsupported options with the supported ones, as Flink does, suggesting the nearest key", () => {
    expect(
      errorOf(`CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json',
        'sink.rolling-policy.file-sise' = '1 mb', 'csv.field-delimiter' = ';', 'zzz' = '1')`),
    ).toBe(
      `Unsupported options found for 'filesystem'.

Unsupported options:

csv.field-delimiter
sink.rolling-policy.file-sise (did you mean 'sink.rolling-policy.file-size'?)
zzz

Supported options:

${FILESYSTEM_SUPPORTED}`,
    );
  });

  it("lists missing required options", () => {
    expect(errorOf("CREATE TABLE t (a INT) WITH ('connector' = 'filesystem')")).toBe(
      "One or more required options are missing.\n\nMissing required options are:\n\nformat\npath",
    );
  });

  it("names an invalid value, its option and what was expected", () => {
    expect(errorOf("CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'csv', 'source.monitor-interval' = '1 fortnight')")).toBe(
      "Invalid value for option 'source.monitor-interval': '1 fortnight' (expected a duration such as '1 s', '500 ms' or '1 min').",
    );
    expect(errorOf("CREATE TABLE t (a INT) WITH ('connector' = 'print', 'standard-error' = 'yes')")).toBe(
      "Invalid value for option 'standard-error': 'yes' (expected 'true' or 'false').",
    );
    expect(errorOf("CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json', 'json.timestamp-format.standard' = 'RFC')")).toBe(
      "Invalid value for option 'json.timestamp-format.standard': 'RFC' (expected one of 'SQL', 'ISO-8601').",
    );
  });

  it("reports a missing or unknown connector or format with the available identifiers", () => {
    expect(errorOf("CREATE TABLE t (a INT) WITH ('path' = 'p')")).toBe(
      "Table options do not contain an option key 'connector' for discovering a connector.",
    );
    expect(errorOf("CREATE TABLE t (a INT) WITH ('connector' = 'fliesystem')")).toBe(
      "Could not find any factory for identifier 'fliesystem' that implements 'DynamicTableFactory'. Did you mean 'filesystem'?\n\nAvailable factory identifiers are:\n\nblackhole\ndatagen\nfilesystem\njdbc\nkafka\nnexmark\npostgres-cdc\nprint\nupsert-kafka",
    );
    expect(errorOf("CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'avro')")).toBe(
      "Could not find any factory for identifier 'avro' that implements 'DeserializationFormatFactory'.\n\nAvailable factory identifiers are:\n\ncanal-json\ncsv\ndebezium-json\njson\nraw",
    );
  });

  it("reads csv and debezium-json format options by their prefix", () => {
    const csv = validate("CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'csv', 'csv.field-delimiter' = ';', 'csv.null-literal' = 'N/A')");
    expect(csv.format?.options.get("field-delimiter")).toBe(";");
    expect(csv.format?.options.get("null-literal")).toBe("N/A");
    expect(csv.format?.options.get("quote-character")).toBe('"');
    const dbz = validate("CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'debezium-json', 'debezium-json.schema-include' = 'true')");
    expect(dbz.format).toMatchObject({ identifier: "debezium-json" });
    expect(dbz.format?.options.get("schema-include")).toBe(true);
    expect(errorOf("CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'debezium-json', 'json.ignore-parse-errors' = 'true')")).toContain(
      "Unsupported options:\n\njson.ignore-parse-errors\n",
    );
  });

  it("reads datagen's pattern keys per field, and rejects keys the patterns do not cover", () => {
    const v = validate(`CREATE TABLE g (id BIGINT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '100',
      'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100', 'fields.name.length' = '8', 'fields.name.null-rate' = '0.1')`);
    expect(Object.fromEntries(v.options)).toEqual({
      "number-of-rows": 100,
      "rows-per-second": 10_000,
      "fields.id.kind": "sequence",
      "fields.id.start": "1",
      "fields.id.end": "100",
      "fields.name.length": 8,
      "fields.name.null-rate": 0.1,
    });
    expect(v.format).toBeUndefined();
    expect(errorOf("CREATE TABLE g (id INT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'constant')")).toBe(
      "Invalid value for option 'fields.id.kind': 'constant' (expected one of 'random', 'sequence').",
    );
    expect(errorOf("CREATE TABLE g (id INT) WITH ('connector' = 'datagen', 'fields.id.lenght' = '3')")).toContain(
      "Unsupported options:\n\nfields.id.lenght (did you mean 'fields.id.length'?)\n",
    );
  });

  it("accepts print and blackhole, whose format-less options include no format keys", () => {
    expect(Object.fromEntries(validate("CREATE TABLE p (a INT) WITH ('connector' = 'print', 'print-identifier' = 'out')").options)).toEqual({
      "print-identifier": "out",
      "standard-error": false,
    });
    expect(validate("CREATE TABLE b (a INT) WITH ('connector' = 'blackhole')").options.size).toBe(0);
    expect(errorOf("CREATE TABLE b (a INT) WITH ('connector' = 'blackhole', 'format' = 'json')")).toBe(
      "Unsupported options found for 'blackhole'.\n\nUnsupported options:\n\nformat\n\nSupported options:\n\nconnector",
    );
  });
});
