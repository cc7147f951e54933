/**
 * The exactly-once variant of jdbc-upsert-kill-loop-at-least-once.long.test.ts (`npm run test:long`): the same updating query into
 * the jdbc table sink with 'sink.delivery-guarantee' = 'exactly-once' (prepared transactions), SIGKILLed 5
 * times: the table equals DuckDB's batch result and no prepared transaction is left.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Row } from "../src/table/data/row.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { batchResult } from "./support/duckdb-oracle.ts";
import { expectLoopEndedCleanly, killLoop } from "./support/e2e-kill-loop.ts";
import { writeOrders } from "./support/e2e-orders.ts";
import { sharedPostgres, type SharedPostgres } from "./support/shared-postgres.ts";
import { preparedTransactions } from "./support/postgres-wait.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const SEED = testSeed();
const KILLS = 5;
const newDir = tempDirs("weir-jdbc-upsert-eo-kill-loop-");
let server: SharedPostgres;

beforeAll(async () => {
  server = await sharedPostgres();
}, 60_000);
afterAll(() => server?.release());

it(`an updating query into an exactly-once jdbc table, SIGKILLed ${KILLS} times at parallelism 3 (seed ${SEED}): DuckDB's batch result, nothing left prepared`, async () => {
  const db = await server.createDatabase("upsert_eo_loop");
  await server.query("CREATE TABLE totals (key TEXT PRIMARY KEY, cnt BIGINT NOT NULL, total INTEGER NOT NULL, last_id BIGINT NOT NULL)", [], db);
  const root = newDir();
  const files = writeOrders(join(root, "in"), SEED, 3, 20_000, 40);
  const random = seededRandom(SEED);
  const interval = randomInt(random, 100, 300);
  const checkpoints = join(root, "chk");
  const gate = join(root, "gate");
  const command = [
    "run", "test/fixtures/jdbc-upsert-query-job.ts",
    "--parallelism", "3", "--workers", "2", "--checkpoint-interval", String(interval), "--mode", "exactly-once", "--checkpoint-dir", checkpoints,
    // small channel batches: a killed run gets as far as its first checkpoint, whose barrier waits behind the rows
    // buffered on the channels (each 1 ms at the gate); with 512 per batch, 2 killed runs once read every row
    "-D", "weir.batch-size=64",
    "--", join(root, "in"), server.jdbcUrl(db), "exactly-once", "30000", "upsert-eo", gate,
  ];
  // the killed runs wait at a gate (1 ms a row), so none ends before its kill; the last one runs free
  const report = await killLoop({ command, checkpointDir: checkpoints, kills: KILLS, random, delayMs: [0, 400], timeoutMs: 120_000, beforeLastRun: () => writeFileSync(gate, "") });
  const where = `WEIR_SEED=${SEED}, checkpoint interval ${interval} ms, kills ${JSON.stringify(report.kills)}`;
  expectLoopEndedCleanly(report, KILLS, where);
  const expected = await batchResult(
    [{ name: "orders", columns: '"key" VARCHAR, id BIGINT, amount INTEGER', rows: files.flat().map((o) => [o.key, BigInt(o.id), o.amount]) }],
    'SELECT "key", COUNT(*), CAST(SUM(amount) AS INTEGER), MAX(id) FROM orders GROUP BY "key" ORDER BY "key"',
  );
  const actual = await server.query<{ key: string; cnt: string; total: number; last_id: string }>("SELECT key, cnt, total, last_id FROM totals ORDER BY key COLLATE \"C\"", [], db);
  expect(actual.map((r) => Row.toString(Row.of(r.key, BigInt(r.cnt), r.total, BigInt(r.last_id)))), where).toEqual(expected.map((r) => Row.toString(Row.of(...r.fields))));
  expect(await preparedTransactions(server, db), where).toEqual([]);
}, 600_000);
