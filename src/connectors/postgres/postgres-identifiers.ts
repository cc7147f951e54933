/**
 * Quoting of PostgreSQL identifiers in generated SQL.
 */

/**
 * `name` as a quoted identifier (inner quotes doubled): any table, column or slot name is safe in SQL.
 *
 * @example
 * ```ts
 * quoteIdent('my "table"'); // "\"my \"\"table\"\"\""
 * ```
 */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `schema.name` quoted part by part. */
export function quoteTable(schema: string, name: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(name)}`;
}
