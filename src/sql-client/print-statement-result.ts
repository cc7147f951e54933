/**
 * How the SQL client prints the result of a statement that neither runs a
 * job nor shows a query: `[INFO] Execute statement succeeded.`, the rows of
 * SHOW, DESCRIBE and SET as a table, and the plan of EXPLAIN as text.
 */
import type { TableResult } from "../table/api/table-result.ts";

/**
 * Prints `result` of a statement of `kind` line by line.
 *
 * @example
 * ```ts
 * await printStatementResult(tEnv.executeSql("SHOW TABLES"), "show", console.log);
 * ```
 */
export async function printStatementResult(result: TableResult, kind: string, line: (text: string) => void): Promise<void> {
  if (kind !== "explain") return result.print(line);
  for await (const row of result.collect()) line(String(row.fields[0]));
}
