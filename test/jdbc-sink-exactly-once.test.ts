/**
 * The exactly-once JDBC sink against a real PostgreSQL: a checkpoint's rows sit in a prepared transaction
 * (invisible) until the checkpoint completes; after a crash the restored prepared transaction is committed
 * and what was prepared after the checkpoint is rolled back; a transaction committed before the crash is
 * recognised by its xid, one rolled back by hand fails loudly as lost; a job with an injected failure
 * writes each row once; a server with max_prepared_transactions = 0 is refused at start, naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RestartStrategies, StreamExecutionEnvironment, WatermarkStrategy } from "../src/index.ts";
import { JdbcSink, JdbcTransactionLostError, type JdbcSinkOptions } from "../src/connectors/postgres/index.ts";
import { startSubtask } from "../src/connectors/file/test-file-sink-harness.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { FailOnce } from "./support/fail-once.ts";
import { startPostgres } from "./support/postgres-server.ts";
import { sharedPostgres, type SharedPostgres } from "./support/shared-postgres.ts";
import { preparedTransactions, rowCount } from "./support/postgres-wait.ts";

let server: SharedPostgres;
beforeAll(async () => {
  server = await sharedPostgres();
}, 60_000);
afterAll(() => server?.release());

/** A fresh database with `ddl` run in it (default: the table `t` of the sinks below). */
const database = (ddl = "CREATE TABLE t (v TEXT NOT NULL)") => server.freshDatabase(ddl);

function eoSink(db: string, more: Partial<JdbcSinkOptions> = {}): JdbcSink<string> {
  return JdbcSink.forStatement<string>("INSERT INTO t (v) VALUES (?)", (v) => [v], {
    url: server.jdbcUrl(db),
    deliveryGuarantee: "exactly-once",
    transactionIdPrefix: `eo-${db}`,
    batchSize: 2,
    ...more,
  });
}

async function values(db: string): Promise<string[]> {
  return (await server.query<{ v: string }>("SELECT v FROM t ORDER BY v", [], db)).map((r) => r.v);
}

