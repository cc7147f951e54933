/**
 * Waiting on a PostgreSQL server's answers in tests: a condition asked again every few ms until it holds
 * (a deadline is an upper bound, never a pause), and the row count of a table.
 */
import type { PostgresDatabases } from "./postgres-server.ts";

/** Resolves once `condition()` resolves true; rejects after `timeoutMs` naming `what`. */
export async function waitForQuery(what: string, condition: () => Promise<boolean>, timeoutMs = 20_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** `SELECT count(*)` of `table` in `database`. */
export async function rowCount(server: PostgresDatabases, database: string, table: string): Promise<number> {
  return Number((await server.query<{ c: string }>(`SELECT count(*) AS c FROM ${table}`, [], database))[0]!.c);
}

/** The global ids of the prepared transactions left in `database`. */
export async function preparedTransactions(server: PostgresDatabases, database: string): Promise<string[]> {
  return (await server.query<{ gid: string }>("SELECT gid FROM pg_prepared_xacts WHERE database = $1 ORDER BY gid", [database])).map((r) => r.gid);
}
