/**
 * Opening the PostgreSQL table of a `jdbc` table for reading: a connection, the table as the catalog
 * describes it, the declared columns checked against it (`checkPgColumns`), and the quoted names a query
 * uses. The scan, the lookup and the check before the job runs share it.
 */
import type * as Pg from "pg";
import { connect } from "../../connectors/postgres/postgres-connect.ts";
import { describeTable } from "../../connectors/postgres/postgres-table-schema.ts";
import type { RowType } from "../expr/type-rules.ts";
import type { JdbcTableConfig } from "./jdbc-table-config.ts";
import { checkPgColumns, PostgresSchemaError } from "./postgres-columns.ts";

/** A connected client and the names of the table and of its declared columns, quoted for a query. */
export interface OpenedJdbcTable {
  readonly client: Pg.Client;
  /** `"schema"."name"`. */
  readonly from: string;
  /** One quoted PostgreSQL column per declared column, in declaration order. */
  readonly columns: readonly string[];
  /** The quoted columns of the primary key (empty without one). */
  readonly primaryKey: readonly string[];
}

/**
 * Connects and checks the table; the caller ends `client`.
 *
 * @throws PostgresConnectionError when the server refuses or cannot be reached
 * @throws PostgresSchemaError when there is no such table, or a declared column is missing or does not fit
 * @example
 * ```ts
 * const t = await openJdbcTable(config, physicalType, "weir jdbc scan rates");
 * try { await t.client.query(`SELECT ${t.columns.join(", ")} FROM ${t.from}`); } finally { await t.client.end(); }
 * ```
 */
export async function openJdbcTable(config: JdbcTableConfig, declared: RowType, purpose: string): Promise<OpenedJdbcTable> {
  const client = await connect(config.connection, { purpose });
  try {
    const schema = await describeTable(client, config.tableName);
    if (schema === undefined) {
      throw new PostgresSchemaError(`table '${config.table}': PostgreSQL has no table '${config.tableName}' (${config.connection.describe()}); create it or fix 'table-name'`);
    }
    checkPgColumns(config.table, schema, declared, "read");
    const quote = (name: string) => client.escapeIdentifier(name);
    const columns = declared.names.map((name) => {
      const column = schema.columns.find((c) => c.name === name) ?? schema.columns.find((c) => c.name.toLowerCase() === name.toLowerCase())!;
      return quote(column.name);
    });
    return { client, from: `${quote(schema.schema)}.${quote(schema.name)}`, columns, primaryKey: schema.primaryKey.map(quote) };
  } catch (e) {
    await client.end().catch(() => {});
    throw e;
  }
}
