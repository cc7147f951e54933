/**
 * A database fed back into itself under crashes: `weir sql -f` reads a PostgreSQL table through the
 * `postgres-cdc` connector, aggregates it per region and upserts the totals into another PostgreSQL table
 * through the `jdbc` connector, while a writer inserts, updates (also moving rows between regions) and
 * deletes, and the run is SIGKILLed at seeded random moments and started again. Once the writer stops,
 * the totals table converges to the same aggregate run by PostgreSQL itself over the source table (a
 * region whose rows are all gone is deleted). Reproduce a failure with WEIR_SEED=<seed>.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../../src/util/seeded-random.ts";
import { startCli, waitFor, type RunningCli } from "../support/cli-process.ts";
import { latestCheckpointId, pause } from "../support/e2e-kill-loop.ts";
import { sharedPostgres, type SharedPostgres } from "../support/shared-postgres.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const SEED = testSeed();
const ROWS = 2_000;
const KILLS = 3;
const REGIONS = ["EU", "US", "APAC", "LATAM", "MEA"];
const newDir = tempDirs("weir-pg-cdc-jdbc-");
let server: SharedPostgres;

beforeAll(async () => {
  server = await sharedPostgres();
}, 60_000);
afterAll(() => server?.release());

type Totals = Record<string, string>;

async function totals(db: string, sql: string): Promise<Totals> {
  const rows = await server.query<{ region: string; n: string; total: string }>(sql, [], db);
  return Object.fromEntries(rows.map((r) => [r.region, `${r.n}/${r.total}`]));
}

it(`postgres-cdc → GROUP BY → jdbc upsert, SIGKILLed ${KILLS} times while a writer changes the source (seed ${SEED}): the totals equal PostgreSQL's own query`, async () => {
  const random = seededRandom(SEED);
  const db = await server.createDatabase("shop");
  await server.query(`CREATE TABLE accounts (id int PRIMARY KEY, region text NOT NULL, balance bigint NOT NULL)`, [], db);
  await server.query(`ALTER TABLE accounts REPLICA IDENTITY FULL`, [], db);
  await server.query(`INSERT INTO accounts SELECT g, (ARRAY['EU','US','APAC','LATAM'])[1 + g % 4], g * 10 FROM generate_series(1, ${ROWS}) g`, [], db);
  await server.query(`CREATE TABLE region_totals (region text PRIMARY KEY, n bigint NOT NULL, total bigint NOT NULL)`, [], db);

  const dir = newDir();
  const script = join(dir, "totals.sql");
  writeFileSync(
    script,
    `CREATE TABLE accounts (id INT, region STRING, balance BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'postgres-cdc', 'hostname' = '127.0.0.1', 'port' = '${server.port}', 'username' = 'postgres', 'password' = '',
  'database-name' = '${db}', 'schema-name' = 'public', 'table-name' = 'accounts', 'slot.name' = 'totals_slot${server.suffix}');
CREATE TABLE region_totals (region STRING, n BIGINT, total BIGINT, PRIMARY KEY (region) NOT ENFORCED) WITH (
  'connector' = 'jdbc', 'url' = '${server.jdbcUrl(db)}', 'table-name' = 'region_totals', 'username' = 'postgres',
  'sink.buffer-flush.interval' = '50 ms');
INSERT INTO region_totals SELECT region, COUNT(*), SUM(balance) FROM accounts GROUP BY region;
`,
  );
  const checkpoints = join(dir, "chk");
  const interval = randomInt(random, 100, 300);
  const command = ["sql", "-f", script, "--parallelism", "2", "--checkpoint-interval", String(interval), "--checkpoint-dir", checkpoints];
  const where = `WEIR_SEED=${SEED}, checkpoint interval ${interval} ms`;

  let writing = true;
  let nextId = ROWS + 1;
  const writer = (async () => {
    const client = new pg.Client(server.config(db));
    await client.connect();
    try {
      while (writing) {
        const roll = random();
        const id = randomInt(random, 1, nextId - 1);
        const region = REGIONS[randomInt(random, 0, REGIONS.length - 1)]!;
        if (roll < 0.3) await client.query(`INSERT INTO accounts VALUES ($1, $2, $3)`, [nextId++, region, randomInt(random, 1, 1000)]);
        else if (roll < 0.6) await client.query(`UPDATE accounts SET balance = balance + $2 WHERE id = $1`, [id, randomInt(random, -50, 50)]);
        else if (roll < 0.85) await client.query(`UPDATE accounts SET region = $2 WHERE id = $1`, [id, region]);
        else await client.query(`DELETE FROM accounts WHERE id = $1`, [id]);
        await pause(randomInt(random, 0, 3));
      }
      // the last rows of one region go: its total must be deleted
      await client.query(`DELETE FROM accounts WHERE region = 'MEA'`);
    } finally {
      await client.end();
    }
  })();

  const runs: RunningCli[] = [];
  try {
    for (let k = 0; k < KILLS; k++) {
      const before = latestCheckpointId(checkpoints);
      const run = startCli(command);
      runs.push(run);
      await waitFor(`a checkpoint after ${before} (${where})\n${run.stderr()}`, () => latestCheckpointId(checkpoints) > before, 90_000, 20);
      await pause(randomInt(random, 0, 500));
      run.child.kill("SIGKILL");
      await run.done;
    }
    writing = false;
    await writer;
    const last = startCli(command);
    runs.push(last);
    const truth = "SELECT region, COUNT(*) AS n, SUM(balance) AS total FROM accounts GROUP BY region";
    const expected = await totals(db, truth);
    // converged once the totals equal PostgreSQL's (generous deadline; a mismatch then shows both)
    let got: Totals = {};
    const same = () => JSON.stringify(Object.entries(got).sort()) === JSON.stringify(Object.entries(expected).sort());
    for (const deadline = Date.now() + 90_000; Date.now() < deadline; await pause(200)) {
      got = await totals(db, "SELECT region, n, total FROM region_totals");
      if (same()) break;
    }
    expect(got, `${where}\n${last.stderr()}`).toEqual(expected);
    expect(expected["MEA"], where).toBeUndefined();
    expect(last.stderr(), where).toMatch(/restored from checkpoint \d+/);
  } finally {
    writing = false;
    for (const r of runs) r.child.kill("SIGKILL");
    await writer.catch(() => {});
  }
}, 300_000);
