/**
 * Exactly-once SQL through real crashes (`npm run test:long`): `weir run` of
 * an updating query (an aggregation per key) from JSON files into a
 * `debezium-json` filesystem table, at parallelism 2 on 2 workers, is
 * SIGKILLed at seeded random moments and started again with the same command
 * until a run finishes. The committed changelog, folded, is exactly the same
 * query's batch result (DuckDB). Reproduce a failure with WEIR_SEED=<seed>.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { MultisetTable } from "../src/table/data/changelog.ts";
import { Row } from "../src/table/data/row.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { batchResult } from "./support/duckdb-oracle.ts";
import { foldDebezium } from "./support/debezium-fold.ts";
import { expectLoopEndedCleanly, killLoop } from "./support/e2e-kill-loop.ts";
import { hiddenFiles, writeOrders } from "./support/e2e-orders.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const SEED = testSeed();
const KILLS = 3;
const newDir = tempDirs("weir-sql-kill-loop-");

it(`weir run of an updating SQL query killed at random moments folds to the batch result (seed ${SEED})`, async () => {
  const root = newDir();
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
  expectLoopEndedCleanly(report, KILLS, where);
  expect(hiddenFiles(output), `${where}: in-progress files left`).toEqual([]);
  const rows = files.flat().map((o) => [o.key, BigInt(o.id), o.amount]);
  const expected = await batchResult(
    [{ name: "orders", columns: '"key" VARCHAR, id BIGINT, amount INTEGER', rows }],
    'SELECT "key", COUNT(*), CAST(SUM(amount) AS INTEGER), MAX(id) FROM orders GROUP BY "key"',
  );
  const orderTotal = (r: Record<string, unknown>, kind: "+I" | "-D") => Row.ofKind(kind, r.key as string, BigInt(r.cnt as number), r.total as number, BigInt(r.last_id as number));
  expect(foldDebezium(output, orderTotal).map((r) => Row.toString(r)), where).toEqual(new MultisetTable().applyAll(expected).sortedRows().map((r) => Row.toString(r)));
}, 240_000);

