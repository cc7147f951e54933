/**
 * The nexmark project's SQL queries q0–q22 (bench/jobs/nexmark/sql/) on the
 * `nexmark` connector, bounded: each query's changelog, folded, equals
 * DuckDB's batch result of the same query over the same generated events,
 * in-process and on 2 worker threads (which fold to identical tables). q6
 * (invalid SQL) and q12 (a processing-time window) are refused with their errors.
 * The queries on event time also with events out of order by up to 2 s
 * (the DDL's watermark trails by 4 s: none is late). Every runnable INSERT
 * plans into its published sink, and q10's writes its partitioned CSV files.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { NEXMARK_SQL_REFUSED, NEXMARK_SQL_RUNNABLE, nexmarkSqlScript, type NexmarkSqlQueryName } from "../../bench/jobs/nexmark/sql-queries.ts";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { MultisetTable } from "../../src/table/data/changelog.ts";
import type { Row } from "../../src/table/data/row.ts";
import { jsonResult, runCli } from "../support/cli-process.ts";
import { NEXMARK_DUCKDB, nexmarkBatchResults, nexmarkTestStream, runNexmarkQueries, writeSideInput } from "../support/nexmark-sql.ts";
import { canonicalRow, compareWithBatch, decodeRun, type HarnessRun } from "../support/sql-harness.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-nexmark-sql-");

/** The queries whose result depends on event time: windows (q5, q7, q8, q11) and joins on auctions' open periods (q4, q9). */
const EVENT_TIME_QUERIES: readonly NexmarkSqlQueryName[] = ["q4", "q5", "q7", "q8", "q9", "q11"];

/** The folded changelog as sorted canonical rows. */
function folded(changelog: readonly Row[]): string[] {
  const t = new MultisetTable();
  t.applyAll(changelog);
  return t.rows().map((r) => canonicalRow(r.fields)).sort();
}

function checkRun(run: HarnessRun, batch: Map<NexmarkSqlQueryName, Row[]>, context: string, queries: readonly NexmarkSqlQueryName[] = NEXMARK_SQL_RUNNABLE): void {
  const refused = Object.keys(NEXMARK_SQL_REFUSED).filter((q) => run.changelogs.has(q) || run.planErrors.has(q));
  for (const q of refused) expect(run.planErrors.get(q), `${context}: ${q}`).toMatch(NEXMARK_SQL_REFUSED[q as NexmarkSqlQueryName]!);
  expect([...run.planErrors.keys()].sort(), context).toEqual(refused.sort());
  const failures: string[] = [];
  for (const q of queries) {
    const diff = compareWithBatch({ name: q, flink: `nexmark ${q}`, duckdb: NEXMARK_DUCKDB[q]! }, run.changelogs.get(q), batch.get(q), context);
    if (diff !== undefined) failures.push(diff);
  }
  expect(failures.join("\n\n"), context).toBe("");
}

describe("Nexmark SQL queries on the nexmark connector", () => {
  it("every runnable query folds to DuckDB's batch result, in-process and on 2 workers alike", async () => {
    const dir = temp();
    writeSideInput(dir);
    const stream = nexmarkTestStream(dir);
    const batch = await nexmarkBatchResults(stream);
    for (const q of NEXMARK_SQL_RUNNABLE) expect(batch.get(q)?.length ?? 0, `DuckDB's ${q} has rows`).toBeGreaterThan(0);

    const workers = runCli(["run", "test/fixtures/nexmark-sql-job.ts", "--parallelism", "2", "--workers", "2", "--fresh", "--", dir], 240_000);
    const inProcess = await runNexmarkQueries(StreamExecutionEnvironment.create({ parallelism: 2 }), stream);
    checkRun(inProcess, batch, "in-process");

    const lagging = nexmarkTestStream(dir, 2_000);
    const [laggingRun, laggingBatch] = [await runNexmarkQueries(StreamExecutionEnvironment.create({ parallelism: 2 }), lagging, EVENT_TIME_QUERIES), await nexmarkBatchResults(lagging, EVENT_TIME_QUERIES)];
    checkRun(laggingRun, laggingBatch, "in-process, events out of order by up to 2 s", EVENT_TIME_QUERIES);

    const r = await workers;
    expect(r.code, r.stderr).toBe(0);
    const onWorkers = decodeRun(jsonResult(r));
    checkRun(onWorkers, batch, "2 workers");
    for (const q of NEXMARK_SQL_RUNNABLE) expect(folded(onWorkers.changelogs.get(q)!), q).toEqual(folded(inProcess.changelogs.get(q)!));
  }, 300_000);

  it("every runnable INSERT plans into its published sink; q10's writes one CSV line per bid into its dt=…/hm=… partition, each committed with a success file", async () => {
    const dir = temp();
    writeSideInput(dir);
    const stream = nexmarkTestStream(dir);
    for (const q of NEXMARK_SQL_RUNNABLE) {
      const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 2 }));
      const script = nexmarkSqlScript(q, stream);
      for (const statement of script.setup) tEnv.executeSql(statement);
      expect(tEnv.explainSql(script.insert), q).toMatch(new RegExp(`nexmark_${q}`));
    }
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env.enableCheckpointing(1_000, "exactly-once");
    const tEnv = StreamTableEnvironment.create(env);
    const slow = { ...stream, eventsPerSecond: 20 }; // 200 s of event time: 4 minutes, 4 partitions
    const q10 = nexmarkSqlScript("q10", slow);
    for (const statement of q10.setup) tEnv.executeSql(statement);
    await tEnv.executeSql(q10.insert).await();
    const out = join(dir, "data", "output", "q10", "bid");
    const files = readdirSync(out, { recursive: true, encoding: "utf8" }).filter((f) => statSync(join(out, f)).isFile());
    const parts = files.filter((f) => !basename(f).startsWith(".") && !basename(f).startsWith("_"));
    /** `dt,hm,auction,bidder,price` of each line, the partition values from its file's directory `dt=…/hm=…`. */
    const got = parts.flatMap((f) => {
      const [dt, hm] = dirname(f).split(sep).map((d) => decodeURIComponent(d.slice(d.indexOf("=") + 1)));
      return readFileSync(join(out, f), "utf8").split("\n").filter(Boolean).map((l) => [dt, hm, ...l.split(",").slice(0, 3)].join(","));
    });
    const batch = (await nexmarkBatchResults(slow, ["q10"])).get("q10")!;
    expect(got.sort()).toEqual(batch.map((r) => [r.fields[5], r.fields[6], ...r.fields.slice(0, 3)].map(String).join(",")).sort());
    const partitions = new Set(parts.map((f) => dirname(f)));
    expect(partitions.size).toBe(4);
    for (const partition of partitions) expect(files, `the success file of ${partition}`).toContain(join(partition, "_SUCCESS"));
  }, 120_000);
});
