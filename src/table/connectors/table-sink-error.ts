/**
 * A row a table sink cannot write (a row kind its format does not accept, a
 * value the format cannot represent): fails the job naming the table.
 */

/** A sink refused a row; the message names the table and the problem. */
export class TableSinkError extends Error {
  override readonly name = "TableSinkError";

  /**
   * @param table the sink table, e.g. `default_catalog.default_database.out`
   * @param problem what is wrong with the row
   */
  constructor(
    readonly table: string,
    readonly problem: string,
  ) {
    super(`Table sink '${table}' cannot write a row: ${problem}`);
  }
}
