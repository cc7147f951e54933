/**
 * What PostgreSQL says about a table: its columns with their types (as `format_type` writes them, e.g.
 * `bigint`, `numeric(10,2)`, `character varying(20)`, `timestamp with time zone`, `integer[]`), its primary
 * key and its replica identity — for checking a declared schema before a job runs.
 */

/** What {@link describeTable} needs of a connection (a `pg` client has it; kept structural so public types never name `pg`). */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** One column of a PostgreSQL table. */
export interface PgColumn {
  readonly name: string;
  /** `format_type(atttypid, atttypmod)`. */
  readonly type: string;
  readonly notNull: boolean;
}

/** A PostgreSQL table as the catalog describes it. */
export interface PgTableSchema {
  readonly oid: number;
  readonly schema: string;
  readonly name: string;
  /** The columns in their order. */
  readonly columns: readonly PgColumn[];
  /** The primary key's columns in key order (empty without a primary key). */
  readonly primaryKey: readonly string[];
  /** `relreplident`: `d` default (primary key), `f` full, `n` nothing, `i` an index. */
  readonly replicaIdentity: "d" | "f" | "n" | "i";
}

async function rowsOf<R>(client: PgQueryable, text: string, values: unknown[]): Promise<R[]> {
  return (await client.query(text, values)).rows as R[];
}

/**
 * The schema of `tableName` (`name` or `schema.name`, resolved like SQL does: unquoted parts fold to lower
 * case, the search path finds a table without a schema), or undefined when there is no such table.
 *
 * @example
 * ```ts
 * const orders = await describeTable(client, "public.orders");
 * orders?.primaryKey; // ["id"]
 * ```
 */
export async function describeTable(client: PgQueryable, tableName: string): Promise<PgTableSchema | undefined> {
  const rel = await rowsOf<{ oid: number; schema: string; name: string; ident: string }>(
    client,
    `SELECT c.oid::int AS oid, n.nspname AS schema, c.relname AS name, c.relreplident AS ident
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.oid = to_regclass($1)`,
    [tableName],
  );
  const table = rel[0];
  if (table === undefined) return undefined;
  const columns = await rowsOf<{ name: string; type: string; not_null: boolean }>(
    client,
    `SELECT attname AS name, format_type(atttypid, atttypmod) AS type, attnotnull AS not_null
       FROM pg_attribute WHERE attrelid = $1 AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    [table.oid],
  );
  const key = await rowsOf<{ name: string }>(
    client,
    `SELECT a.attname AS name
       FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = $1 AND i.indisprimary
      ORDER BY array_position(i.indkey::int2[], a.attnum)`,
    [table.oid],
  );
  return {
    oid: table.oid,
    schema: table.schema,
    name: table.name,
    columns: columns.map((c) => ({ name: c.name, type: c.type, notNull: c.not_null })),
    primaryKey: key.map((k) => k.name),
    replicaIdentity: table.ident as PgTableSchema["replicaIdentity"],
  };
}
