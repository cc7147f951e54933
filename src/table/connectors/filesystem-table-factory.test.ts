import { renameSync, writeFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import type { CheckpointListener } from "../../core/checkpointed-function.ts";
import { RichFunction } from "../../core/rich-function.ts";
import { RestartStrategies } from "../../runtime/execution/restart-strategy.ts";
import { WatermarkStrategy } from "../../time/watermark-strategy.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { throttledSequence } from "../../../test/fixtures/throttled-sequence-source.ts";
import { FailOnce } from "../../../test/support/fail-once.ts";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { MultisetTable } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { FILESYSTEM_TABLE_FACTORY } from "./filesystem-table-factory.ts";
import { tableContext } from "./test-table-context.ts";

const newDir = tempDirs("weir-table-fs-");
/** Column types the three formats share. */
const COLUMNS = "id BIGINT, name STRING, amount DECIMAL(38, 6), ts TIMESTAMP(3), tags ARRAY<INT>";

function ddl(path: string, format: string, extra = ""): string {
  return `CREATE TABLE t (${COLUMNS}) WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = '${format}'${extra})`;
}

/** Random rows: BIGINT ids beyond 2^53, exact decimals, strings that need quoting, NULLs. */
function randomRows(random: () => number, n: number): Row[] {
  return Array.from({ length: n }, (_, i) => {
    const fields: SqlValue[] = [
      2n ** 60n + BigInt(i),
      random() < 0.1 ? null : `user ${randomInt(random, 0, 20)}, "q"`,
      random() < 0.1 ? null : { unscaled: BigInt(randomInt(random, -1e9, 1e9)) * 10n ** 20n + 123456n, scale: 6 },
      random() < 0.1 ? null : 1_586_937_900_000 + randomInt(random, -1e9, 1e9),
      random() < 0.1 ? null : [randomInt(random, 0, 100), randomInt(random, -5, 5)],
    ];
    return Row.of(...fields);
  });
}

/** Reads the table at `path` with the connector's bounded source (a job of its own). */
async function readTable(path: string, format: string, parallelism: number, extra = ""): Promise<Row[]> {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  const source = FILESYSTEM_TABLE_FACTORY.createSource!(tableContext(env, ddl(path, format, extra), "src"));
  expect(source.unbounded).toBe(false);
  source.produce().sinkTo(collectSink("rows"));
  return (await env.execute("read-table")).getCollected<Row>("rows");
}

const fold = (rows: Iterable<Row>) => new MultisetTable().applyAll(rows).sortedRows();

/** Passes rows through; on the first attempt, throws at the first row with an id >= `from` after a checkpoint completed. */
class FailAtId extends RichFunction implements CheckpointListener {
  static failures = 0;
  static checkpointed = false;
  private completed = false;
  constructor(private readonly from: number) {
    super();
  }
  map(row: Row): Row {
    if (this.completed && (row.fields[0] as number) >= this.from && this.getRuntimeContext().getAttemptNumber() === 0) {
      FailAtId.failures++;
      throw new Error(`injected failure at row ${String(row.fields[0])}`);
    }
    return row;
  }
  notifyCheckpointComplete(): void {
    this.completed = true;
    FailAtId.checkpointed = true;
  }
}

/** Waits until `condition` holds (checked every 10 ms), failing after `ms`. */
async function until(condition: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !condition(); ) {
    if (Date.now() > end) throw new Error(`condition not reached in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("filesystem table sink and source", () => {
  for (const format of ["json", "csv", "debezium-json"]) {
    it(`${format}: an injected failure leaves every row exactly once in the committed files, read back exactly`, async () => {
      const seed = testSeed();
      const random = seededRandom(seed);
      const n = 1000;
      const rows = randomRows(random, n);
      const failAt = randomInt(random, n / 4, n / 2);
      const out = newDir();
      const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
      env.enableCheckpointing(20, "exactly-once");
      env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
      const sink = FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(env, ddl(out, format, format === "csv" ? ", 'csv.null-literal' = '<null>'" : ""), "sink"));
      const input = env
        .fromSource(throttledSequence(0, n - 1, 15, 2), WatermarkStrategy.noWatermarks(), "numbers")
        .setParallelism(1)
        .map(new FailOnce(rows, failAt))
        .setParallelism(1)
        .rebalance()
        .map((r: Row) => r);
      sink.consume(input);
      const result = await env.execute(`fs-sink-${format}`);
      const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
      expect(result.restarts, msg).toBe(1);
      expect(readdirSync(out).filter((f) => f.startsWith(".")), msg).toEqual([]);
      const read = await readTable(out, format, 2, format === "csv" ? ", 'csv.null-literal' = '<null>'" : "");
      expect(read.length, msg).toBe(n);
      expect(fold(read), msg).toEqual(fold(rows));
    }, 60_000);
  }

  it("debezium-json: a changelog written across a failure and read back folds to the same table", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    // a retract changelog of counts per user, as a group aggregation emits it
    const counts = new Map<string, number>();
    const changelog: Row[] = [];
    while (changelog.length < 800) {
      const user = `u${randomInt(random, 0, 12)}`;
      const old = counts.get(user);
      if (old !== undefined && random() < 0.2) {
        changelog.push(Row.ofKind(RowKind.DELETE, user, old));
        counts.delete(user);
        continue;
      }
      if (old !== undefined) changelog.push(Row.ofKind(RowKind.UPDATE_BEFORE, user, old));
      counts.set(user, (old ?? 0) + 1);
      changelog.push(Row.ofKind(old === undefined ? RowKind.INSERT : RowKind.UPDATE_AFTER, user, (old ?? 0) + 1));
    }
    const n = changelog.length;
    const failAt = randomInt(random, n / 4, n / 2);
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    const out = newDir();
    const table = `CREATE TABLE counts (\`user\` STRING, cnt BIGINT) WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'debezium-json')`;
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    env.enableCheckpointing(20, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const sink = FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(env, table, "sink"));
    expect(sink.acceptedMode.kinds).toEqual(["+I", "-U", "+U", "-D"]);
    sink.consume(env.fromSource(throttledSequence(0, n - 1, 15, 2), WatermarkStrategy.noWatermarks(), "numbers").map(new FailOnce(changelog, failAt)));
    expect((await env.execute("write-changelog")).restarts, msg).toBe(1);
    // parts of two runs of the sink, whose names do not sort in write order
    expect(new Set(readdirSync(out).map((f) => f.split("-").slice(3, 8).join("-"))).size, msg).toBe(2);

    const readEnv = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    const source = FILESYSTEM_TABLE_FACTORY.createSource!(tableContext(readEnv, table, "src"));
    expect(source.changelogMode.kinds).toEqual(["+I", "-U", "+U", "-D"]);
    source.produce().sinkTo(collectSink("rows"));
    const read = (await readEnv.execute("read-changelog")).getCollected<Row>("rows");
    const expected = [...counts].map(([u, c]) => Row.of(u, c));
    expect(fold(read), msg).toEqual(new MultisetTable().applyAll(expected).sortedRows());
  }, 30_000);

  it("a malformed line fails the job naming the file, the line and the field; ignore-parse-errors skips it", async () => {
    const dir = newDir();
    const file = join(dir, "in.json");
    writeFileSync(file, '{"id": 1, "name": "a"}\n{"id": 2, "amount": "lots"}\n{"id": 3}\n');
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    FILESYSTEM_TABLE_FACTORY.createSource!(tableContext(env, ddl(file, "json"))).produce().sinkTo(collectSink("rows"));
    await expect(env.execute("bad-json")).rejects.toThrow(`${file}:2: field 'amount': cannot read "lots" as DECIMAL(38, 6): {"id": 2, "amount": "lots"}`);

    writeFileSync(file, '{"id": 1, "name": "a"}\n{"id": 2,, "amount": "lots"}\n{"id": 3}\n');
    const rows = await readTable(file, "json", 1, ", 'json.ignore-parse-errors' = 'true'");
    expect(rows.map((r) => r.fields[0])).toEqual([1, 3]);
  }, 30_000);

  it("a continuous source (source.monitor-interval) picks up a file added later", async () => {
    const dir = newDir();
    writeFileSync(join(dir, "a.json"), '{"id": 1}\n{"id": 2}\n');
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
    const source = FILESYSTEM_TABLE_FACTORY.createSource!(tableContext(env, ddl(dir, "json", ", 'source.monitor-interval' = '20 ms'")));
    expect(source.unbounded).toBe(true);
    const ids: SqlValue[] = [];
    for await (const row of source.produce().executeAndCollect("continuous", 4)) {
      ids.push(row.fields[0]!);
      if (ids.length === 2) {
        // written under a hidden name, then renamed: the source never sees a half-written file
        writeFileSync(join(dir, ".b.json"), '{"id": 3}\n{"id": 4}\n');
        renameSync(join(dir, ".b.json"), join(dir, "b.json"));
      }
    }
    expect(ids.sort()).toEqual([1, 2, 3, 4]);
  }, 30_000);

  it("a continuous source resumes from its checkpointed offsets after a failure: every row once", async () => {
    const dir = newDir();
    const lines = (from: number, n: number) => Array.from({ length: n }, (_, i) => `{"id": ${from + i}, "name": "r${from + i}"}\n`).join("");
    writeFileSync(join(dir, "a.json"), lines(0, 500));
    writeFileSync(join(dir, "b.json"), lines(500, 500));
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
    env.enableCheckpointing(20, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const source = FILESYSTEM_TABLE_FACTORY.createSource!(tableContext(env, ddl(dir, "json", ", 'source.monitor-interval' = '20 ms'")));
    const failuresBefore = FailAtId.failures;
    FailAtId.checkpointed = false;
    const ids: number[] = [];
    for await (const row of source.produce().map(new FailAtId(1000)).executeAndCollect("continuous-recovery", 1500)) {
      ids.push(row.fields[0] as number);
      if (ids.length === 1000) {
        FailAtId.checkpointed = false;
        await until(() => FailAtId.checkpointed, 20_000); // a checkpoint completes after every row so far
        writeFileSync(join(dir, ".c.json"), lines(1000, 500));
        renameSync(join(dir, ".c.json"), join(dir, "c.json"));
      }
    }
    expect(FailAtId.failures - failuresBefore).toBe(1);
    expect(ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(Array.from({ length: 1500 }, (_, i) => i));
  }, 30_000);

  it("refuses rows of kinds its format does not write, naming the table", async () => {
    const out = newDir();
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    env.enableCheckpointing(20, "exactly-once");
    env.setRestartStrategy(RestartStrategies.noRestart());
    const sink = FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(env, ddl(out, "json")));
    expect(sink.acceptedMode.kinds).toEqual(["+I"]);
    sink.consume(env.fromCollection([Row.ofKind(RowKind.UPDATE_BEFORE, 1, null, null, null, null)]));
    await expect(env.execute("refused")).rejects.toThrow(
      "Table sink 'default_catalog.default_database.t' cannot write a row: the 'json' format writes only inserts (+I), got -U[1, null, null, null, null]",
    );
  }, 30_000);

  it("sink.parallelism with a changelog format needs a primary key; rolling options map to the FileSink", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    expect(() => FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(env, ddl("x", "debezium-json", ", 'sink.parallelism' = '2'")))).toThrow(
      "'sink.parallelism' with the changelog format 'debezium-json' needs a PRIMARY KEY",
    );
    const out = newDir();
    env.enableCheckpointing(1_000, "exactly-once");
    const keyed = `CREATE TABLE k (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '${out}',
      'format' = 'debezium-json', 'sink.parallelism' = '2', 'sink.rolling-policy.file-size' = '1b')`;
    const rows = Array.from({ length: 6 }, (_, i) => Row.of(BigInt(i), `v${i}`));
    FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(env, keyed)).consume(env.fromCollection(rows));
    await env.execute("rolling");
    const files = readdirSync(out);
    // a part rolls after every row (1 byte), two subtasks
    expect(files.length).toBe(6);
    expect(files.map((f) => readFileSync(join(out, f), "utf8").trim().split("\n").length)).toEqual([1, 1, 1, 1, 1, 1]);
  }, 30_000);
});
