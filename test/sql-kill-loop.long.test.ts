/**
 * Exactly-once SQL through real crashes: `weir sql -f` of Nexmark q4 (a join
 * and two levels of aggregation, so updates retract) on the nexmark connector
 * into a `debezium-json` filesystem table, at parallelism 2 on 2 workers, is
 * SIGKILLed at seeded random moments and started again with the same command
 * until a run finishes. The committed changelog, folded, is exactly the
 * query's batch result (DuckDB). The twin of an updating query in a `weir run`
 * job is in sql-kill-loop-updating-query.long.test.ts (`npm run test:long`).
 * Reproduce a failure with WEIR_SEED=<seed>.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { MultisetTable } from "../src/table/data/changelog.ts";
import { Row } from "../src/table/data/row.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { foldDebezium } from "./support/debezium-fold.ts";
import { expectLoopEndedCleanly, killLoop } from "./support/e2e-kill-loop.ts";
import { hiddenFiles } from "./support/e2e-orders.ts";
import { nexmarkBatchResults } from "./support/nexmark-sql.ts";
import { tempDirs } from "./support/temp-dirs.ts";
import { nexmarkSqlScript } from "../bench/jobs/nexmark/sql-queries.ts";

const SEED = testSeed();
const KILLS = 3;
const newDir = tempDirs("weir-sql-client-kill-loop-");

it(`weir sql -f of Nexmark q4 into debezium-json killed at random moments folds to the batch result (seed ${SEED})`, async () => {
  const root = newDir();
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
  expectLoopEndedCleanly(report, KILLS, where);
  expect(hiddenFiles(output), `${where}: in-progress files left`).toEqual([]);
  const expected = (await nexmarkBatchResults(stream)).get("q4")!;
  const categoryAverage = (r: Record<string, unknown>, kind: "+I" | "-D") => Row.ofKind(kind, BigInt(r.id as number), BigInt(r.final as number));
  expect(foldDebezium(output, categoryAverage).map((r) => Row.toString(r)), where).toEqual(new MultisetTable().applyAll(expected).sortedRows().map((r) => Row.toString(r)));
}, 240_000);
