/**
 * A private PostgreSQL server for a test: a cluster made by the machine's `initdb` in a temporary folder,
 * served by its `postgres` binary on 127.0.0.1 and a free port, with the settings the shared server on 5432
 * lacks — two-phase commit (`max_prepared_transactions`) and logical replication (`wal_level = logical`).
 * As root, `initdb` and the server run as the `postgres` user (initdb refuses root).
 *
 * Authentication: trust for every user on 127.0.0.1, except the role `weir_secure` (password `secret`),
 * which must give its password (scram-sha-256) — for the wrong-password tests.
 * `stop()` ends the server and deletes the folder; `restart()` stops it (fast shutdown) and starts it again
 * on the same port and data (a server that goes away mid-job); `kill()` SIGKILLs it.
 */
import { execFile, execFileSync, spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { chownSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "./kafka-broker.ts";
import { stopProcess } from "./stop-process.ts";

/** A server's databases as a test uses them: its address, connections, queries and new databases. */
export interface PostgresDatabases {
  readonly host: "127.0.0.1";
  readonly port: number;
  /** The superuser (trust auth). */
  readonly user: "postgres";
  /** `jdbc:postgresql://127.0.0.1:<port>/<database>` (Flink's URL form; default database: see `query`). */
  jdbcUrl(database?: string): string;
  /** `pg` client settings for `database` (default: see `query`). */
  config(database?: string): pg.ClientConfig;
  /** Runs one statement on a new connection (superuser) and returns its rows; in `postgres` on a private server, in the test file's own database on the shared one. */
  query<R extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: unknown[], database?: string): Promise<R[]>;
  /** Creates a database and returns its name: `name`, on the shared server with the test file's suffix. */
  createDatabase(name: string): Promise<string>;
  /** Creates a new database (`db_<n>`, on the shared server with the test file's suffix), runs `ddl` in it (when given) and returns its name. */
  freshDatabase(ddl?: string): Promise<string>;
}

/** A running private server. */
export interface PostgresServer extends PostgresDatabases {
  /** Stops it (fast shutdown) and starts it again on the same port and data. */
  restart(): Promise<void>;
  /** SIGKILLs it (data kept; `restart()` starts it again). */
  kill(): Promise<void>;
  /** Stops it and deletes its folder. */
  stop(): Promise<void>;
  /** The server's log so far (for a failing test's message). */
  log(): string;
  /** SIGKILLs it now, synchronously (a vitest process exiting without its teardown); its folder stays. */
  killNow(): void;
}

/**
 * The databases of the server on 127.0.0.1:`port`: `suffix` ends the names of the databases it creates, `main` is
 * the database of `query`, `config` and `jdbcUrl` when they name none (on a private server `""` and `postgres`; on
 * the shared one the test file's own suffix and database, see shared-postgres.ts).
 *
 * @example
 * ```ts
 * const db = await postgresDatabases(port, "_a1b2c3").freshDatabase("CREATE TABLE t (n INT)"); // "db_1_a1b2c3"
 * ```
 */
export function postgresDatabases(port: number, suffix = "", main = "postgres"): PostgresDatabases {
  const config = (database = main): pg.ClientConfig => ({ host: "127.0.0.1", port, user: "postgres", database });
  const query = async <R extends Record<string, unknown>>(sql: string, params: unknown[] = [], database = main): Promise<R[]> => {
    const client = new pg.Client(config(database));
    await client.connect();
    try {
      return (await client.query<R>(sql, params)).rows;
    } finally {
      await client.end();
    }
  };
  const createDatabase = async (name: string): Promise<string> => {
    const database = `${name}${suffix}`;
    await query(`CREATE DATABASE "${database}"`);
    return database;
  };
  let databases = 0;
  return {
    host: "127.0.0.1",
    port,
    user: "postgres",
    jdbcUrl: (database = main) => `jdbc:postgresql://127.0.0.1:${port}/${database}`,
    config,
    query,
    createDatabase,
    freshDatabase: async (ddl) => {
      const db = await createDatabase(`db_${++databases}`);
      if (ddl !== undefined) await query(ddl, [], db);
      return db;
    },
  };
}

/** The folder of the machine's server binaries (`pg_config --bindir`, else the newest /usr/lib/postgresql/N/bin). */
function binDir(): string {
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
    if (dir !== "") return dir;
  } catch {
    // no pg_config on the PATH
  }
  const versions = execFileSync("ls", ["/usr/lib/postgresql"], { encoding: "utf8" }).split("\n").filter((v) => /^\d+$/.test(v));
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error("no PostgreSQL server binaries: install the postgresql package (initdb, postgres)");
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/** As root: run as the `postgres` user (uid/gid), else as ourselves. */
function runAs(): Pick<SpawnOptions, "uid" | "gid"> {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

const HBA = `local all all trust
host all weir_secure 127.0.0.1/32 scram-sha-256
host all all 127.0.0.1/32 trust
host replication weir_secure 127.0.0.1/32 scram-sha-256
host replication all 127.0.0.1/32 trust
`;

/**
 * Starts a private server; `settings` are added to (or replace) its defaults (`-c name=value`).
 *
 * @example
 * ```ts
 * const server = await startPostgres();
 * afterAll(() => server.stop());
 * await server.query("CREATE TABLE t (id BIGINT PRIMARY KEY)");
 * ```
 */
export async function startPostgres(settings: Record<string, string> = {}): Promise<PostgresServer> {
  const bin = binDir();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), "weir-pg-"));
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid!);
  const data = join(dir, "data");
  // Not execFileSync: the shared server starts in vitest's own process, which must keep answering its workers.
  await promisify(execFile)(join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"], {
    ...user,
    env: { ...process.env, LC_ALL: "C" },
  });
  writeFileSync(join(data, "pg_hba.conf"), HBA);
  if (user.uid !== undefined) chownSync(join(data, "pg_hba.conf"), user.uid, user.gid!);
  const port = await freePort();
  const conf: Record<string, string> = {
    listen_addresses: "127.0.0.1",
    port: String(port),
    unix_socket_directories: dir,
    max_prepared_transactions: "64",
    wal_level: "logical",
    max_replication_slots: "16",
    max_wal_senders: "16",
    max_connections: "200",
    fsync: "off",
    full_page_writes: "off",
    synchronous_commit: "off",
    shared_buffers: "32MB",
    logging_collector: "off",
    log_min_messages: "warning",
    ...settings,
  };
  const args = ["-D", data, ...Object.entries(conf).flatMap(([k, v]) => ["-c", `${k}=${v}`])];
  let child: ChildProcess | undefined;
  let output = "";

  const databases = postgresDatabases(port);
  const query = databases.query;
  const ready = async (): Promise<boolean> => {
    try {
      await query("SELECT 1");
      return true;
    } catch {
      return false;
    }
  };

  const start = async (): Promise<void> => {
    const proc = spawn(join(bin, "postgres"), args, { stdio: ["ignore", "pipe", "pipe"], ...user });
    child = proc;
    proc.stdout!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
    proc.stderr!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
    const deadline = Date.now() + 60_000;
    while (!(await ready())) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`PostgreSQL exited at start (${proc.exitCode ?? proc.signalCode}):\n${output.slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections on ${port} within 60 s:\n${output.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const end = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = child;
    child = undefined;
    // SIGINT is the server's fast shutdown (rolls back open transactions, keeps prepared ones).
    await stopProcess(proc, signal);
    if (signal === "SIGKILL") {
      // The postmaster's children notice its death and exit; wait until the port is free for a restart.
      const pidFile = join(data, "postmaster.pid");
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && (await ready())) await new Promise((r) => setTimeout(r, 50));
      rmSync(pidFile, { force: true });
    }
  };

  await start();
  await query("CREATE ROLE weir_secure LOGIN SUPERUSER REPLICATION PASSWORD 'secret'");
  return {
    ...databases,
    restart: async () => {
      await end("SIGINT");
      await start();
    },
    kill: () => end("SIGKILL"),
    stop: async () => {
      await end("SIGINT");
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => output,
    killNow: () => void child?.kill("SIGKILL"),
  };
}
