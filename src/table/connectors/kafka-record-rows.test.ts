/**
 * Kafka records ↔ rows of a table: key and value columns, metadata, changelog
 * formats, upsert tombstones, and read errors naming the record's place.
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { RowKind } from "../data/row-kind.ts";
import { kafkaTableConfig } from "./kafka-table-options.ts";
import { KafkaRecordReadError, recordReader, recordWriter } from "./kafka-record-rows.ts";
import type { KafkaConsumerRecord } from "../../connectors/kafka/kafka-record-deserialization-schema.ts";
import { tableContext } from "./test-table-context.ts";

const env = StreamExecutionEnvironment.create({ parallelism: 1 });
const bytes = (s: string) => Uint8Array.from(Buffer.from(s));
const text = (b: Uint8Array | null | undefined) => (b == null ? b : Buffer.from(b).toString());

function configOf(columns: string, options: string, use: "source" | "sink", upsert = false, metadataKeys?: string[]) {
  const ctx = tableContext(env, `CREATE TABLE t (${columns}) WITH ('properties.bootstrap.servers' = 'x:1', 'topic' = 'users', ${options})`);
  if (metadataKeys !== undefined) ctx.metadataKeys = metadataKeys;
  return kafkaTableConfig(ctx, use, upsert);
}

function record(key: string | null, value: string | null, more: Partial<KafkaConsumerRecord> = {}): KafkaConsumerRecord {
  return { topic: "users", partition: 2, offset: 41, timestamp: 1_700_000_000_000, timestampType: "CreateTime", key: key === null ? null : bytes(key), value: value === null ? null : bytes(value), headers: [], ...more };
}

describe("kafka records as rows", () => {
  it("reads key columns from the key (EXCEPT_KEY, prefix stripped) and the rest from the value, then metadata", () => {
    const config = configOf(
      "k_id INT, name STRING, score DOUBLE",
      "'connector' = 'kafka', 'key.format' = 'json', 'key.fields' = 'k_id', 'key.fields-prefix' = 'k_', 'value.format' = 'csv', 'value.fields-include' = 'EXCEPT_KEY'",
      "source",
    );
    const read = recordReader(config, 3, ["offset", "partition", "timestamp", "headers", "topic", "timestamp-type"], false);
    const [row] = read(record('{"id": 7}', "Mary,1.5", { headers: [["trace", bytes("x")]] }));
    expect(row!.kind).toBe(RowKind.INSERT);
    expect(row!.fields.slice(0, 3)).toEqual([7, "Mary", 1.5]);
    expect(row!.fields.slice(3, 6)).toEqual([41, 2, 1_700_000_000_000]);
    expect([...(row!.fields[6] as Map<string, Uint8Array>)].map(([k, v]) => [k, text(v)])).toEqual([["trace", "x"]]);
    expect(row!.fields.slice(7)).toEqual(["users", "CreateTime"]);
    expect(read(record(null, "Ann,2"))[0]!.fields.slice(0, 3)).toEqual([null, "Ann", 2]);
    expect(read(record('{"id": 8}', null))).toEqual([]); // a tombstone is no row of a kafka table
  });

  it("a changelog value format gives every row kind; a bad value names table, topic, partition and offset", () => {
    const read = recordReader(configOf("id INT, name STRING", "'connector' = 'kafka', 'format' = 'debezium-json'", "source"), 2, [], false);
    const update = read(record(null, '{"before": {"id": 1, "name": "a"},\n "after": {"id": 1, "name": "b"}, "op": "u"}'));
    expect(update.map((r) => [r.kind, ...r.fields])).toEqual([["-U", 1, "a"], ["+U", 1, "b"]]);
    expect(() => read(record(null, '{"op": "x"}'))).toThrow(KafkaRecordReadError);
    expect(() => read(record(null, '{"op": "x"}'))).toThrow(/^Table 'default_catalog.default_database.t' cannot read the value of the record at users-2 offset 41: unknown "op" value "x"/);
  });

  it("ignore-parse-errors skips a value that does not parse", () => {
    const read = recordReader(configOf("id INT", "'connector' = 'kafka', 'format' = 'json', 'json.ignore-parse-errors' = 'true'", "source"), 1, [], false);
    expect(read(record(null, "{not json"))).toEqual([]);
    expect(read(record(null, '{"id": 3}'))[0]!.fields).toEqual([3]);
  });

  it("raw messages: the whole value as text, bytes or a big-endian number", () => {
    const read = recordReader(configOf("line STRING", "'connector' = 'kafka', 'format' = 'raw'", "source"), 1, [], false);
    expect(read(record(null, "two\nlines"))[0]!.fields).toEqual(["two\nlines"]);
    const write = recordWriter(configOf("n BIGINT", "'connector' = 'kafka', 'format' = 'raw'", "sink"), 1, [], false);
    expect([...write({ kind: "+I", fields: [258] })!.value!]).toEqual([0, 0, 0, 0, 0, 0, 1, 2]);
  });

  it("upsert: a value is +U of its key, a tombstone -D of its key; writing drops -U and deletes with a tombstone", () => {
    const cols = "id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED";
    const opts = "'connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json'";
    const read = recordReader(configOf(cols, opts, "source", true), 2, [], true);
    expect(read(record('{"id": 1}', '{"id": 1, "name": "a"}')).map((r) => [r.kind, ...r.fields])).toEqual([["+U", 1, "a"]]);
    expect(read(record('{"id": 1}', null)).map((r) => [r.kind, ...r.fields])).toEqual([["-D", 1, null]]);
    const write = recordWriter(configOf(cols, opts, "sink", true), 2, [], true);
    const out = (kind: RowKind) => {
      const r = write({ kind, fields: [1, "a"] });
      return r === null ? null : [r.topic, text(r.key), text(r.value)];
    };
    expect(out(RowKind.INSERT)).toEqual(["users", '{"id":1}', '{"id":1,"name":"a"}']);
    expect(out(RowKind.UPDATE_AFTER)).toEqual(["users", '{"id":1}', '{"id":1,"name":"a"}']);
    expect(out(RowKind.UPDATE_BEFORE)).toBeNull();
    expect(out(RowKind.DELETE)).toEqual(["users", '{"id":1}', null]);
  });

  it("writes the topic, timestamp and headers metadata columns; a topic outside the table's list fails naming it", () => {
    const config = configOf("id INT", "'connector' = 'kafka', 'format' = 'json'", "sink", false, ["headers", "topic", "timestamp"]);
    const write = recordWriter({ ...config, topics: ["users", "admins"] }, 1, ["headers", "topic", "timestamp"], false);
    const r = write({ kind: "+I", fields: [5, new Map([["h", bytes("v")], ["n", null]]), "admins", 123] })!;
    expect([r.topic, text(r.value), r.timestamp, r.headers!.map(([k, v]) => [k, text(v)])]).toEqual(["admins", '{"id":5}', 123, [["h", "v"]]]);
    expect(() => write({ kind: "+I", fields: [5, null, "guests", null] })).toThrow(
      "Table sink 'default_catalog.default_database.t' cannot write a row: the row's topic 'guests' is not one of the table's topics (users, admins)",
    );
  });
});
