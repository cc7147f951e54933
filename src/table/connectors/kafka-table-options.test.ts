/**
 * The `kafka` and `upsert-kafka` options are checked when a query reads or
 * writes the table, before anything runs: each wrong or contradicting option
 * is an error naming the table and the option.
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";

const BASE = "'properties.bootstrap.servers' = '127.0.0.1:9092'";

/** The error of planning `statement` after `CREATE TABLE t (id INT, name STRING, …) WITH (options)`, or "no error". */
function errorOf(options: string, statement = "SELECT * FROM t", columns = "id INT, name STRING"): string {
  const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 1 }));
  tEnv.executeSql("CREATE TABLE src (id INT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
  tEnv.executeSql(`CREATE TABLE t (${columns}) WITH (${options})`);
  try {
    tEnv.executeSql(`EXPLAIN ${statement}`);
  } catch (e) {
    return (e as Error).message;
  }
  return "no error";
}

const T = "Invalid options of table 'default_catalog.default_database.t': ";

describe("kafka table options", () => {
  it("accepts Flink's options, prefixed format options and pass-through properties", () => {
    expect(
      errorOf(
        `'connector' = 'kafka', 'topic' = 'a;b', ${BASE}, 'properties.group.id' = 'g', 'properties.fetch.max.bytes' = '1000',
         'scan.startup.mode' = 'timestamp', 'scan.startup.timestamp-millis' = '1700000000000', 'scan.bounded.mode' = 'latest-offset',
         'key.format' = 'csv', 'key.fields' = 'k_id', 'key.fields-prefix' = 'k_', 'key.csv.field-delimiter' = ';',
         'value.format' = 'json', 'value.json.ignore-parse-errors' = 'true', 'value.fields-include' = 'EXCEPT_KEY'`,
        "SELECT * FROM t",
        "k_id INT, name STRING",
      ),
    ).toBe("no error");
  });

  it("names an unknown option with the nearest one, and a format option without its prefix", () => {
    const e = errorOf(`'connector' = 'kafka', 'topic' = 'a', ${BASE}, 'format' = 'json', 'scan.startup.mod' = 'earliest-offset', 'ignore-parse-errors' = 'true'`);
    expect(e).toContain("Unable to create a source for reading table 'default_catalog.default_database.t'.");
    expect(e).toContain("scan.startup.mod (did you mean 'scan.startup.mode'?)");
    expect(e).toContain("ignore-parse-errors (did you mean 'json.ignore-parse-errors'?)");
  });

  it.each([
    ["'scan.startup.mode' = 'earliest'", "Invalid value for option 'scan.startup.mode': 'earliest' (expected one of 'earliest-offset', 'latest-offset', 'group-offsets', 'timestamp', 'specific-offsets')."],
    ["'topic-pattern' = 'a.*'", `${T}'topic' and 'topic-pattern' shouldn't be set together.`],
    ["'scan.startup.mode' = 'timestamp'", `${T}'scan.startup.timestamp-millis' is required when 'scan.startup.mode' is 'timestamp'.`],
    ["'scan.bounded.mode' = 'specific-offsets', 'scan.bounded.specific-offsets' = 'partition:0;offset:4'", `${T}'scan.bounded.specific-offsets' should follow the format 'partition:0,offset:42;partition:1,offset:300', but is 'partition:0;offset:4'.`],
    ["'key.format' = 'json'", `${T}'key.format' needs the key columns in 'key.fields'.`],
    ["'key.format' = 'json', 'key.fields' = 'nam'", `${T}could not find the field 'nam' of 'key.fields' in the table schema. A key field must be a physical column: id, name. Did you mean 'name'?`],
    ["'key.format' = 'json', 'key.fields' = 'id', 'key.fields-prefix' = 'k_'", `${T}a 'key.fields-prefix' is not allowed when 'value.fields-include' is 'ALL'; set it to 'EXCEPT_KEY' to avoid field overlaps.`],
    ["'key.format' = 'debezium-json', 'key.fields' = 'id'", `${T}the key format 'debezium-json' is a changelog format; a key format reads and writes inserts only.`],
    ["'value.format' = 'csv'", `${T}'format' and 'value.format' shouldn't be set together.`],
  ])("source: %s", (extra, message) => {
    expect(errorOf(`'connector' = 'kafka', 'topic' = 'a', ${BASE}, 'format' = 'json', ${extra}`)).toContain(message);
  });

  it.each([
    ["'sink.delivery-guarantee' = 'exactly-once'", `${T}'sink.delivery-guarantee' = 'exactly-once' needs a 'sink.transactional-id-prefix', unique to the job.`],
    ["'sink.partitioner' = 'round-robbin'", `${T}'sink.partitioner' must be 'default' or 'round-robin' ('fixed' and partitioner classes are not supported), but is 'round-robbin'. Did you mean 'round-robin'?`],
    ["'sink.parallelism' = '0'", `${T}'sink.parallelism' must be positive, but is 0.`],
  ])("sink: %s", (extra, message) => {
    expect(errorOf(`'connector' = 'kafka', 'topic' = 'a', ${BASE}, 'format' = 'json', ${extra}`, "INSERT INTO t SELECT * FROM src")).toContain(message);
  });

  it("a sink of an insert-only format refuses an updating query; a changelog format takes it", () => {
    const q = "INSERT INTO t SELECT id, MAX(name) FROM src GROUP BY id";
    expect(errorOf(`'connector' = 'kafka', 'topic' = 'a', ${BASE}, 'format' = 'json'`, q)).toMatch(/doesn't support consuming update changes/);
    expect(errorOf(`'connector' = 'kafka', 'topic' = 'a', ${BASE}, 'format' = 'debezium-json'`, q)).toBe("no error");
  });

  it("metadata columns: unknown keys and read-only keys are named", () => {
    const opts = `'connector' = 'kafka', 'topic' = 'a', ${BASE}, 'format' = 'json'`;
    expect(errorOf(opts, "SELECT * FROM t", "id INT, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamps'")).toContain(
      "Invalid metadata key 'timestamps' in column 'ts' of table 'default_catalog.default_database.t'. The connector supports the following metadata keys for reading: 'topic', 'partition', 'headers', 'offset', 'timestamp', 'timestamp-type'. Did you mean 'timestamp'?",
    );
    expect(errorOf(opts, "INSERT INTO t SELECT id, CAST(7 AS BIGINT) FROM src", "id INT, `offset` BIGINT METADATA")).toContain(
      "Invalid metadata key 'offset' in column 'offset' of table 'default_catalog.default_database.t'. The connector supports the following metadata keys for writing: 'topic', 'headers', 'timestamp'.",
    );
    expect(errorOf(opts, "INSERT INTO t SELECT id FROM src", "id INT, `offset` BIGINT METADATA VIRTUAL")).toBe("no error");
  });

  it("upsert-kafka needs a primary key, a key format and an insert-only value format", () => {
    const opts = `'connector' = 'upsert-kafka', 'topic' = 'a', ${BASE}, 'key.format' = 'json', 'value.format' = 'json'`;
    expect(errorOf(opts)).toContain(`${T}'upsert-kafka' tables require a PRIMARY KEY constraint`);
    expect(errorOf(opts, "SELECT * FROM t", "id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED")).toBe("no error");
    expect(errorOf(`'connector' = 'upsert-kafka', 'topic' = 'a', ${BASE}, 'key.format' = 'json', 'value.format' = 'canal-json'`, "SELECT * FROM t", "id INT, PRIMARY KEY (id) NOT ENFORCED")).toContain(
      "'upsert-kafka' doesn't support the value format 'canal-json'",
    );
    expect(errorOf(`'connector' = 'upsert-kafka', 'topic' = 'a', ${BASE}, 'key.format' = 'json', 'format' = 'json'`, "SELECT * FROM t", "id INT, PRIMARY KEY (id) NOT ENFORCED")).toContain(
      "Unsupported options found for 'upsert-kafka'",
    );
  });
});
