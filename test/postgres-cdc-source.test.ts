/**
 * The PostgreSQL CDC source's reader against a real server (a private cluster with logical replication):
 * the snapshot and the stream are exact, a restore from a taken state resumes exactly (also in the middle
 * of a transaction and in the middle of the snapshot), the slot's confirmed position moves only when a
 * checkpoint completes, and what a user can get wrong fails clearly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresCdcError } from "../src/connectors/postgres/postgres-cdc-errors.ts";
import { PostgresConnectionError } from "../src/connectors/postgres/postgres-errors.ts";
import { cdcSource, driveReader, materialize, opsById } from "./support/postgres-cdc-reader.ts";
import { sharedPostgres, type SharedPostgres } from "./support/shared-postgres.ts";

let server: SharedPostgres;
let n = 0;

beforeAll(async () => {
  server = await sharedPostgres();
}, 60_000);

afterAll(() => server?.release());

/** A fresh database with table `t (id int primary key, v text)` holding `rows` rows. */
async function database(rows: number, identity: "default" | "full" = "default"): Promise<string> {
  const db = await server.createDatabase(`cdc${++n}`);
  await server.query(`CREATE TABLE t (id int PRIMARY KEY, v text)`, [], db);
  if (identity === "full") await server.query(`ALTER TABLE t REPLICA IDENTITY FULL`, [], db);
  if (rows > 0) await server.query(`INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, ${rows}) g`, [], db);
  return db;
}

const sql = (db: string, text: string) => server.query(text, [], db);
const confirmed = async (slot: string) => (await server.query<{ lsn: string }>(`SELECT confirmed_flush_lsn::text AS lsn FROM pg_replication_slots WHERE slot_name = $1`, [slot]))[0]?.lsn;

