/**
 * The jdbc table sink (jdbc-table-sink.ts) against a real PostgreSQL, built on a hand-made JdbcTableConfig
 * (the `jdbc` factory is pglookup's): a changelog with every row kind upserts by key (last change per key
 * in a batch, `-U` dropped by its `+U`, `-D` deletes, a lone `-U` deletes), at batch sizes 1 and 100 and
 * exactly-once; a table without a key appends, SQL types round trip; declared columns that do not match
 * the PostgreSQL table fail the job at start naming table and column.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RestartStrategies, StreamExecutionEnvironment } from "../src/index.ts";
import { jdbcTableSink } from "../src/table/connectors/jdbc-table-sink.ts";
import type { JdbcTableSinkConfig } from "../src/table/connectors/jdbc-table-config.ts";
import { tableContext } from "../src/table/connectors/test-table-context.ts";
import { Row } from "../src/table/data/row.ts";
import { RowKind } from "../src/table/data/row-kind.ts";
import { decimal } from "../src/table/types/decimal.ts";
import type { SqlValue } from "../src/table/types/sql-value.ts";
import { jdbcTableConfig } from "./support/jdbc-table-config.ts";
import { sharedPostgres, type SharedPostgres } from "./support/shared-postgres.ts";
import { preparedTransactions } from "./support/postgres-wait.ts";

let server: SharedPostgres;
beforeAll(async () => {
  server = await sharedPostgres();
}, 60_000);
afterAll(() => server?.release());


/** Writes `rows` (in one subtask, in order) through the jdbc table sink of the declared table `declared`. */
async function write(db: string, declared: string, rows: Row[], sink: Partial<JdbcTableSinkConfig> = {}, table = "t"): Promise<void> {
  const env = StreamExecutionEnvironment.create({ parallelism: 1 });
  env.enableCheckpointing(50, "exactly-once");
  env.setRestartStrategy(RestartStrategies.noRestart());
  const ctx = tableContext(env, `CREATE TABLE t (${declared}) WITH ('connector' = 'blackhole')`, "jdbc-t");
  jdbcTableSink(ctx, jdbcTableConfig(server.jdbcUrl(db), table, sink)).consume(env.fromElements(...rows));
  await env.execute("jdbc-table-sink");
}

const r = (kind: RowKind, ...fields: SqlValue[]): Row => ({ kind, fields });

