/**
 * `'connector' = 'jdbc'` against a real PostgreSQL: a bounded scan (every mapped type round trips, a
 * projection reads only its columns), lookup joins (INNER, LEFT, NULL keys, a residual condition, an
 * updating left input keeps its order), the PARTIAL cache on an injected clock (rows stay cached until they
 * expire, missing keys too), lookups that retry through a server restart mid-job, and the errors that come
 * before the job starts (no such table, a column type that does not fit, a wrong password).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { RestartStrategies } from "../../src/index.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { Schema } from "../../src/table/api/schema.ts";
import { Row } from "../../src/table/data/row.ts";
import { ManualClock, type Clock } from "../../src/util/clock.ts";
import { jsonResult, runCli } from "../support/cli-process.ts";
import { startPostgres, type PostgresServer } from "../support/postgres-server.ts";

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
  await server.query("CREATE TABLE rates (currency varchar(3) PRIMARY KEY, rate numeric(10,4) NOT NULL, region text)");
  await server.query("INSERT INTO rates VALUES ('EUR', 1.1000, 'eu'), ('GBP', 1.2500, 'eu'), ('JPY', 0.0070, 'asia')");
}, 60_000);
afterAll(() => server?.stop());

function session(options: { clock?: Clock } = {}): { env: StreamExecutionEnvironment; tEnv: StreamTableEnvironment } {
  const env = StreamExecutionEnvironment.create({ parallelism: 1, ...options });
  return { env, tEnv: StreamTableEnvironment.create(env) };
}

function jdbc(table: string, extra = "", url = server.jdbcUrl()): string {
  return `'connector' = 'jdbc', 'url' = '${url}', 'table-name' = '${table}'${extra === "" ? "" : `, ${extra}`}`;
}

async function rows(tEnv: StreamTableEnvironment, sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of tEnv.executeSql(sql).collect()) out.push(Row.toString(r));
  return out;
}

const ORDER_SCHEMA = Schema.newBuilder().column("id", "INT").column("currency", "STRING").column("amount", "INT").columnByExpression("pt", "PROCTIME()").build();
const RATES = "CREATE TABLE rates (currency STRING, rate DECIMAL(10, 4), region STRING) WITH";

describe("jdbc scan", () => {
  it("reads every mapped type, and a projection reads only its columns", async () => {
    // (Row.toString prints run-time values: bytes signed, DATE in days, TIME in ms of the day, timestamps in epoch ms)
    await server.query(`CREATE TABLE everything (id int PRIMARY KEY, b boolean, s smallint, l bigint, n numeric(12,3), v varchar(20), x text,
      y bytea, dt date, tm time, ts timestamp, tz timestamptz, a integer[], d double precision)`);
    await server.query(`INSERT INTO everything VALUES
      (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
      (1, true, -32768, 9223372036854775807, -123456789.012, 'héllo, "world"', E'a\\nb', '\\x00ff', '2024-03-01', '23:59:59.999',
       '2024-03-01 10:00:00.123', '2024-03-01 10:00:00.123+00', '{1,NULL,3}', 0.1)`);
    const { tEnv } = session();
    tEnv.executeSql(`CREATE TABLE everything (id INT, b BOOLEAN, s SMALLINT, l BIGINT, n DECIMAL(12, 3), v VARCHAR(20), x STRING,
      y BYTES, dt DATE, tm TIME(3), ts TIMESTAMP(3), tz TIMESTAMP_LTZ(3), a ARRAY<INT>, d DOUBLE) WITH (${jdbc("everything", "'scan.fetch-size' = '1'")})`);
    expect(await rows(tEnv, "SELECT * FROM everything")).toEqual([
      '+I[1, true, -32768, 9223372036854775807, -123456789.012, héllo, "world", a\nb, [0, -1], 19783, 86399999, 1709287200123, 1709287200123, [1, null, 3], 0.1]',
      "+I[2, null, null, null, null, null, null, null, null, null, null, null, null, null]",
    ]);
    expect(await rows(tEnv, "SELECT v, id FROM everything WHERE b")).toEqual(['+I[héllo, "world", 1]']);
  });

  it("a partitioned scan reads its ranges in parallel, each row once, also through a restart", async () => {
    await server.query("CREATE TABLE numbers (id int PRIMARY KEY, label text)");
    await server.query("INSERT INTO numbers SELECT g, 'n' || g FROM generate_series(1, 3000) AS g");
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env.enableCheckpointing(10, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    const tEnv = StreamTableEnvironment.create(env);
    let seen = 0;
    tEnv.createTemporarySystemFunction("fail_once", {
      resultType: "INT",
      eval: (n: number) => {
        if (++seen === 2000) throw new Error("injected failure");
        return n;
      },
    });
    const partition = "'scan.partition.column' = 'id', 'scan.partition.num' = '3', 'scan.partition.lower-bound' = '11', 'scan.partition.upper-bound' = '2990'";
    tEnv.executeSql(`CREATE TABLE numbers (id INT, label STRING) WITH (${jdbc("numbers", `${partition}, 'scan.fetch-size' = '50'`)})`);
    const ids = (await rows(tEnv, "SELECT fail_once(id) FROM numbers")).map((r) => Number(/\d+/.exec(r)![0]));
    expect(seen).toBeGreaterThan(2000); // the failure happened, and the job went on
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 2980 }, (_, i) => i + 11)); // rows outside the bounds are not read
  });

  it("a value the declared type cannot hold fails the job, naming the table and the column", async () => {
    await server.query("CREATE TABLE loose (id int PRIMARY KEY, n numeric)");
    await server.query("INSERT INTO loose VALUES (1, 1.5), (2, 123456.789)");
    const { tEnv } = session();
    tEnv.executeSql(`CREATE TABLE loose (id INT, n DECIMAL(5, 2)) WITH (${jdbc("loose")})`);
    await expect(rows(tEnv, "SELECT * FROM loose")).rejects.toThrow(/table 'default_catalog\.default_database\.loose', column 'n': cannot read PostgreSQL value "123456\.789" as DECIMAL\(5, 2\)/);
  });
});

describe("jdbc lookup join", () => {
  it("INNER and LEFT joins by key, NULL keys, a condition, and an updating input in its order", async () => {
    const { env, tEnv } = session();
    tEnv.executeSql(`${RATES} (${jdbc("rates")})`);
    const orders = [
      { id: 1, currency: "EUR", amount: 10 },
      { id: 2, currency: "USD", amount: 20 },
      { id: 3, currency: null, amount: 30 },
      { id: 4, currency: "JPY", amount: 1000 },
      { id: 5, currency: "gbp", amount: 5 },
    ];
    tEnv.createTemporaryView("orders", env.fromCollection(orders), ORDER_SCHEMA);
    const join = (type: string, on = "") =>
      `SELECT o.id, r.currency, o.amount * r.rate AS converted FROM orders AS o ${type} rates FOR SYSTEM_TIME AS OF o.pt AS r ON r.currency = UPPER(o.currency)${on}`;
    expect(await rows(tEnv, join("JOIN"))).toEqual(["+I[1, EUR, 11.0000]", "+I[4, JPY, 7.0000]", "+I[5, GBP, 6.2500]"]);
    expect(await rows(tEnv, join("LEFT JOIN", " AND r.region = 'eu'"))).toEqual([
      "+I[1, EUR, 11.0000]",
      "+I[2, null, null]",
      "+I[3, null, null]",
      "+I[4, null, null]",
      "+I[5, GBP, 6.2500]",
    ]);

    // an updating left input: each change joins in the input's order, whatever answers first
    const changes = [Row.ofKind("+I", 1, "EUR", 1), Row.ofKind("-U", 1, "EUR", 1), Row.ofKind("+U", 1, "JPY", 2), Row.ofKind("-D", 1, "JPY", 2)];
    const changelog = tEnv.fromChangelogStream(env.fromCollection(changes), ORDER_SCHEMA);
    tEnv.createTemporaryView("order_changes", changelog);
    expect(await rows(tEnv, "SELECT o.id, r.currency, r.rate FROM order_changes AS o JOIN rates FOR SYSTEM_TIME AS OF o.pt AS r ON r.currency = o.currency")).toEqual([
      "+I[1, EUR, 1.1000]",
      "-U[1, EUR, 1.1000]",
      "+U[1, JPY, 0.0070]",
      "-D[1, JPY, 0.0070]",
    ]);
  });
});

/** An async iterable of `steps` (each a list of orders) that yields step n only after `release(n)`. */
function gatedOrders(steps: { id: number; currency: string | null; amount: number }[][]) {
  const releases: (() => void)[] = [];
  const gates = steps.map(() => new Promise<void>((resolve) => releases.push(resolve)));
  async function* orders() {
    for (let i = 0; i < steps.length; i++) {
      await gates[i];
      yield* steps[i]!;
    }
  }
  return { orders, release: (n: number) => releases[n]!() };
}