describe("JdbcSink exactly-once, one subtask driven by hand", () => {
  it("rows are prepared at the barrier, invisible, and committed when the checkpoint completes", async () => {
    const db = await database();
    const t = await startSubtask<string>(eoSink(db), { uid: "jdbc-out" });
    for (const v of ["a", "b", "c"]) t.writer.write(v);
    await t.writer.flush!();
    await t.checkpoint(1);
    expect(await preparedTransactions(server, db)).toEqual([expect.stringMatching(new RegExp(`^eo-${db}-0-[0-9a-f]+-0-0$`))]);
    expect(await values(db)).toEqual([]);
    t.writer.write("d");
    await t.writer.notifyCheckpointComplete(1);
    expect(await values(db)).toEqual(["a", "b", "c"]);
    expect(await preparedTransactions(server, db)).toEqual([]);
    await t.writer.close!();
    expect(await values(db)).toEqual(["a", "b", "c"]);
    expect(await preparedTransactions(server, db)).toEqual([]);
  });

  it("after a crash the restored transaction is committed and what was prepared after its checkpoint rolled back", async () => {
    const db = await database();
    const t = await startSubtask<string>(eoSink(db), { uid: "jdbc-out" });
    t.writer.write("a");
    t.writer.write("b");
    await t.writer.flush!();
    const blob = await t.checkpoint(1); // prepared; checkpoint 1 completes, the process dies before the commit
    // What a later attempt of the dead run prepared (its checkpoint never completed):
    await server.query(`BEGIN; INSERT INTO t VALUES ('z'); PREPARE TRANSACTION 'eo-${db}-0-ff-9-0'`, [], db);
    expect(await preparedTransactions(server, db)).toHaveLength(2);
    const r = await startSubtask<string>(eoSink(db), { uid: "jdbc-out", blobs: [blob], attempt: 1 });
    expect(await values(db)).toEqual(["a", "b"]);
    expect(await preparedTransactions(server, db)).toEqual([]);
    expect(r.logs.join("\n")).toMatch(new RegExp(`committed prepared transaction 'eo-${db}-0-[0-9a-f]+-0-0' of checkpoint 1`));
    expect(r.logs.join("\n")).toMatch(new RegExp(`rolled back leftover prepared transaction 'eo-${db}-0-ff-9-0'`));
    r.writer.write("c");
    await r.writer.flush!();
    await r.checkpoint(2);
    await r.writer.notifyCheckpointComplete(2);
    expect(await values(db)).toEqual(["a", "b", "c"]);
    await r.writer.close!();
    await (t.writer.close!() as Promise<void>);
  });

  it("a transaction committed before the crash is recognised by its xid; one rolled back since fails loudly as lost", async () => {
    const db = await database();
    const t = await startSubtask<string>(eoSink(db), { uid: "jdbc-out" });
    t.writer.write("a");
    await t.writer.flush!();
    const committed = await t.checkpoint(1);
    await t.writer.notifyCheckpointComplete(1);
    t.writer.write("b");
    await t.writer.flush!();
    const lost = await t.checkpoint(2);
    await t.writer.close!();

    const again = await startSubtask<string>(eoSink(db), { uid: "jdbc-out", blobs: [committed], attempt: 1 });
    expect(again.logs.join("\n")).toMatch(/prepared transaction '.*-0-0' of checkpoint 1 was committed before \(xid \d+\)/);
    await again.writer.close!();
    expect(await values(db)).toEqual(["a"]);

    // Restored from checkpoint 1, the sink rolled back checkpoint 2's prepared transaction as a leftover: restoring checkpoint 2 now finds it aborted.
    expect(await preparedTransactions(server, db)).toEqual([]);
    await expect(startSubtask<string>(eoSink(db), { uid: "jdbc-out", blobs: [lost], attempt: 2 })).rejects.toThrow(JdbcTransactionLostError);
    await expect(startSubtask<string>(eoSink(db), { uid: "jdbc-out", blobs: [lost], attempt: 2 })).rejects.toThrow(
      /prepared transaction '.*-0-1' \(xid \d+\) of completed checkpoint 2 no longer exists and PostgreSQL reports it 'aborted': its rows are lost/,
    );
  });

  it("rows that meet an uncommitted prepared transaction at the barrier stay unwritten, in the checkpoint, and are written once later", async () => {
    const db = await database("CREATE TABLE t (v TEXT PRIMARY KEY, n INT NOT NULL DEFAULT 1)");
    const upsert = () =>
      JdbcSink.forStatement<string>("INSERT INTO t (v) VALUES (?) ON CONFLICT (v) DO UPDATE SET n = t.n + 1", (v) => [v], {
        url: server.jdbcUrl(db),
        deliveryGuarantee: "exactly-once",
        transactionIdPrefix: `eo-${db}`,
        batchSize: 1,
      });
    const t = await startSubtask<string>(upsert(), { uid: "jdbc-out" });
    t.writer.write("a");
    await t.writer.flush!();
    await t.checkpoint(1); // prepared; its notification has not come: it holds the lock of "a"
    t.writer.write("a"); // held back (the batch is full: the writer is blocked until the commit)
    t.writer.write("b");
    expect(t.writer.blocked!()).toBeInstanceOf(Promise);
    await t.writer.flush!(); // the barrier comes before the notification: nothing is sent
    const blob = await t.checkpoint(2);
    expect(await preparedTransactions(server, db)).toHaveLength(1);
    // A restore from checkpoint 2 commits checkpoint 1's transaction and writes the held rows once.
    const r = await startSubtask<string>(upsert(), { uid: "jdbc-out", blobs: [blob], attempt: 1 });
    await r.writer.flush!();
    await r.checkpoint(3);
    await r.writer.notifyCheckpointComplete(3);
    expect(await server.query("SELECT v, n FROM t ORDER BY v", [], db)).toEqual([{ v: "a", n: 2 }, { v: "b", n: 1 }]);
    await r.writer.close!();
    // Without the crash: the notification commits checkpoint 1, the held rows go into the next transaction.
    await t.writer.notifyCheckpointComplete(1);
    await t.writer.flush!();
    await t.checkpoint(3);
    expect(await preparedTransactions(server, db)).toHaveLength(1);
    // At the end of the input the task waits, taking the notification that commits checkpoint 3's
    // transaction, and the held row goes into the final transaction.
    t.writer.write("c");
    await t.writer.finish!();
    const settled = t.writer.settleAtEnd!();
    expect(settled).toBeInstanceOf(Promise);
    await t.writer.notifyCheckpointComplete(3);
    await settled;
    await t.writer.flush!();
    await t.checkpoint(4);
    await t.writer.notifyCheckpointComplete(4);
    // (both branches wrote into the same table: "a" and "b" count the restored run's rows too)
    expect(await server.query("SELECT v, n FROM t ORDER BY v", [], db)).toEqual([{ v: "a", n: 3 }, { v: "b", n: 2 }, { v: "c", n: 1 }]);
    expect(await preparedTransactions(server, db)).toEqual([]);
    await t.writer.close!();
  });

  it("an upsert whose batch holds a key twice runs in a savepoint and falls back to one row per statement", async () => {
    const db = await database("CREATE TABLE t (k TEXT PRIMARY KEY, n INT NOT NULL)");
    const sink = JdbcSink.forStatement<string>("INSERT INTO t VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET n = t.n + EXCLUDED.n", (v) => [v, 1], {
      url: server.jdbcUrl(db),
      deliveryGuarantee: "exactly-once",
      batchSize: 10,
    });
    const t = await startSubtask<string>(sink, { uid: "jdbc-upsert" });
    for (const v of ["a", "b", "a", "c", "a"]) t.writer.write(v);
    await t.writer.flush!();
    await t.checkpoint(1);
    await t.writer.notifyCheckpointComplete(1);
    expect(await server.query("SELECT k, n FROM t ORDER BY k", [], db)).toEqual([{ k: "a", n: 3 }, { k: "b", n: 1 }, { k: "c", n: 1 }]);
    await t.writer.close!();
  });
});

