/**
 * The run's shared PostgreSQL server for a test file (see shared-servers.ts): its own databases, named with a
 * suffix of its own (`createDatabase("shop")` → `shop_<suffix>`), so that files running at the same time or a
 * file that crashed leave each other alone; `query`, `config` and `jdbcUrl` without a database name the file's
 * own `weir_<suffix>` (where a private server has `postgres`). `release()` (afterAll) ends what the file left
 * there — connections, prepared transactions (they would hold up the creation of every later logical slot on
 * the server), replication slots — and drops its databases. A file that restarts, kills or reconfigures the server starts a private one
 * (startPostgres()).
 */
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { postgresDatabases, type PostgresDatabases } from "./postgres-server.ts";
import { sharedServerAddress } from "./shared-servers.ts";

/** The shared server's databases for one file. */
export interface SharedPostgres extends PostgresDatabases {
  /** The suffix of this file's database names (`_` and 6 hex digits). */
  readonly suffix: string;
  /** Ends the file's connections, prepared transactions and slots on the server and drops its databases. */
  release(): Promise<void>;
}

/**
 * The shared server (started on the first call of the run) with a new database suffix.
 *
 * @example
 * ```ts
 * let server: SharedPostgres;
 * beforeAll(async () => void (server = await sharedPostgres()));
 * afterAll(() => server?.release());
 * const db = await server.freshDatabase("CREATE TABLE t (n INT)");
 * ```
 */
export async function sharedPostgres(): Promise<SharedPostgres> {
  const { port } = await sharedServerAddress(inject("weirSharedServers"), "postgres");
  const suffix = `_${randomBytes(3).toString("hex")}`;
  const admin = postgresDatabases(port, suffix);
  const main = await admin.createDatabase("weir");
  const databases = postgresDatabases(port, suffix, main);
  const query = admin.query;
  return {
    ...databases,
    suffix,
    release: async () => {
      const names = (await query<{ datname: string }>("SELECT datname FROM pg_database WHERE right(datname, $1) = $2", [suffix.length, suffix])).map((r) => r.datname);
      await query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ANY($1) AND pid <> pg_backend_pid()", [names]);
      const slots = await query<{ slot_name: string }>("SELECT slot_name FROM pg_replication_slots WHERE database = ANY($1)", [names]);
      for (const { slot_name } of slots) await dropSlot(admin, slot_name);
      const prepared = await query<{ gid: string; database: string }>("SELECT gid, database FROM pg_prepared_xacts WHERE database = ANY($1)", [names]);
      for (const { gid, database } of prepared) await query(`ROLLBACK PREPARED '${gid.replaceAll("'", "''")}'`, [], database);
      for (const name of names) await query(`DROP DATABASE "${name}" WITH (FORCE)`);
    },
  };
}

/** Drops `slot`, once the walsender that had it (terminated with its database's connections) let it go. */
async function dropSlot(server: PostgresDatabases, slot: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; ; ) {
    const [row] = await server.query<{ active_pid: number | null }>("SELECT active_pid FROM pg_replication_slots WHERE slot_name = $1", [slot]);
    if (row === undefined) return;
    if (row.active_pid === null) break;
    if (Date.now() > deadline) throw new Error(`shared PostgreSQL: replication slot ${slot} still in use by server process ${row.active_pid}`);
    await server.query("SELECT pg_terminate_backend($1)", [row.active_pid]);
    await new Promise((r) => setTimeout(r, 50));
  }
  await server.query("SELECT pg_drop_replication_slot($1)", [slot]);
}
