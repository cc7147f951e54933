/**
 * Every connector and format validates its options when a query reads or
 * writes the table: an unknown option or a missing required one is an error
 * naming the table and the option and listing the valid ones; a query whose
 * changes a sink cannot take is refused before the job starts.
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";

/** The error of planning `statement` after `createTable` (and a source table `src`), or "no error". */
function errorOf(createTable: string, statement: string): string {
  const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 1 }));
  tEnv.executeSql("CREATE TABLE src (a INT, b STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
  tEnv.executeSql(createTable);
  try {
    tEnv.executeSql(`EXPLAIN ${statement}`);
  } catch (e) {
    return (e as Error).message;
  }
  return "no error";
}

const SINK = "Unable to create a sink for writing table 'default_catalog.default_database.t'.\n\n";

describe("connector and format options", () => {
  it("print: unknown options are listed with the supported ones", () => {
    expect(errorOf("CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'print', 'print-identifer' = 'x')", "INSERT INTO t SELECT * FROM src")).toBe(
      `${SINK}Unsupported options found for 'print'.\n\nUnsupported options:\n\nprint-identifer (did you mean 'print-identifier'?)\n\nSupported options:\n\nconnector\nprint-identifier\nsink.parallelism\nstandard-error`,
    );
  });

  it("blackhole takes no option but the connector", () => {
    expect(errorOf("CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'blackhole', 'path' = 'x')", "INSERT INTO t SELECT * FROM src")).toBe(
      `${SINK}Unsupported options found for 'blackhole'.\n\nUnsupported options:\n\npath\n\nSupported options:\n\nconnector`,
    );
  });

  it("filesystem: missing required options, as a source and as a sink", () => {
    expect(errorOf("CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'filesystem', 'format' = 'json')", "SELECT * FROM t")).toBe(
      "Unable to create a source for reading table 'default_catalog.default_database.t'.\n\nOne or more required options are missing.\n\nMissing required options are:\n\npath",
    );
    expect(errorOf("CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/x')", "INSERT INTO t SELECT * FROM src")).toBe(
      `${SINK}One or more required options are missing.\n\nMissing required options are:\n\nformat`,
    );
  });

  it("formats: an unknown format option lists the format's options; another format's options are unknown too", () => {
    const canal = errorOf(
      "CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'format' = 'canal-json', 'canal-json.ignore-parse-error' = 'true', 'json.fail-on-missing-field' = 'true')",
      "SELECT * FROM t",
    );
    expect(canal).toContain("Unsupported options found for 'filesystem'.\n\nUnsupported options:\n\ncanal-json.ignore-parse-error (did you mean 'canal-json.ignore-parse-errors'?)\njson.fail-on-missing-field\n\nSupported options:\n\ncanal-json.database.include\n");
    const raw = errorOf("CREATE TABLE t (s STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'format' = 'raw', 'raw.encoding' = 'UTF-8')", "SELECT * FROM t");
    expect(raw).toContain("raw.encoding\n\nSupported options:\n\nconnector\nformat\npartition.default-name");
    expect(raw).toContain("raw.charset\nraw.endianness\n");
    const csv = errorOf("CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'format' = 'csv', 'csv.delimiter' = ';')", "SELECT * FROM t");
    expect(csv).toContain("Unsupported options:\n\ncsv.delimiter\n\nSupported options:");
    expect(csv).toContain("\ncsv.field-delimiter\n");
  });

  it("an updating query into an insert-only format is refused with Flink's message; debezium-json and canal-json take it", () => {
    const json = errorOf(
      "CREATE TABLE t (b STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'format' = 'json')",
      "INSERT INTO t SELECT b, COUNT(*) FROM src GROUP BY b",
    );
    expect(json).toContain("Table sink 'default_catalog.default_database.t' doesn't support consuming update changes which is produced by node GroupAggregate(");
    for (const format of ["debezium-json", "canal-json"]) {
      expect(
        errorOf(
          `CREATE TABLE t (b STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'format' = '${format}')`,
          "INSERT INTO t SELECT b, COUNT(*) FROM src GROUP BY b",
        ),
      ).toBe("no error");
    }
  });
});