describe("jdbc table sink", () => {
  const changes = [
    r(RowKind.INSERT, "a", 1n),
    r(RowKind.INSERT, "b", 1n),
    r(RowKind.INSERT, "c", 1n),
    r(RowKind.UPDATE_BEFORE, "a", 1n),
    r(RowKind.UPDATE_AFTER, "a", 2n),
    r(RowKind.DELETE, "b", 1n),
    r(RowKind.UPDATE_BEFORE, "c", 1n), // no +U follows: c goes
    r(RowKind.INSERT, "d", 1n),
    r(RowKind.DELETE, "d", 1n),
    r(RowKind.INSERT, "d", 7n),
    r(RowKind.UPDATE_BEFORE, "a", 2n),
    r(RowKind.UPDATE_AFTER, "a", 3n),
  ];
  for (const [label, sink] of [
    ["a batch per row", { maxRows: 1 }],
    ["one batch", { maxRows: 100 }],
    ["exactly-once", { deliveryGuarantee: "exactly-once" as const, transactionalIdPrefix: "tsink-eo" }],
  ] as const) {
    it(`upserts by the primary key: last change per key wins, -D and a lone -U delete (${label})`, async () => {
      const db = await server.freshDatabase("CREATE TABLE t (k VARCHAR(10) PRIMARY KEY, n BIGINT NOT NULL)");
      await write(db, "k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED", changes, sink);
      expect(await server.query("SELECT k, n::int FROM t ORDER BY k", [], db)).toEqual([{ k: "a", n: 3 }, { k: "d", n: 7 }]);
      expect(await preparedTransactions(server, db)).toEqual([]);
    }, 30_000);
  }

  it("a composite key; a table whose columns are all key columns", async () => {
    const db = await server.freshDatabase("CREATE TABLE t (a INT, b TEXT, v TEXT, PRIMARY KEY (a, b)); CREATE TABLE k (a INT, b TEXT, PRIMARY KEY (a, b))");
    await write(db, "a INT, b STRING, v STRING, PRIMARY KEY (a, b) NOT ENFORCED", [
      r(RowKind.INSERT, 1, "x", "first"),
      r(RowKind.INSERT, 1, "y", "other"),
      r(RowKind.INSERT, 2, "x", "gone"),
      r(RowKind.UPDATE_AFTER, 1, "x", "second"),
      r(RowKind.DELETE, 2, "x", "gone"),
    ]);
    expect(await server.query("SELECT a, b, v FROM t ORDER BY a, b", [], db)).toEqual([{ a: 1, b: "x", v: "second" }, { a: 1, b: "y", v: "other" }]);
    await write(db, "a INT, b STRING, PRIMARY KEY (a, b) NOT ENFORCED", [r(RowKind.INSERT, 1, "x"), r(RowKind.INSERT, 1, "x"), r(RowKind.INSERT, 2, "y"), r(RowKind.DELETE, 2, "y")], { maxRows: 1 }, "k");
    expect(await server.query("SELECT a, b FROM k", [], db)).toEqual([{ a: 1, b: "x" }]);
  }, 30_000);

  it("appends without a key; SQL values reach their PostgreSQL types", async () => {
    const db = await server.freshDatabase(
      "CREATE TABLE t (i INT, l BIGINT, d NUMERIC(10,2), s TEXT, b BOOLEAN, ts TIMESTAMP, ltz TIMESTAMPTZ, day DATE, raw BYTEA, xs INT[], f DOUBLE PRECISION)",
    );
    const ts = Date.UTC(2024, 2, 3, 4, 5, 6, 789);
    const row = r(RowKind.INSERT, 7, 9_007_199_254_740_993n, decimal(1234567891n, 2), "it's", true, ts, ts, 19_000, new Uint8Array([1, 2, 255]), [1, null, 3], 0.5);
    await write(db, "i INT, l BIGINT, d DECIMAL(10, 2), s STRING, b BOOLEAN, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), day DATE, raw BYTES, xs ARRAY<INT>, f DOUBLE", [row, row]);
    const out = await server.query("SELECT i, l::text, d::text, s, b, ts::text, (ltz AT TIME ZONE 'UTC')::text AS ltz, day::text, encode(raw, 'hex') AS raw, xs::text, f FROM t", [], db);
    expect(out).toEqual(
      Array(2).fill({ i: 7, l: "9007199254740993", d: "12345678.91", s: "it's", b: true, ts: "2024-03-03 04:05:06.789", ltz: "2024-03-03 04:05:06.789", day: "2022-01-08", raw: "0102ff", xs: "{1,NULL,3}", f: 0.5 }),
    );
  }, 30_000);

  describe("declared columns that do not match fail the job at start, naming the table and column", () => {
    for (const [what, declared, message] of [
      ["a column of another type", "k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED", /table 'default_catalog\.default_database\.t' does not match the PostgreSQL table public\.t:\n  column 'n': BIGINT values do not fit in integer/],
      ["a missing column", "k STRING, m INT, PRIMARY KEY (k) NOT ENFORCED", /column 'm' does not exist in public\.t \(its columns: k, n\)/],
    ] as const) {
      it(what, async () => {
        const db = await server.freshDatabase("CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER)");
        await expect(write(db, declared, [r(RowKind.INSERT, "a", 1n)])).rejects.toThrow(message);
        expect(await server.query("SELECT count(*)::int AS c FROM t", [], db)).toEqual([{ c: 0 }]);
      }, 30_000);
    }

    it("an unknown table", async () => {
      const db = await server.freshDatabase("SELECT 1");
      await expect(write(db, "k STRING, n INT", [r(RowKind.INSERT, "a", 1)])).rejects.toThrow(
        new RegExp(`table 'default_catalog\\.default_database\\.t': the PostgreSQL table 't' does not exist in 127\\.0\\.0\\.1:${server.port}/${db} as postgres`),
      );
    }, 30_000);

    it("a declared key without a unique index in PostgreSQL", async () => {
      const db = await server.freshDatabase("CREATE TABLE t (k TEXT, n INTEGER)");
      await expect(write(db, "k STRING, n INT, PRIMARY KEY (k) NOT ENFORCED", [r(RowKind.INSERT, "a", 1)])).rejects.toThrow(
        /there is no unique or exclusion constraint matching the ON CONFLICT specification \(SQLSTATE 42P10\)/,
      );
    }, 30_000);
  });
});
