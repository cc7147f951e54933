/**
 * A table's declared columns checked against the PostgreSQL table they read or write, before the job
 * runs: every declared column must exist and its type must fit (`pgTypeFits`).
 */
import type { PgTableSchema } from "../../connectors/postgres/postgres-table-schema.ts";
import type { RowType } from "../expr/type-rules.ts";
import { pgTypeFits } from "./postgres-values.ts";

/** Declared columns that do not match the PostgreSQL table. */
export class PostgresSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PostgresSchemaError";
  }
}

/**
 * Checks the declared columns `declared` of the catalog table `table` against the PostgreSQL table
 * `schema`, for reading or writing.
 *
 * @throws PostgresSchemaError naming the tables and each column that is missing or does not fit
 * @example
 * ```ts
 * checkPgColumns("default_catalog.default_database.rates", await describeTable(client, "rates"), physicalType, "read");
 * ```
 */
export function checkPgColumns(table: string, schema: PgTableSchema, declared: RowType, direction: "read" | "write"): void {
  const byName = new Map(schema.columns.map((c) => [c.name, c]));
  const problems: string[] = [];
  declared.names.forEach((name, i) => {
    const column = byName.get(name) ?? schema.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (column === undefined) {
      problems.push(`column '${name}' does not exist in ${schema.schema}.${schema.name} (its columns: ${schema.columns.map((c) => c.name).join(", ")})`);
      return;
    }
    const why = pgTypeFits(column.type, declared.types[i]!, direction);
    if (why !== undefined) problems.push(`column '${name}': ${why}`);
  });
  if (problems.length > 0) {
    throw new PostgresSchemaError(`table '${table}' does not match the PostgreSQL table ${schema.schema}.${schema.name}:\n  ${problems.join("\n  ")}`);
  }
}
