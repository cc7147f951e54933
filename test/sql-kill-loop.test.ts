/**
 * Exactly-once SQL through real crashes: `weir run` of an updating query
 * (an aggregation per key) from JSON files into a `debezium-json` filesystem
 * table, at parallelism 2 on 2 workers, is SIGKILLed at seeded random
 * moments and started again with the same command until a run finishes. The
 * committed changelog, folded, is exactly the same query's batch result
 * (DuckDB). The same with `weir sql -f` of Nexmark q4 (a join and two
 * levels of aggregation, so updates retract) on the nexmark connector.
 * Reproduce a failure with WEIR_SEED=<seed>.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { MultisetTable } from "../src/table/data/changelog.ts";
import { Row } from "../src/table/data/row.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { batchResult } from "./support/duckdb-oracle.ts";
import { killLoop } from "./support/e2e-kill-loop.ts";
import { hiddenFiles, writeOrders } from "./support/e2e-orders.ts";
import { nexmarkBatchResults } from "./support/nexmark-sql.ts";
import { nexmarkSqlScript } from "../bench/jobs/nexmark/sql-queries.ts";

const SEED = testSeed();
const KILLS = 3;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/**
 * The committed changelog in `dir` (part files in the order they were
 * finished), folded; `row` makes a table row of a Debezium record's image.
 */
function foldDebezium(dir: string, row: (image: Record<string, unknown>, kind: "+I" | "-D") => Row): Row[] {
  const parts = readdirSync(dir)
    .filter((f) => !f.startsWith("."))
    .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => a.t - b.t || (a.f < b.f ? -1 : 1));
  const table = new MultisetTable();
  for (const { f } of parts) {
    for (const line of readFileSync(join(dir, f), "utf8").split("\n")) {
      if (line === "") continue;
      const e = JSON.parse(line) as { op: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null };
      table.apply(e.op === "d" ? row(e.before!, "-D") : row(e.after!, "+I"));
    }
  }
  return table.sortedRows();
}

it(`weir run of an updating SQL query killed at random moments folds to the batch result (seed ${SEED})`, async () => {
  const root = mkdtempSync(join(tmpdir(), "weir-sql-kill-loop-"));
  dirs.push(root);
  const [input, output, checkpoints] = ["in", "out", "chk"].map((d) => join(root, d)) as [string, string, string];
  const files = writeOrders(input, SEED, 2, 25_000, 40);
  const random = seededRandom(SEED);
  const interval = randomInt(random, 100, 300);
  const command = [
    "run", "test/fixtures/sql-changelog-job.ts",
    "--parallelism", "2", "--workers", "2", "--checkpoint-interval", String(interval), "--checkpoint-dir", checkpoints,
    "--", input, output, "60000",
  ];
  const report = await killLoop({ command, checkpointDir: checkpoints, kills: KILLS, random, delayMs: [0, 400], timeoutMs: 90_000 });
  const where = `WEIR_SEED=${SEED}, checkpoint interval ${interval} ms, kills ${JSON.stringify(report.kills)}`;
  expect(report.kills.length, `${where}: a run finished before ${KILLS} kills`).toBe(KILLS);
  expect(report.last.code, `${where}: last run\n${report.last.stderr}`).toBe(0);
  expect(hiddenFiles(output), `${where}: in-progress files left`).toEqual([]);
  const rows = files.flat().map((o) => [o.key, BigInt(o.id), o.amount]);
  const expected = await batchResult(
    [{ name: "orders", columns: '"key" VARCHAR, id BIGINT, amount INTEGER', rows }],
    'SELECT "key", COUNT(*), CAST(SUM(amount) AS INTEGER), MAX(id) FROM orders GROUP BY "key"',
  );
  const orderTotal = (r: Record<string, unknown>, kind: "+I" | "-D") => Row.ofKind(kind, r.key as string, BigInt(r.cnt as number), r.total as number, BigInt(r.last_id as number));
  expect(foldDebezium(output, orderTotal).map((r) => Row.toString(r)), where).toEqual(new MultisetTable().applyAll(expected).sortedRows().map((r) => Row.toString(r)));
}, 240_000);

it(`weir sql -f of Nexmark q4 into debezium-json killed at random moments folds to the batch result (seed ${SEED})`, async () => {
  const root = mkdtempSync(join(tmpdir(), "weir-sql-client-kill-loop-"));
  dirs.push(root);
  const [output, checkpoints] = ["out", "chk"].map((d) => join(root, d)) as [string, string];
  // 5 s of events on the wall clock, so that every run, however fast the machine, is killed before it ends.
  const stream = { events: 100_000, eventsPerSecond: 20_000, rateLimited: true, dir: root };
  const q4 = nexmarkSqlScript("q4", stream);
  const script = join(root, "q4.sql");
  writeFileSync(
    script,
    [
      ...q4.setup,
      `CREATE TABLE q4_out (id BIGINT, final BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '${output}', 'format' = 'debezium-json')`,
      `INSERT INTO q4_out ${q4.select}`,
    ].join(";\n") + ";\n",
  );
  const random = seededRandom(SEED);
  const interval = randomInt(random, 100, 300);
  const command = ["sql", "-f", script, "--parallelism", "2", "--workers", "2", "--checkpoint-interval", String(interval), "--checkpoint-dir", checkpoints];
  const report = await killLoop({ command, checkpointDir: checkpoints, kills: KILLS, random, delayMs: [0, 400], timeoutMs: 90_000 });
  const where = `WEIR_SEED=${SEED}, checkpoint interval ${interval} ms, kills ${JSON.stringify(report.kills)}`;
  expect(report.kills.length, `${where}: a run finished before ${KILLS} kills`).toBe(KILLS);
  expect(report.last.code, `${where}: last run\n${report.last.stderr}`).toBe(0);
  expect(hiddenFiles(output), `${where}: in-progress files left`).toEqual([]);
  const expected = (await nexmarkBatchResults(stream)).get("q4")!;
  const categoryAverage = (r: Record<string, unknown>, kind: "+I" | "-D") => Row.ofKind(kind, BigInt(r.id as number), BigInt(r.final as number));
  expect(foldDebezium(output, categoryAverage).map((r) => Row.toString(r)), where).toEqual(new MultisetTable().applyAll(expected).sortedRows().map((r) => Row.toString(r)));
}, 240_000);
