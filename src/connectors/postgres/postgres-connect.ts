/**
 * Opening a connection of a PostgreSQL connector: the `pg` client (loaded lazily) with the connector's
 * connection options; a refusal becomes a `PostgresConnectionError` naming server, database and user.
 */
import type * as Pg from "pg";
import type { JdbcConnectionOptions } from "./jdbc-connection-options.ts";
import { pgModule } from "./pg-client.ts";
import { PostgresConnectionError } from "./postgres-errors.ts";

/** What a connection is for, and its extras. */
export interface ConnectOptions {
  /** Named in errors and as the connection's `application_name` (e.g. `weir jdbc sink orders#2`). */
  purpose: string;
  /** `"database"` opens a logical replication connection (the CDC source). */
  replication?: "database";
}

/** The `pg` client settings of `options`. */
export function clientConfig(options: JdbcConnectionOptions, extra: ConnectOptions): Pg.ClientConfig {
  const { host, port, database, params } = options.address;
  const config: Pg.ClientConfig & { replication?: string } = {
    host,
    port,
    database,
    user: options.user,
    password: options.password ?? params["password"],
    connectionTimeoutMillis: options.connectionCheckTimeoutSeconds * 1000,
    application_name: params["ApplicationName"] ?? extra.purpose.slice(0, 63),
    keepAlive: true,
  };
  if (params["currentSchema"] !== undefined) config.options = `-c search_path=${params["currentSchema"]}`;
  if (extra.replication !== undefined) config.replication = extra.replication;
  return config;
}

/**
 * A connected client. The caller ends it (`client.end()`); an error event after connecting is kept from
 * crashing the process and surfaces at the next query.
 *
 * @example
 * ```ts
 * const client = await connect(options, { purpose: "weir jdbc sink orders#0" });
 * try { await client.query("SELECT 1"); } finally { await client.end(); }
 * ```
 */
export async function connect(options: JdbcConnectionOptions, extra: ConnectOptions): Promise<Pg.Client> {
  const { Client } = await pgModule();
  const client = new Client(clientConfig(options, extra));
  client.on("error", () => {
    // A lost connection: the next query fails with it, and that failure is handled there.
  });
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw new PostgresConnectionError(`${options.describe()} (${extra.purpose})`, err);
  }
  return client;
}
