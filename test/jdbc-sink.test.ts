/**
 * The at-least-once JDBC sink against a real PostgreSQL (a private server): appends, upserts (also with a
 * key twice in one multi-row statement), Flink's statement builder with its setters and types, batches
 * by size and by interval (on an injected clock), a server restart mid-job (retries on a new connection,
 * or a job restart: nothing lost), and the errors a user meets before the first row: wrong password,
 * unknown table, a value that does not fit its column.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RestartStrategies, StreamExecutionEnvironment, WatermarkStrategy } from "../src/index.ts";
import { JdbcConnectionOptions, JdbcExecutionOptions, JdbcSink, type JdbcSinkOptions } from "../src/connectors/postgres/index.ts";
import { getLogger } from "../src/util/logger.ts";
import { ManualClock } from "../src/util/clock.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { startPostgres, type PostgresServer } from "./support/postgres-server.ts";
import { rowCount, waitForQuery } from "./support/postgres-wait.ts";

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.stop());


function options(db: string, more: Partial<JdbcSinkOptions> = {}): JdbcSinkOptions {
  return { url: server.jdbcUrl(db), username: "postgres", ...more };
}

/** A job writing 0..n-1 through `sink`. */
async function run(n: number, sink: JdbcSink<number>, parallelism = 2): Promise<void> {
  const env = StreamExecutionEnvironment.create({ parallelism });
  env.enableCheckpointing(50, "exactly-once");
  env.setRestartStrategy(RestartStrategies.noRestart());
  env.fromSource(throttledSequence(0, n - 1, 500, 1), WatermarkStrategy.noWatermarks(), "numbers").uid("numbers").sinkTo(sink).uid("jdbc-out");
  await env.execute("jdbc-sink");
}

describe("JdbcSink (at-least-once) against PostgreSQL", () => {
  it("appends every record, in multi-row statements", async () => {
    const db = await server.freshDatabase("CREATE TABLE t (n BIGINT NOT NULL, label TEXT)");
    await run(5000, JdbcSink.forStatement<number>("INSERT INTO t (n, label) VALUES (?, ?)", (n) => [n, `v-${n}`], options(db, { batchSize: 300 })));
    const rows = await server.query<{ count: string; distinct: string; sum: string; bad: string }>(
      "SELECT count(*) AS count, count(DISTINCT n) AS distinct, sum(n) AS sum, count(*) FILTER (WHERE label <> 'v-' || n) AS bad FROM t", [], db);
    expect(rows[0]).toEqual({ count: "5000", distinct: "5000", sum: String((4999 * 5000) / 2), bad: "0" });
  }, 30_000);

  it("upserts: the last value per key, also when a batch holds a key twice (multi-row falls back to one row per statement)", async () => {
    const db = await server.freshDatabase("CREATE TABLE t (k INT PRIMARY KEY, n BIGINT NOT NULL, hits INT NOT NULL DEFAULT 1)");
    const sql = "INSERT INTO t (k, n) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET n = EXCLUDED.n, hits = t.hits + 1";
    await run(3000, JdbcSink.forStatement<number>(sql, (n) => [n % 100, n], options(db, { batchSize: 250 })), 1);
    const rows = await server.query<{ k: number; n: string; hits: number }>("SELECT k, n, hits FROM t ORDER BY k", [], db);
    expect(rows).toEqual(Array.from({ length: 100 }, (_, k) => ({ k, n: String(2900 + k), hits: 30 })));
  }, 30_000);

  it("Flink's form: JdbcSink.sink with a statement builder's setters, and the types they write", async () => {
    const db = await server.freshDatabase("CREATE TABLE t (id BIGINT PRIMARY KEY, price NUMERIC(12,2), ok BOOLEAN, at TIMESTAMPTZ, day DATE, raw BYTEA, note TEXT, x DOUBLE PRECISION)");
    const connection = JdbcConnectionOptions.builder().withUrl(server.jdbcUrl(db)).withUsername("postgres").withDriverName("org.postgresql.Driver").build();
    const sink = JdbcSink.sink<number>(
      "INSERT INTO t (id, price, ok, at, day, raw, note, x) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      (ps, n) => {
        ps.setLong(1, BigInt(n) + 9_007_199_254_740_000n);
        ps.setBigDecimal(2, `${n}.25`);
        ps.setBoolean(3, n % 2 === 0);
        ps.setTimestamp(4, Date.UTC(2024, 0, 1) + n * 1000);
        ps.setDate(5, new Date(Date.UTC(2024, 1, 1 + (n % 20))));
        ps.setBytes(6, new Uint8Array([n % 256, 255]));
        if (n % 3 === 0) ps.setNull(7, 12);
        else ps.setString(7, `n'${n}`);
        ps.setDouble(8, n / 4);
      },
      JdbcExecutionOptions.builder().withBatchSize(7).withMaxRetries(0).build(),
      connection,
    );
    await run(40, sink);
    const rows = await server.query<Record<string, string>>(
      "SELECT id::text, price::text, ok::text, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS at, day::text, encode(raw, 'hex') AS raw, note, x::text FROM t WHERE id = 9007199254740013",
      [], db);
    expect(rows).toEqual([{ id: "9007199254740013", price: "13.25", ok: "false", at: "2024-01-01 00:00:13", day: "2024-02-14", raw: "0dff", note: "n'13", x: "3.25" }]);
    expect((await server.query<{ c: string }>("SELECT count(*) AS c FROM t WHERE note IS NULL", [], db))[0]!.c).toBe("14");
  }, 30_000);

  it("a batch leaves when full, or when the batch interval has passed since its first row (injected clock)", async () => {
    const db = await server.freshDatabase("CREATE TABLE t (n INT)");
    const clock = new ManualClock(0);
    const count = () => rowCount(server, db, "t");
    const sink = JdbcSink.forStatement<number>("INSERT INTO t VALUES (?)", (n) => [n], options(db, { batchSize: 5, batchIntervalMs: 1000 }));
    const writer = sink.createWriter({ jobId: "j", subtaskIndex: 0, parallelism: 1, operatorUid: "jdbc-out", attempt: 0, reportResult: () => undefined, clock, logger: getLogger() });
    await (writer as unknown as { open(): Promise<void> }).open();
    const t = { writer };
    for (let n = 0; n < 3; n++) t.writer.write(n);
    clock.advance(999);
    await new Promise((r) => setTimeout(r, 100));
    expect(await count()).toBe(0);
    clock.advance(1);
    await waitForQuery("the interval's batch", async () => (await count()) === 3, 10_000, 10);
    for (let n = 3; n < 8; n++) t.writer.write(n);
    await waitForQuery("the full batch", async () => (await count()) === 8, 10_000, 10);
    await t.writer.close!();
  }, 30_000);

  it("the server restarting mid-job: batches are retried on a new connection or the job restarts; nothing is lost", async () => {
    const db = await server.freshDatabase("CREATE TABLE t (k INT PRIMARY KEY, n INT NOT NULL)");
    const count = () => rowCount(server, db, "t");
    let limit = 2000;
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env.enableCheckpointing(50, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(5, 200));
    env
      .fromSource(throttledSequence(0, 3999, 100, 2, 0, () => limit), WatermarkStrategy.noWatermarks(), "numbers")
      .uid("numbers")
      .sinkTo(JdbcSink.forStatement<number>("INSERT INTO t VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET n = EXCLUDED.n", (n) => [n, n * 2], options(db, { batchSize: 50, batchIntervalMs: 20 })))
      .uid("jdbc-out");
    const done = env.execute("jdbc-restart");
    await waitForQuery("rows before the restart", async () => (await count()) >= 500, 20_000, 20);
    await server.restart();
    limit = 4000;
    await done;
    expect(await server.query("SELECT count(*)::int AS c, sum(k)::int AS k, count(*) FILTER (WHERE n <> 2 * k)::int AS bad FROM t", [], db)).toEqual([{ c: 4000, k: 7_998_000, bad: 0 }]);
  }, 60_000);
});

