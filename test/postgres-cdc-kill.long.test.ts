/**
 * The PostgreSQL CDC source under real crashes: `weir run` (PostgresSource → JSON lines → exactly-once
 * FileSink) is SIGKILLed at seeded random moments — the first time during the initial snapshot — while a
 * writer inserts, updates and deletes rows, and started again with the same command. The committed lines
 * hold every snapshot row once and every change the writer committed once, in per-row commit order.
 * And the server going away mid-job (a restart): the job fails over, reconnects and loses nothing.
 * Reproduce a failure with WEIR_SEED=<seed>.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { startCli, waitFor, type RunningCli } from "./support/cli-process.ts";
import { latestCheckpointId, pause } from "./support/e2e-kill-loop.ts";
import { startPostgres, type PostgresServer } from "./support/postgres-server.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const SEED = testSeed();
const ROWS = 10_000;
const KILLS = 4;
const newDir = tempDirs("weir-pg-cdc-kill-");
let server: PostgresServer;

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.stop());

interface Line {
  op: string;
  before: { id: string; v: string } | null;
  after: { id: string; v: string } | null;
}

/** The committed lines of the FileSink in `dir`, in commit order (part files by their counter). */
function committed(dir: string): Line[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith("part-"));
  } catch {
    return [];
  }
  const counter = (n: string) => Number(/(\d+)(?:\.\w+)?$/.exec(n)?.[1] ?? 0);
  names.sort((a, b) => counter(a) - counter(b));
  return names.flatMap((n) => readFileSync(join(dir, n), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Line));
}

it(`weir run of a PostgreSQL CDC job, SIGKILLed ${KILLS} times while a writer changes the table (seed ${SEED}): every snapshot row and every change exactly once, in order`, async () => {
  const random = seededRandom(SEED);
  const db = await server.createDatabase("killdb");
  await server.query(`CREATE TABLE t (id int PRIMARY KEY, v text NOT NULL)`, [], db);
  await server.query(`ALTER TABLE t REPLICA IDENTITY FULL`, [], db);
  await server.query(`INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, ${ROWS}) g`, [], db);
  const dir = newDir();
  const out = join(dir, "out");
  const checkpoints = join(dir, "chk");
  const interval = randomInt(random, 100, 250);
  const command = ["run", "test/fixtures/postgres-cdc-job.ts", "--checkpoint-interval", String(interval), "--mode", "exactly-once", "--checkpoint-dir", checkpoints, "--", server.host, String(server.port), db, "kill_slot", out];
  const where = `seed ${SEED} (WEIR_SEED=${SEED}), checkpoint interval ${interval} ms`;

  // the writer: every change gives its row a new unique value, so each change is one recognizable line
  const expected: Line[] = [];
  const live = new Map<number, string>();
  for (let i = 1; i <= ROWS; i++) live.set(i, `v${i}`);
  let writing = true;
  let nextId = ROWS + 1;
  let version = 0;
  const writer = (async () => {
    const pg = (await import("pg")).default;
    const client = new pg.Client(server.config(db));
    await client.connect();
    try {
      while (writing) {
        await client.query("BEGIN");
        const changes: Line[] = [];
        for (let k = randomInt(random, 1, 3); k > 0; k--) {
          const roll = random();
          const ids = [...live.keys()];
          const id = ids[randomInt(random, 0, ids.length - 1)]!;
          const v = `w${++version}`;
          if (roll < 0.4) {
            const nid = nextId++;
            await client.query(`INSERT INTO t VALUES ($1, $2)`, [nid, v]);
            changes.push({ op: "c", before: null, after: { id: String(nid), v } });
            live.set(nid, v);
          } else if (roll < 0.8) {
            await client.query(`UPDATE t SET v = $2 WHERE id = $1`, [id, v]);
            changes.push({ op: "u", before: { id: String(id), v: live.get(id)! }, after: { id: String(id), v } });
            live.set(id, v);
          } else {
            await client.query(`DELETE FROM t WHERE id = $1`, [id]);
            changes.push({ op: "d", before: { id: String(id), v: live.get(id)! }, after: null });
            live.delete(id);
          }
        }
        await client.query("COMMIT");
        expected.push(...changes);
        await pause(randomInt(random, 0, 5));
      }
    } finally {
      await client.end();
    }
  })();

  const runs: RunningCli[] = [];
  const kills: string[] = [];
  try {
    for (let k = 0; k < KILLS; k++) {
      const before = latestCheckpointId(checkpoints);
      const run = startCli(command);
      runs.push(run);
      await waitFor(`a checkpoint after ${before} (${where})\n${run.stderr()}`, () => latestCheckpointId(checkpoints) > before, 60_000, 20);
      await pause(randomInt(random, 0, k === 0 ? 100 : 600));
      run.child.kill("SIGKILL");
      await run.done;
      kills.push(`${committed(out).filter((l) => l.op === "r").length} snapshot rows committed at kill ${k + 1}`);
    }
    writing = false;
    await writer;
    const last = startCli(command);
    runs.push(last);
    // end markers, each the last change and the last row in key order: once one arrives as a change from the
    // stream (not as a row of a snapshot the last run may still be reading), everything before it was emitted
    for (let k = 0; !committed(out).some((l) => l.op === "c" && l.after!.v.startsWith("end")); k++) {
      const id = 2_000_000_000 + k;
      await server.query(`INSERT INTO t VALUES (${id}, 'end${k}')`, [], db);
      expected.push({ op: "c", before: null, after: { id: String(id), v: `end${k}` } });
      await waitFor(`end marker ${k} in the output (${where})\n${last.stderr()}`, () => committed(out).some((l) => l.after?.v === `end${k}`), 60_000, 50);
    }
    expect(last.stderr(), where).toMatch(/restored from checkpoint \d+/);
  } finally {
    writing = false;
    for (const r of runs) r.child.kill("SIGKILL");
    await writer.catch(() => {});
  }

  const lines = committed(out);
  const context = `${where}; ${kills.join("; ")}`;
  // per row: the snapshot read it once in some version, then exactly the writer's later changes follow in
  // commit order; or (a row the writer inserted after its part of the snapshot was read) all its changes
  const strip = (l: Line) => JSON.stringify({ op: l.op, before: l.before, after: l.after });
  const history = new Map<string, Line[]>();
  for (const l of expected) {
    const id = (l.after ?? l.before)!.id;
    history.set(id, [...(history.get(id) ?? []), l]);
  }
  const output = new Map<string, Line[]>();
  for (const l of lines) {
    const id = (l.after ?? l.before)!.id;
    output.set(id, [...(output.get(id) ?? []), l]);
  }
  const problems: unknown[] = [];
  for (const id of new Set([...history.keys(), ...output.keys(), ...Array.from({ length: ROWS }, (_, i) => String(i + 1))])) {
    const changes = history.get(id) ?? [];
    const got = output.get(id) ?? [];
    const initial = Number(id) >= 1 && Number(id) <= ROWS;
    // the versions of the row: before any change (initial rows), then after each change
    const versions = [initial ? `v${id}` : undefined, ...changes.map((c) => c.after?.v)];
    let rest = got;
    let from = initial ? 0 : -1;
    if (got[0]?.op === "r") {
      from = versions.indexOf(got[0].after!.v);
      rest = got.slice(1);
      if (from < 0) problems.push({ id, problem: "read a version the row never had", got: got[0] });
    } else if (initial && got.length > 0) problems.push({ id, problem: "changes of a row the snapshot did not read", got });
    if (from < 0 && !initial && got[0]?.op !== "r") from = 0;
    const want = got.length === 0 && versions.at(-1) === undefined ? [] : changes.slice(Math.max(0, from)).map(strip);
    if (JSON.stringify(rest.map(strip)) !== JSON.stringify(want)) problems.push({ id, want, got: got.map(strip) });
  }
  expect(problems.slice(0, 5), context).toEqual([]);
  const table = await server.query<{ id: number; v: string }>(`SELECT id, v FROM t`, [], db);
  expect(table.length, context).toBe(live.size + expected.filter((e) => e.after?.v.startsWith("end") === true).length);
  expect(lines.filter((l) => l.op === "r").length, context).toBeGreaterThan(0);
}, 300_000);

