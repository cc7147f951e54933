/**
 * The `postgres-cdc` SQL connector against a real server: `'changelog-mode' = 'all'` emits `+I -U +U -D`
 * with before images (REPLICA IDENTITY FULL); `'upsert'` normalizes changes by primary key; a continuous
 * aggregate over the CDC table converges to the same query run by PostgreSQL; values convert by the
 * declared types; and a declaration that does not match the table fails when the source starts, naming
 * the column and both types.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { RestartStrategies } from "../../src/runtime/execution/restart-strategy.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { MultisetTable } from "../../src/table/data/changelog.ts";
import { Row } from "../../src/table/data/row.ts";
import { sharedPostgres, type SharedPostgres } from "../support/shared-postgres.ts";

let server: SharedPostgres;
let n = 0;
beforeAll(async () => {
  server = await sharedPostgres();
}, 60_000);
afterAll(() => server?.release());

function tableEnv(): StreamTableEnvironment {
  const env = StreamExecutionEnvironment.create({ parallelism: 2 });
  env.enableCheckpointing(200);
  env.setRestartStrategy(RestartStrategies.noRestart());
  return StreamTableEnvironment.create(env);
}

const cdc = (db: string, table: string, more = "") =>
  `'connector' = 'postgres-cdc', 'hostname' = '127.0.0.1', 'port' = '${server.port}', 'username' = 'postgres', 'password' = 'unused',
   'database-name' = '${db}', 'schema-name' = 'public', 'table-name' = '${table}', 'slot.name' = 'slot_${db}_${table}'${more === "" ? "" : `, ${more}`}`;

/** Reads `query` until `done(rows so far)` (asked whenever no row came for 100 ms), then stops the job. */
async function readUntil(tEnv: StreamTableEnvironment, query: string, done: (rows: Row[]) => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<Row[]> {
  const rows: Row[] = [];
  const it = tEnv.executeSql(query).collect();
  const deadline = Date.now() + timeoutMs;
  let next = it.next();
  try {
    for (;;) {
      const r = await Promise.race([next, new Promise<"quiet">((res) => setTimeout(() => res("quiet"), 100))]);
      if (r === "quiet") {
        if (await done(rows)) break;
        if (Date.now() > deadline) throw new Error(`timed out; rows so far: ${rows.map((x) => Row.toString(x)).join(" ")}`);
        continue;
      }
      if (r.done === true) break;
      rows.push(r.value);
      next = it.next();
    }
  } finally {
    next.catch(() => {});
    await it.return?.();
  }
  return rows;
}

async function database(): Promise<string> {
  return server.createDatabase(`sqlcdc${++n}`);
}

describe("postgres-cdc tables", () => {
  it("'changelog-mode' = 'all' on a REPLICA IDENTITY FULL table: +I for the snapshot, then -U +U and -D with the old rows, values by the declared types", async () => {
    const db = await database();
    await server.query(`CREATE TABLE items (id bigint PRIMARY KEY, name varchar(20), price numeric(10,2), at timestamp, ok boolean)`, [], db);
    await server.query(`ALTER TABLE items REPLICA IDENTITY FULL`, [], db);
    await server.query(`INSERT INTO items VALUES (1, 'a', 1.50, '2024-03-01 10:00:00', true), (2, 'b', NULL, NULL, false)`, [], db);
    const tEnv = tableEnv();
    tEnv.executeSql(`CREATE TABLE items (id BIGINT, name STRING, price DECIMAL(10, 2), at TIMESTAMP(3), ok BOOLEAN, PRIMARY KEY (id) NOT ENFORCED) WITH (${cdc(db, "items")})`);
    let changed = false;
    const rows = await readUntil(tEnv, "SELECT id, name, price, at, ok FROM items", async (rs) => {
      if (rs.length === 2 && !changed) {
        changed = true;
        await server.query(`UPDATE items SET price = 2.25 WHERE id = 1; DELETE FROM items WHERE id = 2`, [], db);
      }
      return rs.length >= 5;
    });
    expect(rows.slice(0, 2).map((r) => Row.toString(r)).sort()).toEqual(["+I[1, a, 1.50, 1709287200000, true]", "+I[2, b, null, null, false]"].sort());
    expect(rows.slice(2).map((r) => Row.toString(r))).toEqual(["-U[1, a, 1.50, 1709287200000, true]", "+U[1, a, 2.25, 1709287200000, true]", "-D[2, b, null, null, false]"]);
  });

  it("'changelog-mode' = 'upsert': an aggregate over the CDC table converges to PostgreSQL's own result, also across key changes", async () => {
    const db = await database();
    await server.query(`CREATE TABLE orders (id int PRIMARY KEY, customer text NOT NULL, amount int NOT NULL)`, [], db);
    await server.query(`INSERT INTO orders SELECT g, 'c' || (g % 5), g FROM generate_series(1, 200) g`, [], db);
    const tEnv = tableEnv();
    tEnv.executeSql(`CREATE TABLE orders (id INT, customer STRING, amount INT, PRIMARY KEY (id) NOT ENFORCED) WITH (${cdc(db, "orders", "'changelog-mode' = 'upsert'")})`);
    const oracle = async () =>
      (await server.query<{ customer: string; n: string; total: string }>(`SELECT customer, COUNT(*)::text AS n, SUM(amount)::text AS total FROM orders GROUP BY customer`, [], db))
        .map((r) => `+I[${r.customer}, ${r.n}, ${r.total}]`)
        .sort();
    let step = 0;
    let last = "";
    const table = new MultisetTable();
    const view = () => table.sortedRows().map((r) => Row.toString(r)).sort();
    await readUntil(tEnv, "SELECT customer, COUNT(*), SUM(amount) FROM orders GROUP BY customer", async (rs) => {
      table.applyAll(rs.splice(0));
      const want = await oracle();
      if (JSON.stringify(view()) !== JSON.stringify(want)) {
        last = `step ${step}: got ${view().join(" ")}, want ${want.join(" ")}`;
        return false;
      }
      if (step === 0) await server.query(`UPDATE orders SET amount = amount * 2 WHERE id % 3 = 0; DELETE FROM orders WHERE id % 7 = 0`, [], db);
      if (step === 1) await server.query(`UPDATE orders SET id = id + 1000, customer = 'moved' WHERE id % 11 = 0; INSERT INTO orders VALUES (5000, 'new', 1)`, [], db);
      return ++step > 2;
    }).catch((e: Error) => {
      throw new Error(`${e.message}; ${last}`);
    });
    expect(view()).toEqual(await oracle());
  });

  it("fails before the job runs, naming the column and both types, for a declared type that does not fit; 'all' on a table without REPLICA IDENTITY FULL; an unknown table; a wrong password", async () => {
    const db = await database();
    await server.query(`CREATE TABLE t (id int PRIMARY KEY, name text)`, [], db);
    const tEnv = tableEnv();
    tEnv.executeSql(`CREATE TABLE wrong_type (id INT, name INT, PRIMARY KEY (id) NOT ENFORCED) WITH (${cdc(db, "t", "'changelog-mode' = 'upsert'")})`);
    await expect(readUntil(tEnv, "SELECT * FROM wrong_type", () => false)).rejects.toThrow(/column 'name': a text column cannot be read as INT/);
    tEnv.executeSql(`CREATE TABLE not_full (id INT, name STRING) WITH (${cdc(db, "t")})`);
    await expect(readUntil(tEnv, "SELECT * FROM not_full", () => false)).rejects.toThrow(/REPLICA IDENTITY FULL.*'changelog-mode' = 'upsert'/);
    tEnv.executeSql(`CREATE TABLE missing (id INT, PRIMARY KEY (id) NOT ENFORCED) WITH (${cdc(db, "nope", "'changelog-mode' = 'upsert'")})`);
    await expect(readUntil(tEnv, "SELECT * FROM missing", () => false)).rejects.toThrow(/table public\.nope does not exist/);
    tEnv.executeSql(`CREATE TABLE wrong_password (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH (${cdc(db, "t", "'changelog-mode' = 'upsert'").replace("'username' = 'postgres', 'password' = 'unused'", "'username' = 'weir_secure', 'password' = 'nope'")})`);
    await expect(readUntil(tEnv, "SELECT * FROM wrong_password", () => false)).rejects.toThrow(/refused the login.*check the user and password/);
    tEnv.executeSql(`CREATE TABLE no_key (id INT) WITH (${cdc(db, "t", "'changelog-mode' = 'upsert'")})`);
    expect(() => tEnv.executeSql("SELECT * FROM no_key")).toThrow(/'changelog-mode' = 'upsert' needs a PRIMARY KEY/);
    tEnv.executeSql(`CREATE TABLE bad_plugin (id INT) WITH (${cdc(db, "t", "'decoding.plugin.name' = 'decoderbufs'")})`);
    expect(() => tEnv.executeSql("SELECT * FROM bad_plugin")).toThrow(/decoding plugin 'decoderbufs' is not supported/);
  });
});
