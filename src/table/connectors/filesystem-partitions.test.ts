import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { RestartStrategies } from "../../runtime/execution/restart-strategy.ts";
import { WatermarkStrategy } from "../../time/watermark-strategy.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { throttledSequence } from "../../../test/fixtures/throttled-sequence-source.ts";
import { FailOnce } from "../../../test/support/fail-once.ts";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";
import { MultisetTable } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import { FILESYSTEM_TABLE_FACTORY } from "./filesystem-table-factory.ts";
import { tableContext } from "./test-table-context.ts";

const newDir = tempDirs("weir-fs-partitions-");
const T0 = Date.UTC(2026, 11, 1, 9, 0, 0);

function ddl(path: string, extra = ""): string {
  return `CREATE TABLE t (id BIGINT, v STRING, dt STRING, hr STRING) PARTITIONED BY (dt, hr)
    WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'json',
      'sink.partition-commit.trigger' = 'partition-time', 'partition.time-extractor.timestamp-pattern' = '$dt $hr:00:00',
      'sink.partition-commit.policy.kind' = 'success-file'${extra})`;
}

/** `n` events `step` ms apart from 09:00; each row carries its time in `ts`. */
function events(n: number, step: number): { row: Row; ts: number }[] {
  return Array.from({ length: n }, (_, i) => {
    const ts = T0 + i * step;
    const d = new Date(ts);
    return { row: Row.of(i, `v${i % 7}`, d.toISOString().slice(0, 10), String(d.getUTCHours()).padStart(2, "0")), ts };
  });
}

