/**
 * Exactly-once end to end into PostgreSQL under real crashes: `weir run` (FileSource → keyBy → running
 * total in keyed state → exactly-once JdbcSink, one prepared transaction per subtask per checkpoint) at
 * parallelism 3 on 2 workers, SIGKILLed at seeded random moments and restarted with the same command until
 * a run ends (the killed runs wait 1 ms per order at a gate, opened for the last run: none ends before its
 * kill): the table holds exactly the output of a failure-free run and no prepared transaction is left.
 * And WEIR_FAULT=kill-before-commit: the process dies after a checkpoint completed and before its COMMIT
 * PREPARED; the rerun commits it from the checkpoint. Reproduce a failure with WEIR_SEED=<seed>.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { runCli, startCli } from "./support/cli-process.ts";
import { completedCheckpointIds, expectLoopEndedCleanly, finish, killLoop } from "./support/e2e-kill-loop.ts";
import { describeDiff, diffTotals, expectedTotals, writeOrders, type E2eTotal } from "./support/e2e-orders.ts";
import { sharedPostgres, type SharedPostgres } from "./support/shared-postgres.ts";
import { preparedTransactions, rowCount } from "./support/postgres-wait.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const SEED = testSeed();
const KILLS = 4;
const newDir = tempDirs("weir-jdbc-kill-loop-");
let server: SharedPostgres;

beforeAll(async () => {
  server = await sharedPostgres();
}, 90_000);
afterAll(() => server?.release());

/** A new database (`name` with the file's suffix) with an empty `totals` table; returns its name. */
async function totalsTable(name: string): Promise<string> {
  const db = await server.createDatabase(name);
  await server.query("CREATE TABLE totals (id BIGINT NOT NULL, key TEXT NOT NULL, count INT NOT NULL, total BIGINT NOT NULL)", [], db);
  return db;
}

async function totals(db: string): Promise<E2eTotal[]> {
  const rows = await server.query<{ id: string; key: string; count: number; total: string }>("SELECT id, key, count, total FROM totals", [], db);
  return rows.map((r) => ({ id: Number(r.id), key: r.key, count: r.count, total: Number(r.total) }));
}

it(`weir run into an exactly-once JdbcSink at parallelism 3 on 2 workers, SIGKILLed ${KILLS} times (seed ${SEED}): each row once, nothing left prepared`, async () => {
  const db = await totalsTable("kill_loop");
  const root = newDir();
  const files = writeOrders(join(root, "in"), SEED, 4, 8_000, 25);
  const random = seededRandom(SEED);
  const interval = randomInt(random, 100, 300);
  const [checkpoints, gate] = [join(root, "chk"), join(root, "gate")];
  const command = [
    "run", "test/fixtures/jdbc-running-total-job.ts",
    "--parallelism", "3", "--workers", "2", "--checkpoint-interval", String(interval), "--mode", "exactly-once", "--checkpoint-dir", checkpoints,
    // small channel batches: a killed run gets as far as its first checkpoint, whose barrier waits behind the orders
    // buffered on the channels (each 1 ms at the gate); with 512 per batch, 3 killed runs once read every order
    "-D", "weir.batch-size=64",
    "--", join(root, "in"), server.jdbcUrl(db), "kill-loop", "0", "200", gate,
  ];
  const report = await killLoop({ command, checkpointDir: checkpoints, kills: KILLS, random, delayMs: [0, 400], timeoutMs: 90_000, beforeLastRun: () => writeFileSync(gate, "") });
  const where = `seed ${SEED} (WEIR_SEED=${SEED}), checkpoint interval ${interval} ms, kills ${JSON.stringify(report.kills)}`;
  expectLoopEndedCleanly(report, KILLS, where);
  const diff = diffTotals(expectedTotals(files), await totals(db));
  expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, `${where}: ${describeDiff(diff)}`).toBe(0);
  expect(await preparedTransactions(server, db), `${where}: prepared transactions left`).toEqual([]);
}, 300_000);

it(`WEIR_FAULT=kill-before-commit: killed between a checkpoint's completion and its COMMIT PREPARED, the rerun commits it; each row once (seed ${SEED})`, async () => {
  const db = await totalsTable("commit_crash");
  const root = newDir();
  const files = writeOrders(join(root, "in"), SEED, 2, 5_000, 25);
  const checkpoints = join(root, "chk");
  const command = [
    "run", "test/fixtures/jdbc-running-total-job.ts",
    "--parallelism", "2", "--checkpoint-interval", "100", "--mode", "exactly-once", "--checkpoint-dir", checkpoints,
    "--", join(root, "in"), server.jdbcUrl(db), "commit-crash", "2000", "100",
  ];
  const crashed = await finish(startCli(command, { WEIR_FAULT: "kill-before-commit" }), 60_000);
  expect(crashed.signal, `the run was not killed (exit ${crashed.code})\n${crashed.stderr}`).toBe("SIGKILL");
  expect(completedCheckpointIds(checkpoints).length).toBeGreaterThan(0);
  const prepared = await preparedTransactions(server, db);
  expect(prepared.length, "no prepared transaction after the kill").toBeGreaterThan(0);
  expect(prepared.every((gid) => gid.startsWith("commit-crash-"))).toBe(true);
  expect(await rowCount(server, db, "totals"), "the checkpoint's rows were committed before the kill").toBeLessThan(10_000);

  const rerun = await runCli(command, 60_000);
  expect(rerun.code, rerun.stderr).toBe(0);
  expect(rerun.stderr).toMatch(/restored from checkpoint \d+/);
  expect(rerun.stderr).toMatch(/committed prepared transaction 'commit-crash-\d-[0-9a-f]+-0-\d+' of checkpoint \d+/);
  const diff = diffTotals(expectedTotals(files), await totals(db));
  expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, describeDiff(diff)).toBe(0);
  expect(await preparedTransactions(server, db)).toEqual([]);
}, 120_000);
