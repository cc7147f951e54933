/**
 * The `table` result mode's table: the changelog of a query applied as it
 * comes (Flink's materialized result), so it always holds the query's current
 * result. `+I`/`+U` add a row, `-U`/`-D` remove an equal one. At most
 * `maxRows` rows are kept; beyond them the oldest rows are dropped, as Flink's
 * `sql-client.execution.max-table-result.rows` does.
 */
import { Row } from "../table/data/row.ts";

/**
 * @example
 * ```ts
 * const table = new MaterializedResult(1000);
 * table.apply(Row.ofKind("+I", "Mary", 1n));
 * table.apply(Row.ofKind("-U", "Mary", 1n));
 * table.apply(Row.ofKind("+U", "Mary", 2n));
 * table.rows.map((r) => r.fields); // [["Mary", 2n]]
 * ```
 */
export class MaterializedResult {
  /** The current rows, in the order they were added. */
  readonly rows: Row[] = [];
  private readonly keys: string[] = [];
  /** Rows dropped because the table held `maxRows`. */
  dropped = 0;
  /** Changes applied so far. */
  changes = 0;

  constructor(readonly maxRows: number) {}

  /** Applies one change. */
  apply(row: Row): void {
    this.changes++;
    const key = Row.toString({ kind: "+I", fields: row.fields });
    if (row.kind === "+I" || row.kind === "+U") {
      this.rows.push({ kind: "+I", fields: row.fields });
      this.keys.push(key);
      if (this.rows.length > this.maxRows) {
        this.rows.shift();
        this.keys.shift();
        this.dropped++;
      }
      return;
    }
    const i = this.keys.lastIndexOf(key);
    if (i >= 0) {
      this.rows.splice(i, 1);
      this.keys.splice(i, 1);
    }
  }
}