/** The committed (visible) rows of a partition directory, as JSON objects. */
function committedLines(dir: string): Record<string, unknown>[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.startsWith("part-"))
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l !== ""))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Waits until `condition` holds (checked every 10 ms), failing after `ms`. */
async function until(condition: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !condition(); ) {
    if (Date.now() > end) throw new Error(`condition not reached in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const fold = (rows: Iterable<Row>) => new MultisetTable().applyAll(rows).sortedRows();

describe("filesystem partitioned tables", () => {
  it("write k=v/ directories without the partition columns; across an injected failure every row once, every partition committed at the end, read back whole", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const evs = events(600, 30_000); // 5 hours
    const failAt = randomInt(random, 150, 300);
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    const out = newDir();
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
    env.enableCheckpointing(20, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const sink = FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(env, ddl(out), "sink"));
    const input = env
      .fromSource(throttledSequence(0, evs.length - 1, 15, 2), WatermarkStrategy.noWatermarks(), "numbers")
      .setParallelism(1)
      .map(new FailOnce(evs, failAt))
      .setParallelism(1)
      .assignTimestampsAndWatermarks(WatermarkStrategy.forMonotonousTimestamps<{ row: Row; ts: number }>().withTimestampAssigner((e) => e.ts))
      .setParallelism(1)
      .map((e: { row: Row; ts: number }) => e.row)
      .setParallelism(1);
    sink.consume(input);
    const result = await env.execute("fs-partitioned-sink");
    expect(result.restarts, msg).toBe(1);
    expect(readdirSync(out), msg).toEqual(["dt=2026-12-01"]);
    const hours = readdirSync(join(out, "dt=2026-12-01")).sort();
    expect(hours, msg).toEqual(["hr=09", "hr=10", "hr=11", "hr=12", "hr=13"]);
    for (const h of hours) {
      const dir = join(out, "dt=2026-12-01", h);
      expect(readdirSync(dir).filter((f) => f.startsWith(".")), msg).toEqual([]);
      expect(existsSync(join(dir, "_SUCCESS")), `${msg} ${h}`).toBe(true);
      const lines = committedLines(dir);
      expect(lines.length, `${msg} ${h}`).toBe(120);
      // partition columns are in the path only
      expect(Object.keys(lines[0]!).sort(), msg).toEqual(["id", "v"]);
    }
    // read back: partition values from the paths
    const readEnv = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
    const source = FILESYSTEM_TABLE_FACTORY.createSource!(tableContext(readEnv, ddl(out), "src"));
    source.produce().sinkTo(collectSink("rows"));
    const read = (await readEnv.execute("fs-partitioned-read")).getCollected<Row>("rows");
    expect(fold(read), msg).toEqual(fold(evs.map((e) => e.row)));
    expect(fold(await source.readAll!()), msg).toEqual(fold(evs.map((e) => e.row)));
  }, 60_000);

  it("partition-time with a delay of 1 h, across an injected failure: an hourly partition's success file appears once the watermark passes its end, after all its rows are visible; later partitions wait", async () => {
    // 09:00 .. 10:30 in steps of 1 min; the job keeps running after the last row
    const evs = events(91, 60_000);
    const out = newDir();
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 5 });
    env.enableCheckpointing(20, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const sink = FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(env, ddl(out, ", 'sink.partition-commit.delay' = '1 h', 'sink.partition-commit.success-file.name' = '_DONE'"), "sink"));
    sink.consume(
      env
        .fromSource(throttledSequence(0, evs.length - 1, 5, 2, 1_000_000), WatermarkStrategy.noWatermarks(), "numbers")
        .setParallelism(1)
        .map(new FailOnce(evs, 40))
        .setParallelism(1)
        .assignTimestampsAndWatermarks(WatermarkStrategy.forMonotonousTimestamps<{ row: Row; ts: number }>().withTimestampAssigner((e) => e.ts))
        .setParallelism(1)
        .map((e: { row: Row; ts: number }) => e.row)
        .setParallelism(1),
    );
    const client = await env.executeAsync("fs-partition-commit");
    try {
      const h9 = join(out, "dt=2026-12-01", "hr=09");
      const h10 = join(out, "dt=2026-12-01", "hr=10");
      let seenAtCommit = -1;
      await until(() => {
        if (!existsSync(join(h9, "_DONE"))) return false;
        seenAtCommit = committedLines(h9).length;
        return true;
      }, 30_000);
      expect(seenAtCommit).toBe(60);
      // every row of 10:xx becomes visible (once, across the failure), but the watermark never passes 11:00
      await until(() => committedLines(h10).length >= 31, 30_000);
      expect(committedLines(h10).map((l) => l.id).sort()).toEqual(evs.slice(60).map((e) => Number(e.row.fields[0])).sort());
      expect(existsSync(join(h10, "_DONE"))).toBe(false);
      expect(existsSync(join(h9, "_SUCCESS"))).toBe(false);
    } finally {
      await client.cancel();
    }
  }, 60_000);

  it("process-time with a delay of 1 h: at the end of the input every partition is committed; INSERT from SQL, read back by partition", async () => {
    const out = newDir();
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    env.enableCheckpointing(20, "exactly-once");
    const tEnv = StreamTableEnvironment.create(env);
    tEnv.executeSql(`CREATE TABLE src (id BIGINT, country STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '40', 'seed' = '1',
      'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '40', 'fields.country.length' = '1')`);
    tEnv.executeSql(`CREATE TABLE sink (id BIGINT, country STRING) PARTITIONED BY (country) WITH ('connector' = 'filesystem', 'path' = '${out}',
      'format' = 'csv', 'sink.partition-commit.delay' = '1 h', 'sink.partition-commit.policy.kind' = 'success-file')`);
    await tEnv.executeSql("INSERT INTO sink SELECT * FROM src").await();
    const partitions = readdirSync(out).sort();
    expect(partitions.length > 1 && partitions.every((p) => /^country=[0-9a-f]$/.test(p))).toBe(true);
    for (const p of partitions) expect(existsSync(join(out, p, "_SUCCESS"))).toBe(true);
    const back: string[] = [];
    for await (const r of tEnv.executeSql("SELECT country, COUNT(*) FROM sink GROUP BY country").collect()) if (r.kind === "+I" || r.kind === "+U") back.push(String(r.fields[0]));
    expect(new Set(back)).toEqual(new Set(partitions.map((p) => p.slice("country=".length))));
  }, 60_000);

  it("reads partition values from hand-made directories: typed, escaped, the default partition as NULL", async () => {
    const dir = newDir();
    for (const [sub, body] of [
      ["day=2026-12-01/n=1", '{"id": 1}\n'],
      ["day=2026-12-02/n=__DEFAULT_PARTITION__", '{"id": 2}\n'],
      ["day=2026-12-03/n=3", '{"id": 3}\n{"id": 4}\n'],
    ] as const) {
      mkdirSync(join(dir, sub), { recursive: true });
      writeFileSync(join(dir, sub, "data.json"), body);
    }
    const table = `CREATE TABLE p (id INT, day DATE, n INT) PARTITIONED BY (day, n) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json')`;
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const tEnv = StreamTableEnvironment.create(env);
    tEnv.executeSql(table);
    const rows: string[] = [];
    for await (const r of tEnv.executeSql("SELECT id, CAST(day AS STRING), n FROM p WHERE id > 1").collect()) rows.push(Row.toString(r));
    expect(rows.sort()).toEqual(["+I[2, 2026-12-02, null]", "+I[3, 2026-12-03, 3]", "+I[4, 2026-12-03, 3]"]);

    mkdirSync(join(dir, "day=2026-13-45", "n=1"), { recursive: true });
    writeFileSync(join(dir, "day=2026-13-45", "n=1", "bad.json"), '{"id": 9}\n');
    const bad = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    FILESYSTEM_TABLE_FACTORY.createSource!(tableContext(bad, table)).produce().sinkTo(collectSink("rows"));
    await expect(bad.execute("bad-partition")).rejects.toThrow(`${join(dir, "day=2026-13-45", "n=1", "bad.json")}:1: partition 'day': cannot read "2026-13-45" as DATE (cannot parse "2026-13-45" as DATE: month 13 is not between 1 and 12): day=2026-13-45`);
  }, 30_000);

  it("a continuous source picks up the files of a partition directory created later, with its values", async () => {
    const dir = newDir();
    mkdirSync(join(dir, "k=a"));
    writeFileSync(join(dir, "k=a", "1.json"), '{"id": 1}\n{"id": 2}\n');
    const table = `CREATE TABLE p (id INT, k STRING) PARTITIONED BY (k) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json', 'source.monitor-interval' = '20 ms')`;
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
    const source = FILESYSTEM_TABLE_FACTORY.createSource!(tableContext(env, table));
    expect(source.unbounded).toBe(true);
    const rows: string[] = [];
    for await (const row of source.produce().executeAndCollect("continuous-partitions", 4)) {
      rows.push(Row.toString(row));
      if (rows.length === 2) {
        mkdirSync(join(dir, "k=b%2Fc"));
        writeFileSync(join(dir, "k=b%2Fc", ".2.json"), '{"id": 3}\n{"id": 4}\n');
        renameSync(join(dir, "k=b%2Fc", ".2.json"), join(dir, "k=b%2Fc", "2.json"));
      }
    }
    expect(rows.sort()).toEqual(["+I[1, a]", "+I[2, a]", "+I[3, b/c]", "+I[4, b/c]"]);
  }, 30_000);

  it("refuses what Flink refuses and what Weir lacks, naming the table and the option", () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    const sinkError = (createTable: string) => {
      try {
        FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(env, createTable));
      } catch (e) {
        return (e as Error).message;
      }
      return "no error";
    };
    const t = "default_catalog.default_database.t";
    expect(sinkError(ddl("p").replace("'success-file'", "'metastore,success-file'"))).toBe(
      `Table '${t}': the partition commit policy 'metastore' needs a Hive metastore, which Weir does not have; use 'success-file'.`,
    );
    expect(sinkError(ddl("p").replace("'success-file'", "'custom'"))).toBe(
      `Table '${t}': unknown partition commit policy 'custom' in 'sink.partition-commit.policy.kind'; Weir supports 'success-file'.`,
    );
    expect(sinkError(ddl("p").replace("$dt $hr:00:00", "$day $hr:00:00"))).toBe(
      `Table '${t}': 'partition.time-extractor.timestamp-pattern' names '$day', which is not a partition column (dt, hr).`,
    );
    expect(sinkError("CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json', 'sink.partition-commit.policy.kind' = 'success-file')")).toBe(
      `Table '${t}': 'sink.partition-commit.policy.kind' needs a partitioned table (PARTITIONED BY).`,
    );
    expect(sinkError(ddl("p", ", 'sink.partition-commit.watermark-time-zone' = 'Mars/Olympus'"))).toContain("'Mars/Olympus' is not a time zone id");
    expect(sinkError(ddl("p", ", 'partition.time-extractor.timestamp-formatter' = 'yyyy-MM-dd QQ'"))).toContain(
      `Table '${t}': invalid value for option 'partition.time-extractor.timestamp-formatter': `,
    );
    expect(sinkError("CREATE TABLE t (a INT) PARTITIONED BY (a) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json')")).toBe(
      `Table '${t}': every column is a partition column; the files need at least one other column.`,
    );
    expect(sinkError("CREATE TABLE t (a INT, b INT) PARTITIONED BY (c) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json')")).toBe(
      "line 1, column 47: Partition column 'c' is not a column of the table. Did you mean 'a'?",
    );
    expect(sinkError("CREATE TABLE t (a INT, bbb INT, c AS a + 1) PARTITIONED BY (bb) WITH ('connector' = 'filesystem', 'path' = 'p', 'format' = 'json')")).toBe(
      "line 1, column 61: Partition column 'bb' is not a column of the table. Did you mean 'bbb'?",
    );
  });
});
