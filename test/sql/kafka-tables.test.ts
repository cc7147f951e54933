/**
 * The `kafka` and `upsert-kafka` tables against a real broker: a bounded
 * read with metadata columns, a write with key and metadata, and an upsert
 * round trip with tombstones. The statement set under kills is in
 * kafka-statement-set-kill-loop.long.test.ts (npm run test:long).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { sharedKafkaBroker, type SharedKafkaBroker } from "../support/shared-kafka.ts";
import { createTopic, produceRecords, readTopic, type StoredRecord } from "../support/kafka-topics.ts";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { MultisetTable } from "../../src/table/data/changelog.ts";
import { Row } from "../../src/table/data/row.ts";

let broker: SharedKafkaBroker;
beforeAll(async () => {
  broker = await sharedKafkaBroker();
}, 60_000);

function tableEnv(): StreamTableEnvironment {
  const env = StreamExecutionEnvironment.create({ parallelism: 2 });
  env.enableCheckpointing(200);
  return StreamTableEnvironment.create(env);
}

/** The WITH options of a `kafka` table on `topic` (the file's own name for it on the shared broker). */
const kafka = (topic: string, more: string) => `'connector' = 'kafka', 'topic' = '${broker.name(topic)}', 'properties.bootstrap.servers' = '${broker.bootstrap}', ${more}`;
const bounded = "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset'";

async function rowsOf(tEnv: StreamTableEnvironment, sql: string): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const r of tEnv.executeSql(sql).collect()) rows.push(r);
  return rows;
}

/** An upsert topic folded as a consumer of it would: the last value per key, a tombstone deletes it. */
function foldUpserts(records: readonly StoredRecord[]): Map<string, string> {
  const table = new Map<string, string>();
  for (const r of records) {
    if (r.value === null) table.delete(r.key!);
    else table.set(r.key!, r.value);
  }
  return table;
}