it("a PostgreSQL restart under a running CDC job: the job restarts from its checkpoint and every row arrives once", async () => {
  const db = await server.createDatabase("restartdb");
  await server.query(`CREATE TABLE t (id int PRIMARY KEY, v text NOT NULL)`, [], db);
  await server.query(`ALTER TABLE t REPLICA IDENTITY FULL`, [], db);
  await server.query(`INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, 1000) g`, [], db);
  const dir = newDir();
  const out = join(dir, "out");
  const command = ["run", "test/fixtures/postgres-cdc-job.ts", "--checkpoint-interval", "100", "--mode", "exactly-once", "--checkpoint-dir", join(dir, "chk"), "--", server.host, String(server.port), db, "restart_slot", out];
  const run = startCli(command);
  try {
    const ids = () => committed(out).map((l) => (l.after ?? l.before)!.id);
    await waitFor(`the snapshot in the output\n${run.stderr()}`, () => ids().length >= 1000, 60_000, 50);
    await server.query(`INSERT INTO t SELECT g, 'c' || g FROM generate_series(1001, 1100) g`, [], db);
    await waitFor(`the first inserts\n${run.stderr()}`, () => ids().length >= 1050, 60_000, 50);
    await server.restart();
    await server.query(`INSERT INTO t SELECT g, 'c' || g FROM generate_series(1101, 1200) g`, [], db);
    await waitFor(`every row after the restart\n${run.stderr()}`, () => new Set(ids()).size >= 1200, 90_000, 50);
    await pause(500); // a duplicate would come with the next checkpoints
    const all = ids();
    expect(new Set(all).size).toBe(1200);
    expect(all.length, run.stderr()).toBe(1200);
    expect(run.stderr()).toMatch(/restart/i);
  } finally {
    run.child.kill("SIGKILL");
    await run.done;
  }
}, 150_000);
