/**
 * Opening the PostgreSQL table of a `jdbc` table for reading: a connection, the table as the catalog
 * describes it, the declared columns checked against it (`checkPgColumns`), and the quoted names a query
 * uses; and the row of a result. The scan, the lookup and the check before the job runs share it.
 */
import type * as Pg from "pg";
import { connect } from "../../connectors/postgres/postgres-connect.ts";
import { describeTable } from "../../connectors/postgres/postgres-table-schema.ts";
import { RowKind } from "../data/row-kind.ts";
import type { Row } from "../data/row.ts";
import type { RowType } from "../expr/type-rules.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { JdbcTableConfig } from "./jdbc-table-config.ts";
import { checkPgColumns, PostgresSchemaError } from "./postgres-columns.ts";
import { fromPgText, PostgresValueError } from "./postgres-values.ts";

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

/**
 * The insert row of `declared`'s columns whose columns at `positions` hold `values` (PostgreSQL's text form,
 * in that order); the other columns are NULL.
 *
 * @throws PostgresValueError naming the table and the column when a value is not one of its declared type
 * @example
 * ```ts
 * pgRow(config, physicalType, [0, 1], ["EUR", "1.1000"]); // +I[EUR, 1.1000]
 * ```
 */
export function pgRow(config: JdbcTableConfig, declared: RowType, positions: readonly number[], values: readonly (string | null)[]): Row {
  const fields = new Array<SqlValue>(declared.names.length).fill(null);
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i]!;
    try {
      fields[p] = fromPgText(values[i]!, declared.types[p]!);
    } catch (e) {
      if (e instanceof PostgresValueError) e.message = `table '${config.table}', column '${declared.names[p]}': ${e.message}`;
      throw e;
    }
  }
  return { kind: RowKind.INSERT, fields };
}