describe("JdbcSink exactly-once in jobs", () => {
  it("through an injected failure and restart, each row once; no prepared transaction left", async () => {
    const db = await database();
    const n = 3000;
    const all = Array.from({ length: n }, (_, i) => `v-${String(i).padStart(5, "0")}`);
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env.enableCheckpointing(50, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    env
      .fromSource(throttledSequence(0, n - 1, 20, 2), WatermarkStrategy.noWatermarks(), "numbers")
      .uid("numbers")
      .map(new FailOnce(all, Math.floor(n / 3)))
      .uid("values")
      .sinkTo(eoSink(db, { batchSize: 100 }))
      .uid("jdbc-out");
    const result = await env.execute("jdbc-exactly-once");
    expect(result.restarts).toBe(1);
    expect(await values(db)).toEqual(all);
    expect(await preparedTransactions(server, db)).toEqual([]);
  }, 30_000);

  it("a server with max_prepared_transactions = 0 fails the job at start, naming the setting", async () => {
    const no2pc = await startPostgres({ max_prepared_transactions: "0" });
    try {
      await no2pc.query("CREATE TABLE t (v TEXT)");
      const env = StreamExecutionEnvironment.create({ parallelism: 1 });
      env.enableCheckpointing(50, "exactly-once");
      env.setRestartStrategy(RestartStrategies.noRestart());
      const sink = JdbcSink.forStatement<number>("INSERT INTO t VALUES (?)", (v) => [String(v)], { url: no2pc.jdbcUrl(), deliveryGuarantee: "exactly-once" });
      env.fromSource(throttledSequence(0, 9, 10, 1), WatermarkStrategy.noWatermarks(), "numbers").uid("numbers").sinkTo(sink).uid("jdbc-out");
      await expect(env.execute("no-2pc")).rejects.toThrow(/JdbcSink 'jdbc-out' subtask 1\/1 .*max_prepared_transactions = 0.*Set max_prepared_transactions/);
      expect(await rowCount(no2pc, "postgres", "t")).toBe(0);
    } finally {
      await no2pc.stop();
    }
  }, 30_000);
});
