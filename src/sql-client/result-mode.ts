/**
 * The SQL client's result modes (`SET 'sql-client.execution.result-mode'`):
 * `table` keeps the query's current result and redraws it as it changes,
 * `changelog` prints each change (`+I[Mary, 1]`), `tableau` prints the
 * changes as a boxed table with an `op` column.
 */

/** A result mode. */
export type ResultMode = "table" | "changelog" | "tableau";

/**
 * The result mode a session key's value names (checked when it was SET).
 *
 * @example
 * ```ts
 * resultModeOf("TABLEAU"); // "tableau"
 * ```
 */
export function resultModeOf(value: string): ResultMode {
  const mode = value.toLowerCase();
  return mode === "changelog" || mode === "tableau" ? mode : "table";
}
