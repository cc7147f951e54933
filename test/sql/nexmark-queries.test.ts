/**
 * The nexmark project's SQL queries q0–q22 (bench/jobs/nexmark/sql/) on the
 * `nexmark` connector, bounded: each query's changelog, folded, equals
 * DuckDB's batch result of the same query over the same generated events,
 * in-process and on 2 worker threads (which fold to identical tables). q6
 * (invalid SQL) and q12 (a processing-time window) are refused with their errors.
 */
import { describe, expect, it } from "vitest";
import { NEXMARK_SQL_REFUSED, NEXMARK_SQL_RUNNABLE, type NexmarkSqlQueryName } from "../../bench/jobs/nexmark/sql-queries.ts";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { MultisetTable } from "../../src/table/data/changelog.ts";
import type { Row } from "../../src/table/data/row.ts";
import { jsonResult, runCli } from "../support/cli-process.ts";
import { NEXMARK_DUCKDB, nexmarkBatchResults, nexmarkTestStream, runNexmarkQueries, writeSideInput } from "../support/nexmark-sql.ts";
import { canonicalRow, compareWithBatch, decodeRun, type HarnessRun } from "../support/sql-harness.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-nexmark-sql-");

/** The folded changelog as sorted canonical rows. */
function folded(changelog: readonly Row[]): string[] {
  const t = new MultisetTable();
  t.applyAll(changelog);
  return t.rows().map((r) => canonicalRow(r.fields)).sort();
}

function checkRun(run: HarnessRun, batch: Map<NexmarkSqlQueryName, Row[]>, context: string): void {
  for (const [q, pattern] of Object.entries(NEXMARK_SQL_REFUSED)) expect(run.planErrors.get(q), `${context}: ${q}`).toMatch(pattern);
  expect([...run.planErrors.keys()].sort(), context).toEqual(Object.keys(NEXMARK_SQL_REFUSED).sort());
  const failures: string[] = [];
  for (const q of NEXMARK_SQL_RUNNABLE) {
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

    const r = await workers;
    expect(r.code, r.stderr).toBe(0);
    const onWorkers = decodeRun(jsonResult(r));
    checkRun(onWorkers, batch, "2 workers");
    for (const q of NEXMARK_SQL_RUNNABLE) expect(folded(onWorkers.changelogs.get(q)!), q).toEqual(folded(inProcess.changelogs.get(q)!));
  }, 300_000);
});