describe("kafka SQL connectors on a broker", () => {
  it("reads a json topic bounded at its latest offsets, with metadata columns", async () => {
    await createTopic(broker.bootstrap, broker.name("k-read"), 2);
    await produceRecords(broker.bootstrap, broker.name("k-read"), [
      { value: '{"id": 1, "name": "Mary"}', partition: 0, timestamp: 1_700_000_000_000, headers: { trace: "a" } },
      { value: '{"id": 2, "name": "Bob"}', partition: 1, timestamp: 1_700_000_000_500 },
      { value: '{"id": 3,\n "name": "Liz"}', partition: 0, timestamp: 1_700_000_001_000 },
    ]);
    const tEnv = tableEnv();
    tEnv.executeSql(`CREATE TABLE t (id INT, name STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', \`partition\` INT METADATA VIRTUAL,
      \`offset\` BIGINT METADATA VIRTUAL, headers MAP<STRING, BYTES> METADATA, tp STRING METADATA FROM 'topic' VIRTUAL)
      WITH (${kafka("k-read", `'format' = 'json', ${bounded}`)})`);
    const rows = await rowsOf(tEnv, "SELECT id, name, `partition`, `offset`, tp, CARDINALITY(headers) FROM t");
    const seen = rows.map((r) => [r.kind, ...r.fields]).sort((a, b) => Number(a[1]) - Number(b[1]));
    expect(seen).toEqual([
      ["+I", 1, "Mary", 0, 0, broker.name("k-read"), 1],
      ["+I", 2, "Bob", 1, 0, broker.name("k-read"), 0],
      ["+I", 3, "Liz", 0, 1, broker.name("k-read"), 0],
    ]);
    const times = await rowsOf(tEnv, "SELECT id, ts FROM t");
    expect(times.map((r) => [r.fields[0], r.fields[1]]).sort()).toEqual([[1, 1_700_000_000_000], [2, 1_700_000_000_500], [3, 1_700_000_001_000]]);
  }, 60_000);

  it("writes a query with a key, the timestamp and headers metadata, read back from the topic", async () => {
    await createTopic(broker.bootstrap, [broker.name("k-write-in"), broker.name("k-write")], 3);
    await produceRecords(broker.bootstrap, broker.name("k-write-in"), [1, 2, 3].map((id) => ({ value: JSON.stringify({ id, name: id === 2 ? "Bob" : "Mary" }), partition: 0, headers: { src: `h${id}` } })));
    const tEnv = tableEnv();
    tEnv.executeSql(`CREATE TABLE input (id INT, name STRING, hs MAP<STRING, BYTES> METADATA FROM 'headers') WITH (${kafka("k-write-in", `'format' = 'json', ${bounded}`)})`);
    tEnv.executeSql(`CREATE TABLE out (id INT, name STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', hs MAP<STRING, BYTES> METADATA FROM 'headers')
      WITH (${kafka("k-write", "'key.format' = 'raw', 'key.fields' = 'name', 'value.format' = 'csv', 'sink.delivery-guarantee' = 'at-least-once'")})`);
    await tEnv.executeSql("INSERT INTO out SELECT id, name, TO_TIMESTAMP_LTZ(1700000000000 + id, 3), hs FROM input").await();
    const records = await readTopic(broker.bootstrap, broker.name("k-write"), { committed: true });
    const got = records.map((r) => [r.key, r.value, r.timestamp, r.headers]).sort((a, b) => String(a[1]).localeCompare(String(b[1])));
    expect(got).toEqual([
      ["Mary", "1,Mary", 1_700_000_000_001, { src: "h1" }],
      ["Bob", "2,Bob", 1_700_000_000_002, { src: "h2" }],
      ["Mary", "3,Mary", 1_700_000_000_003, { src: "h3" }],
    ]);
    const mary = records.filter((r) => r.key === "Mary");
    expect(mary[0]!.partition).toBe(mary[1]!.partition); // one key, one partition (the key's hash)
  }, 60_000);

  it("upsert-kafka: updates and deletes become values and tombstones, read back as -U/+U and -D", async () => {
    await createTopic(broker.bootstrap, [broker.name("u-changes"), broker.name("u-users")], 1);
    await produceRecords(broker.bootstrap, broker.name("u-changes"), [
      { value: '{"before": null, "after": {"id": 1, "name": "a"}, "op": "c"}' },
      { value: '{"before": null, "after": {"id": 2, "name": "b"}, "op": "c"}' },
      { value: '{"before": {"id": 1, "name": "a"}, "after": {"id": 1, "name": "a2"}, "op": "u"}' },
      { value: '{"before": {"id": 2, "name": "b"}, "after": null, "op": "d"}' },
    ]);
    const tEnv = tableEnv();
    tEnv.executeSql(`CREATE TABLE changes (id INT, name STRING) WITH (${kafka("u-changes", `'format' = 'debezium-json', ${bounded}`)})`);
    tEnv.executeSql(`CREATE TABLE users (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED)
      WITH ('connector' = 'upsert-kafka', 'topic' = '${broker.name("u-users")}', 'properties.bootstrap.servers' = '${broker.bootstrap}',
            'key.format' = 'json', 'value.format' = 'json', 'scan.bounded.mode' = 'latest-offset')`);
    await tEnv.executeSql("INSERT INTO users SELECT * FROM changes").await();
    const records = await readTopic(broker.bootstrap, broker.name("u-users"), { committed: true });
    expect(records.some((r) => r.key === '{"id":2}' && r.value === null)).toBe(true); // the delete is a tombstone
    expect(Object.fromEntries(foldUpserts(records))).toEqual({ '{"id":1}': '{"id":1,"name":"a2"}' });
    const changelog = (await rowsOf(tEnv, "SELECT * FROM users")).map((r) => Row.toString(r));
    expect(changelog).toContain("-D[2, b]");
    expect(changelog).toContain("+U[1, a2]");
    const folded = new MultisetTable();
    for (const r of await rowsOf(tEnv, "SELECT * FROM users")) folded.apply(r);
    expect(folded.sortedRows().map((r) => Row.toString(r))).toEqual(["+I[1, a2]"]);
  }, 60_000);
});
