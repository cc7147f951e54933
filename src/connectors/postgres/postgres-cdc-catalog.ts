/**
 * What the CDC source asks PostgreSQL's catalog before it reads: the captured tables (columns, primary
 * key, replica identity), the publication (created when missing, checked otherwise) and the slot.
 * All on a normal (non-replication) connection.
 */
import { PostgresCdcError } from "./postgres-cdc-errors.ts";
import { quoteIdent, quoteTable } from "./postgres-identifiers.ts";
import { describeTable, type PgQueryable, type PgTableSchema } from "./postgres-table-schema.ts";

/** A captured table. */
export type CapturedTable = PgTableSchema;

/** `schema.name` for messages. */
export function tableName(t: { schema: string; name: string }): string {
  return `${t.schema}.${t.name}`;
}

/**
 * The tables named (exactly) `schema.name`, in the given order. A missing table, a table without
 * primary key, or one whose replica identity is NOTHING is an error naming it.
 */
export async function loadCapturedTables(client: PgQueryable, names: readonly { schema: string; name: string }[], where: string): Promise<CapturedTable[]> {
  const tables: CapturedTable[] = [];
  for (const { schema, name } of names) {
    const table = await describeTable(client, quoteTable(schema, name));
    if (table === undefined) throw new PostgresCdcError(`table ${schema}.${name} does not exist in ${where}`);
    if (table.primaryKey.length === 0) {
      throw new PostgresCdcError(`table ${schema}.${name} in ${where} has no primary key: the source reads its snapshot in key order and keys its changes by it (add a PRIMARY KEY)`);
    }
    if (table.replicaIdentity === "n") throw new PostgresCdcError(`table ${schema}.${name} in ${where} has REPLICA IDENTITY NOTHING: its updates and deletes cannot be captured (ALTER TABLE … REPLICA IDENTITY DEFAULT or FULL)`);
    tables.push(table);
  }
  return tables;
}

/**
 * Makes sure publication `publication` publishes every table: creates it `FOR TABLE …` when missing; an
 * existing one that lacks a table is an error telling how to add it (Weir does not change a publication
 * someone else may use).
 */
export async function ensurePublication(client: PgQueryable, publication: string, tables: readonly CapturedTable[], where: string): Promise<void> {
  const exists = await client.query(`SELECT 1 FROM pg_publication WHERE pubname = $1`, [publication]);
  if (exists.rows.length === 0) {
    try {
      await client.query(`CREATE PUBLICATION ${quoteIdent(publication)} FOR TABLE ${tables.map((t) => quoteTable(t.schema, t.name)).join(", ")}`);
    } catch (e) {
      // two sources creating the same publication at once: the other one won
      if ((e as { code?: string }).code !== "42710") {
        throw new PostgresCdcError(`could not create publication ${publication} in ${where}: ${(e as Error).message} (create it as the tables' owner: CREATE PUBLICATION ${publication} FOR TABLE …)`, { cause: e });
      }
    }
  }
  const rows = (await client.query(`SELECT schemaname, tablename FROM pg_publication_tables WHERE pubname = $1`, [publication])).rows as { schemaname: string; tablename: string }[];
  const published = new Set(rows.map((r) => `${r.schemaname}.${r.tablename}`));
  const missing = tables.filter((t) => !published.has(tableName(t)));
  if (missing.length > 0) {
    const list = missing.map((t) => quoteTable(t.schema, t.name)).join(", ");
    throw new PostgresCdcError(`publication ${publication} in ${where} does not publish ${missing.map(tableName).join(", ")}: ALTER PUBLICATION ${quoteIdent(publication)} ADD TABLE ${list}`);
  }
}

/** A replication slot as `pg_replication_slots` shows it. */
export interface SlotInfo {
  readonly plugin: string | null;
  readonly database: string | null;
  readonly active: boolean;
  readonly activePid: number | null;
  /** `X/Y`, or null for a slot that never became consistent. */
  readonly confirmedFlushLsn: string | null;
}

/** The slot named `slot`, if it exists. */
export async function slotInfo(client: PgQueryable, slot: string): Promise<SlotInfo | undefined> {
  const rows = (await client.query(`SELECT plugin, database, active, active_pid, confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = $1`, [slot])).rows as {
    plugin: string | null;
    database: string | null;
    active: boolean;
    active_pid: number | null;
    confirmed_flush_lsn: string | null;
  }[];
  const r = rows[0];
  return r === undefined ? undefined : { plugin: r.plugin, database: r.database, active: r.active, activePid: r.active_pid, confirmedFlushLsn: r.confirmed_flush_lsn };
}

/**
 * Waits (up to `timeoutMs`) until no connection uses the slot — a walsender of a run that just ended
 * may hold it for a moment — then returns its info; a slot still in use is an error naming the process.
 */
export async function inactiveSlot(client: PgQueryable, slot: string, where: string, timeoutMs = 10_000): Promise<SlotInfo | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = await slotInfo(client, slot);
    if (info === undefined || !info.active) return info;
    if (Date.now() >= deadline) {
      throw new PostgresCdcError(`replication slot ${slot} in ${where} is in use by server process ${info.activePid} (another source with the same slot.name?)`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