describe("jdbc lookup cache and retries", () => {
  it("PARTIAL cache: rows and missing keys stay cached until they expire on the job's clock", async () => {
    await server.query("CREATE TABLE cached_rates (currency varchar(3) PRIMARY KEY, rate numeric(10,4))");
    await server.query("INSERT INTO cached_rates VALUES ('EUR', 1.1)");
    const clock = new ManualClock(0);
    const { env, tEnv } = session({ clock });
    tEnv.executeSql(`CREATE TABLE cached_rates (currency STRING, rate DECIMAL(10, 4)) WITH (${jdbc(
      "cached_rates",
      "'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '100', 'lookup.partial-cache.expire-after-write' = '10 s'",
    )})`);
    const step = (n: number) => [{ id: n, currency: "EUR", amount: 1 }, { id: n, currency: "CHF", amount: 1 }];
    const { orders, release } = gatedOrders([step(1), step(2), step(3)]);
    tEnv.createTemporaryView("orders", env.fromAsyncIterable(() => orders()), ORDER_SCHEMA);
    const out: string[] = [];
    release(0);
    for await (const r of tEnv.executeSql("SELECT o.id, o.currency, r.rate FROM orders AS o LEFT JOIN cached_rates FOR SYSTEM_TIME AS OF o.pt AS r ON r.currency = o.currency").collect()) {
      out.push(Row.toString(r));
      if (out.length === 2) {
        await server.query("UPDATE cached_rates SET rate = 2 WHERE currency = 'EUR'");
        await server.query("INSERT INTO cached_rates VALUES ('CHF', 0.9)");
        clock.advance(9_999);
        release(1);
      } else if (out.length === 4) {
        clock.advance(1);
        release(2);
      }
    }
    expect(out).toEqual([
      "+I[1, EUR, 1.1000]",
      "+I[1, CHF, null]",
      "+I[2, EUR, 1.1000]", // cached, though the table changed
      "+I[2, CHF, null]", // a cached missing key
      "+I[3, EUR, 2.0000]", // expired 10 s after it was looked up: looked up again
      "+I[3, CHF, 0.9000]",
    ]);
  });

  it("lookups retry on a new connection when the server restarts mid-job", async () => {
    const { env, tEnv } = session();
    tEnv.executeSql(`${RATES} (${jdbc("rates")})`);
    const { orders, release } = gatedOrders([[{ id: 1, currency: "EUR", amount: 1 }], [{ id: 2, currency: "GBP", amount: 1 }]]);
    tEnv.createTemporaryView("orders", env.fromAsyncIterable(() => orders()), ORDER_SCHEMA);
    const out: string[] = [];
    release(0);
    for await (const r of tEnv.executeSql("SELECT o.id, r.currency, r.rate FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.pt AS r ON r.currency = o.currency").collect()) {
      out.push(Row.toString(r));
      if (out.length === 1) {
        await server.restart();
        release(1);
      }
    }
    expect(out).toEqual(["+I[1, EUR, 1.1000]", "+I[2, GBP, 1.2500]"]);
  }, 30_000);
});