describe("JdbcSink errors, before the first row", () => {
  async function fails(sink: JdbcSink<number>): Promise<Error> {
    const started = Date.now();
    const e = await run(10, sink, 1).then(() => new Error("the job did not fail"), (err: unknown) => err as Error);
    expect(Date.now() - started, "failed at once").toBeLessThan(10_000);
    return e;
  }

  it("a wrong password names the server, the user and what to check", async () => {
    const db = await server.freshDatabase("CREATE TABLE t (n INT)");
    const e = await fails(JdbcSink.forStatement<number>("INSERT INTO t VALUES (?)", (n) => [n], options(db, { username: "weir_secure", password: "wrong" })));
    expect(e.message).toMatch(new RegExp(`127\\.0\\.0\\.1:${server.port}/${db} as weir_secure.*refused the login.*check the user and password`));
  }, 30_000);

  it("an unknown table is named with the statement", async () => {
    const db = await server.freshDatabase("SELECT 1");
    const e = await fails(JdbcSink.forStatement<number>("INSERT INTO missing (n) VALUES (?)", (n) => [n], options(db)));
    expect(e.message).toMatch(/JdbcSink 'jdbc-out' subtask 1\/1.*relation "missing" does not exist \(SQLSTATE 42P01\); the table does not exist.*\n  statement: INSERT INTO missing \(n\) VALUES \(\$1\)/s);
  }, 30_000);

  it("a value that does not fit its column's type names the value, the type and the statement", async () => {
    const db = await server.freshDatabase("CREATE TABLE t (n INTEGER)");
    const e = await fails(JdbcSink.forStatement<number>("INSERT INTO t (n) VALUES (?)", (n) => [`x${n}`], options(db)));
    expect(e.message).toMatch(/invalid input syntax for type integer: "x\d+" \(SQLSTATE 22P02\); a value does not fit its column's type/);
  }, 30_000);

  it("a builder that leaves a placeholder unset, or a parameters function with the wrong count, fails naming it", async () => {
    const db = await server.freshDatabase("CREATE TABLE t (a INT, b INT)");
    const connection = JdbcConnectionOptions.builder().withUrl(server.jdbcUrl(db)).build();
    const e1 = await fails(JdbcSink.sink<number>("INSERT INTO t VALUES (?, ?)", (ps, n) => ps.setInt(1, n), connection));
    expect(e1.message).toMatch(/no value for parameter 2 of 2/);
    const e2 = await fails(JdbcSink.forStatement<number>("INSERT INTO t VALUES (?, ?)", (n) => [n], options(db)));
    expect(e2.message).toMatch(/returned 1 values, the statement has 2 placeholders/);
  }, 30_000);
});
