import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { MalformedRecord } from "../../connectors/file/record-format.ts";
import { FILESYSTEM_TABLE_FACTORY } from "../connectors/filesystem-table-factory.ts";
import { tableContext } from "../connectors/test-table-context.ts";
import { MultisetTable } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import { decodeText, formatOfTable } from "./test-format-util.ts";

const newDir = tempDirs("weir-canal-json-");
const DDL = (path: string, options = "") =>
  `CREATE TABLE products (id BIGINT, name STRING, weight DECIMAL(10, 3)) WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'canal-json'${options})`;
const table = (options = "") => formatOfTable(DDL("p", options));
const w = (unscaled: number) => ({ unscaled: BigInt(unscaled), scale: 3 });

describe("canal-json format", () => {
  it("reads INSERT, UPDATE (before from old) and DELETE messages of several rows; skips DDL", () => {
    const { format } = table();
    const text = [
      '{"data":[{"id":"111","name":"scooter","weight":"5.18"},{"id":"112","name":"car","weight":"1.5"}],"old":null,"database":"inventory","table":"products","type":"INSERT","isDdl":false,"ts":1589362330904}',
      '{"data":[{"id":"111","name":"scooter","weight":"5.2"}],"old":[{"weight":"5.18"}],"database":"inventory","table":"products","type":"UPDATE","isDdl":false}',
      '{"data":null,"old":null,"database":"inventory","table":"products","type":"CREATE","isDdl":true,"sql":"CREATE TABLE products (...)"}',
      '{"data":[{"id":112,"name":"car","weight":1.5}],"type":"DELETE","database":"inventory","table":"products"}',
    ].join("\n");
    expect(decodeText(format, text)).toEqual([
      Row.ofKind(RowKind.INSERT, 111, "scooter", w(5180)),
      Row.ofKind(RowKind.INSERT, 112, "car", w(1500)),
      Row.ofKind(RowKind.UPDATE_BEFORE, 111, "scooter", w(5180)),
      Row.ofKind(RowKind.UPDATE_AFTER, 111, "scooter", w(5200)),
      Row.ofKind(RowKind.DELETE, 112, "car", w(1500)),
    ]);
  });

  it("writes as Flink's CanalJsonSerializationSchema, and reads back every kind", () => {
    const { format } = table();
    const rows = [
      Row.ofKind(RowKind.INSERT, 1, "a", w(1000)),
      Row.ofKind(RowKind.UPDATE_BEFORE, 1, "a", w(1000)),
      Row.ofKind(RowKind.UPDATE_AFTER, 1, "b", null),
      Row.ofKind(RowKind.DELETE, 1, "b", null),
    ];
    const lines = rows.map((r) => format.encode(r));
    expect(lines).toEqual([
      '{"data":[{"id":1,"name":"a","weight":1.000}],"type":"INSERT"}',
      '{"data":[{"id":1,"name":"a","weight":1.000}],"type":"DELETE"}',
      '{"data":[{"id":1,"name":"b","weight":null}],"type":"INSERT"}',
      '{"data":[{"id":1,"name":"b","weight":null}],"type":"DELETE"}',
    ]);
    expect(decodeText(format, lines.join("\n")).map((r) => (r as Row).kind)).toEqual([RowKind.INSERT, RowKind.DELETE, RowKind.INSERT, RowKind.DELETE]);
  });

  it("keeps only the messages of database.include and table.include", () => {
    const { format } = table(", 'canal-json.database.include' = 'inv.*', 'canal-json.table.include' = 'products'");
    const text = [
      '{"data":[{"id":1}],"type":"INSERT","database":"inventory","table":"products"}',
      '{"data":[{"id":2}],"type":"INSERT","database":"other","table":"products"}',
      '{"data":[{"id":3}],"type":"INSERT","database":"inventory","table":"products_archive"}',
    ].join("\n");
    expect(decodeText(format, text)).toEqual([Row.of(1, null, null)]);
    expect(() => table(", 'canal-json.table.include' = '(['")).toThrow("Invalid value for option 'canal-json.table.include': '([' is not a regular expression");
  });

  it("malformed messages name the line and the problem; ignore-parse-errors skips them", () => {
    const { format } = table();
    const text = [
      '{"data":[{"id":1}],"type":"UPSERT"}',
      '{"data":[{"id":1}],"type":"UPDATE"}',
      '{"data":{"id":1},"type":"INSERT"}',
      '{"data":[{"id":"one"}],"type":"DELETE"}',
      "[1]",
    ].join("\n");
    expect((decodeText(format, text) as MalformedRecord[]).map((m) => [m.line, m.reason])).toEqual([
      [1, 'unknown "type" value "UPSERT": expected "INSERT", "UPDATE", "DELETE" or "CREATE"'],
      [2, 'the "old" field of a "UPDATE" message is missing'],
      [3, 'the "data" field of a "INSERT" message is not an array'],
      [4, `field 'id': cannot read "one" as BIGINT`],
      [5, 'expected a Canal message: a JSON object with "data" and "type"'],
    ]);
    const lenient = table(", 'canal-json.ignore-parse-errors' = 'true'").format;
    expect(decodeText(lenient, text + '\n{"data":[{"id":5}],"type":"INSERT"}')).toEqual([Row.ofKind(RowKind.DELETE, null, null, null), Row.of(5, null, null)]);
  });

  it("round trips a changelog through the filesystem connector; a malformed line fails naming the file and line", async () => {
    const dir = newDir();
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    env.enableCheckpointing(20, "exactly-once");
    const changelog = [
      Row.ofKind(RowKind.INSERT, 1, "a", w(1)),
      Row.ofKind(RowKind.INSERT, 2, "b", w(2)),
      Row.ofKind(RowKind.UPDATE_BEFORE, 1, "a", w(1)),
      Row.ofKind(RowKind.UPDATE_AFTER, 1, "a2", w(3)),
      Row.ofKind(RowKind.DELETE, 2, "b", w(2)),
    ];
    FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(env, DDL(dir), "sink")).consume(env.fromElements(...changelog));
    await env.execute("write-canal");
    const readEnv = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    FILESYSTEM_TABLE_FACTORY.createSource!(tableContext(readEnv, DDL(dir), "src")).produce().sinkTo(collectSink("rows"));
    const read = (await readEnv.execute("read-canal")).getCollected<Row>("rows");
    expect(new MultisetTable().applyAll(read).sortedRows()).toEqual([Row.of(1, "a2", w(3))]);

    const bad = join(newDir(), "binlog.json");
    writeFileSync(bad, '{"data":[{"id":1}],"type":"INSERT"}\n{"data":[{"id":2}],"type":"TRUNCATE"}\n');
    const badEnv = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    FILESYSTEM_TABLE_FACTORY.createSource!(tableContext(badEnv, DDL(bad), "src")).produce().sinkTo(collectSink("rows"));
    await expect(badEnv.execute("bad-canal")).rejects.toThrow(`${bad}:2: unknown "type" value "TRUNCATE"`);
  }, 30_000);
});