describe("jdbc lookup join on worker threads", () => {
  it("each task of `weir run --parallelism 2 --workers 2` looks its keys up", async () => {
    const dir = mkdtempSync(join(tmpdir(), "weir-jdbc-lookup-"));
    const args = ["run", "test/fixtures/jdbc-lookup-job.ts", "--parallelism", "2", "--workers", "2", "--fresh", "--checkpoint-dir", dir, "--", server.jdbcUrl()];
    const r = await runCli(args, 60_000).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(r.code, r.stderr).toBe(0);
    const rate = (id: number) => (id % 3 === 0 ? "1.1000" : id % 3 === 1 ? "1.2500" : "null");
    const expected = Array.from({ length: 300 }, (_, i) => `+I[${i + 1}, ${rate(i + 1)}]`).sort();
    expect(jsonResult<{ rows: string[] }>(r).rows, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`).toEqual(expected);
  }, 90_000);
});

describe("jdbc errors before the job starts", () => {
  const lookup = "SELECT o.id, r.rate FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.pt AS r ON r.currency = o.currency";
  async function errorOf(ddl: string, query: string): Promise<string> {
    const { env, tEnv } = session();
    tEnv.executeSql(ddl);
    let started = false;
    const orders = () => {
      started = true;
      return [{ id: 1, currency: "EUR", amount: 1 }];
    };
    tEnv.createTemporaryView("orders", env.fromAsyncIterable(orders), ORDER_SCHEMA);
    const message = await rows(tEnv, query).then(
      (r) => `no error: ${r.join(" ")}`,
      (e: Error) => e.message,
    );
    expect(started, "the job's source was opened: the error came from a running job").toBe(false);
    return message;
  }

  it.each([
    ["scan", "SELECT * FROM rates"],
    ["lookup", lookup],
  ])("%s: no such table, a column type that does not fit, a wrong password", async (_, query) => {
    expect(await errorOf(`${RATES} (${jdbc("no_such_rates")})`, query)).toMatch(/^table 'default_catalog\.default_database\.rates': PostgreSQL has no table 'no_such_rates'/);
    expect(await errorOf("CREATE TABLE rates (currency STRING, rate INT) WITH (" + jdbc("rates") + ")", query)).toMatch(
      /^table 'default_catalog\.default_database\.rates' does not match the PostgreSQL table public\.rates:\n {2}column 'rate': .*numeric\(10,4\)/,
    );
    expect(await errorOf(`${RATES} (${jdbc("rates", "'username' = 'weir_secure', 'password' = 'wrong'")})`, query)).toMatch(/the server refused the login .*check the user and password/);
  });

  it("sink: a column type that does not fit, and exactly-once into a server without prepared transactions", async () => {
    const insert = async (url: string, extra: string, rateType = "DECIMAL(10, 4)"): Promise<string> => {
      const { env, tEnv } = session();
      tEnv.executeSql(`CREATE TABLE rates_out (currency STRING, rate ${rateType}, region STRING, PRIMARY KEY (currency) NOT ENFORCED) WITH (${jdbc("rates", extra, url)})`);
      let started = false;
      tEnv.createTemporaryView(
        "src",
        env.fromAsyncIterable(() => {
          started = true;
          return [{ currency: "CHF" }];
        }),
        Schema.newBuilder().column("currency", "STRING").build(),
      );
      const message = await Promise.resolve()
        .then(() => tEnv.executeSql(`INSERT INTO rates_out SELECT currency, CAST(1 AS ${rateType}), 'eu' FROM src`).await())
        .then(
          () => "no error",
          (e: Error) => e.message,
        );
      if (message !== "no error") expect(started, "the job's source was opened: the error came from a running job").toBe(false);
      return message;
    };
    expect(await insert(server.jdbcUrl(), "", "BIGINT")).toMatch(/column 'rate': BIGINT values do not fit in numeric\(10,4\)/);
    const no2pc = await startPostgres({ max_prepared_transactions: "0" });
    try {
      await no2pc.query("CREATE TABLE rates (currency varchar(3) PRIMARY KEY, rate numeric(10,4) NOT NULL, region text)");
      expect(await insert(no2pc.jdbcUrl(), "'sink.delivery-guarantee' = 'exactly-once'")).toMatch(/needs prepared transactions, but the server has max_prepared_transactions = 0/);
      expect(await insert(no2pc.jdbcUrl(), "'sink.delivery-guarantee' = 'at-least-once'")).toBe("no error");
    } finally {
      await no2pc.stop();
    }
  });
});