describe("PostgresSource reader", () => {
  it("reads a consistent snapshot, then the changes after it, with before images under REPLICA IDENTITY FULL", async () => {
    const db = await database(500, "full");
    const r = driveReader(cdcSource(server, db, `s${n}${server.suffix}`, ["public.t"], { fetchSize: 64 }));
    try {
      // changes made while the snapshot is read are not in it but come from the stream
      await r.pollUntil((e) => e.length >= 10);
      await sql(db, `UPDATE t SET v = 'changed' WHERE id = 500; DELETE FROM t WHERE id = 1; INSERT INTO t VALUES (501, 'new')`);
      await r.pollUntil((e) => e.length >= 503, { what: "snapshot + 3 changes" });
      const reads = r.events.filter((e) => e.op === "r");
      expect(reads.map((e) => Number(e.after!["id"]))).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
      expect(reads.every((e) => e.source.snapshot && e.before === null)).toBe(true);
      expect(opsById(r.events.slice(500))).toEqual(["u:500", "d:1", "c:501"]);
      const [u, d] = r.events.slice(500);
      expect(u!.before).toEqual({ id: "500", v: "v500" });
      expect(u!.after).toEqual({ id: "500", v: "changed" });
      expect(d!.before).toEqual({ id: "1", v: "v1" });
      expect(u!.source.lsn).toBe(d!.source.lsn); // one transaction
      expect(u!.key).toEqual(["id"]);
    } finally {
      await r.close();
    }
  });

  it("without REPLICA IDENTITY FULL: deletes carry the key, updates no before image unless the key changed", async () => {
    const db = await database(2);
    const r = driveReader(cdcSource(server, db, `s${n}${server.suffix}`, ["t"]));
    try {
      await r.pollUntil((e) => e.length >= 2);
      await sql(db, `UPDATE t SET v = 'x' WHERE id = 1`);
      await sql(db, `UPDATE t SET id = 20 WHERE id = 2`);
      await sql(db, `DELETE FROM t WHERE id = 1`);
      await r.pollUntil((e) => e.length >= 5);
      const [u1, u2, d] = r.events.slice(2);
      expect(u1).toMatchObject({ op: "u", before: null, after: { id: "1", v: "x" } });
      expect(u2).toMatchObject({ op: "u", before: { id: "2", v: null }, after: { id: "20", v: "v2" } });
      expect(d).toMatchObject({ op: "d", before: { id: "1", v: null }, after: null });
    } finally {
      await r.close();
    }
  });

  it("confirms a position to the server only when the checkpoint holding it completes", async () => {
    const db = await database(3);
    const slot = `s${n}${server.suffix}`;
    const r = driveReader(cdcSource(server, db, slot, ["t"]));
    try {
      await r.pollUntil((e) => e.length >= 3);
      const created = await confirmed(slot);
      await sql(db, `INSERT INTO t VALUES (4, 'a')`);
      await r.pollUntil((e) => e.length >= 4);
      const [state] = r.reader.snapshotState(1);
      expect(state!.phase).toBe("stream");
      await sql(db, `INSERT INTO t VALUES (5, 'b')`);
      await r.pollUntil((e) => e.length >= 5);
      // polled past it, checkpoint 1 taken but not complete: the slot still holds everything
      await new Promise((res) => setTimeout(res, 300));
      expect(await confirmed(slot)).toBe(created);
      r.reader.notifyCheckpointComplete!(1);
      const deadline = Date.now() + 10_000;
      while ((await confirmed(slot)) !== state!.lsn && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
      expect(await confirmed(slot)).toBe(state!.lsn);
    } finally {
      await r.close();
    }
  });

  it("resumes exactly from a state taken in the middle of a transaction", async () => {
    const db = await database(0);
    const slot = `s${n}${server.suffix}`;
    const source = cdcSource(server, db, slot, ["t"]);
    const first = driveReader(source);
    await first.pollUntil(() => first.reader.snapshotState(-1)[0]!.phase === "stream", { what: "the stream" });
    await sql(db, `INSERT INTO t SELECT g, 'a' FROM generate_series(1, 10) g`);
    await sql(db, `INSERT INTO t SELECT g, 'b' FROM generate_series(11, 20) g`);
    // one record a poll: a poll may return part of what the server has sent so far, so larger batches could pass 14
    await first.pollUntil((e) => e.length >= 14, { batch: 1 }); // the first transaction and 4 of the second
    expect(first.events.length).toBe(14);
    const [state] = first.reader.snapshotState(7);
    expect(state!.txn?.emitted).toBe(4);
    first.reader.notifyCheckpointComplete!(7);
    await first.pollUntil((e) => e.length >= 20); // emitted after the state: lost with the "crash"
    await first.close();
    await sql(db, `DELETE FROM t WHERE id <= 5`);
    const second = driveReader(source, state);
    try {
      await second.pollUntil((e) => e.length >= 11);
      await new Promise((res) => setTimeout(res, 200));
      await second.pollOnce(100);
      expect(opsById(second.events)).toEqual([...Array.from({ length: 6 }, (_, i) => `c:${15 + i}`), ...[1, 2, 3, 4, 5].map((i) => `d:${i}`)]);
    } finally {
      await second.close();
    }
  });

  it("resumes a snapshot interrupted mid-table from a new snapshot, and streams exactly the changes the pieces did not see", async () => {
    const db = await database(300);
    const slot = `s${n}${server.suffix}`;
    const source = cdcSource(server, db, slot, ["t"], { fetchSize: 50 });
    const first = driveReader(source);
    await first.pollUntil((e) => e.length >= 120, { batch: 10 });
    const [state] = first.reader.snapshotState(1);
    expect(state!.phase).toBe("snapshot");
    expect(state!.pieces![0]!.upTo).toEqual({ table: 0, key: ["120"] });
    await first.close();
    // changes after the first snapshot: on rows it read (must come from the stream) and on rows it did not (from the new snapshot)
    await sql(db, `UPDATE t SET v = 'u' WHERE id IN (10, 200); DELETE FROM t WHERE id IN (11, 201); INSERT INTO t VALUES (1000, 'n')`);
    await sql(db, `UPDATE t SET id = 1500 WHERE id = 12`); // the key leaves the range the first snapshot read
    await sql(db, `UPDATE t SET id = 0 WHERE id = 250`); // key enters the read range
    const second = driveReader(source, state);
    try {
      await second.pollUntil(() => second.reader.snapshotState(-1)[0]!.phase === "stream", { what: "the stream", batch: 10 });
      await sql(db, `UPDATE t SET v = 'after' WHERE id IN (1, 299)`);
      await second.pollUntil((e) => e.some((x) => x.after?.["v"] === "after" && x.after["id"] === "299"));
      expect(second.reader.snapshotState(-1)[0]!.pieces).toBeUndefined();
      const all = materialize([...first.events.slice(0, 120), ...second.events]);
      const expected = await sql(db, `SELECT id::text, v FROM t ORDER BY id`);
      const got = new Set(all.keys());
      const want = new Set(expected.map((r) => r["id"] as string));
      expect({ missing: [...want].filter((k) => !got.has(k)), extra: [...got].filter((k) => !want.has(k)) }).toEqual({ missing: [], extra: [] });
      const diff = expected.filter((row) => JSON.stringify(all.get(row["id"] as string)) !== JSON.stringify(row));
      expect(diff.map((row) => [row, all.get(row["id"] as string)])).toEqual([]);
      // no row twice: every snapshot read of the second run is above the first run's last key
      expect(second.events.filter((e) => e.op === "r").every((e) => Number(e.after!["id"]) > 120)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it("refuses an unknown table, a table without primary key, and a wrong password, naming them", async () => {
    const db = await database(0);
    await sql(db, `CREATE TABLE nokey (a int)`);
    for (const [tables, message] of [
      [["public.missing"], /table public\.missing does not exist/],
      [["nokey"], /table public\.nokey .* has no primary key/],
    ] as const) {
      const r = driveReader(cdcSource(server, db, `s${n}${server.suffix}_${tables[0]!.length}`, [...tables]));
      await expect(r.pollUntil(() => false, { timeoutMs: 10_000 })).rejects.toThrow(message);
      await r.close();
    }
    const wrong = driveReader(cdcSource(server, db, `s${n}${server.suffix}_pw`, ["t"], { user: "weir_secure", password: "nope" }));
    const error = await wrong.pollUntil(() => false, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresConnectionError);
    expect((error as Error).message).toMatch(/refused the login.*check the user and password/);
    await wrong.close();
    expect(() => cdcSource(server, db, "Bad-Slot", ["t"])).toThrow(PostgresCdcError);
  });
});
