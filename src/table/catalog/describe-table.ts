/**
 * The rows of `DESCRIBE t` for a table, with Flink's columns: name, type,
 * null, key, extras and watermark.
 */
import type { Expr } from "../sql/ast.ts";
import type { CatalogTable } from "./catalog-table.ts";
import { exprSqlText } from "./expr-sql-text.ts";
import { type LogicalType, formatLogicalType, withNullability } from "../types/logical-type.ts";

/** One row of `DESCRIBE`; `null` where Flink prints `<NULL>`/an empty cell. */
export interface DescribeRow {
  name: string;
  /** The type without `NOT NULL` (that is {@link DescribeRow.null}), with ` *ROWTIME*` on the rowtime column; `null` for a computed column whose type is not known. */
  type: string | null;
  null: boolean;
  /** `PRI(a, b)` on the primary key's columns. */
  key: string | null;
  /** `AS expr` for a computed column. */
  extras: string | null;
  /** The watermark expression, on the rowtime column. */
  watermark: string | null;
}

/**
 * Describes `table` as Flink's `DESCRIBE` does. The types of computed columns
 * come from `typeOf` (the planner's expression typer); without it they are
 * `null`.
 *
 * @example
 * ```ts
 * describeTable(catalog.getTable(name));
 * // [{ name: "cTime", type: "TIMESTAMP(3) *ROWTIME*", null: true, key: null, extras: null, watermark: "`cTime` - INTERVAL '1' SECOND" }, …]
 * ```
 */
export function describeTable(table: CatalogTable, typeOf?: (expr: Expr) => LogicalType): DescribeRow[] {
  const { columns, watermark, primaryKey } = table.schema;
  const key = primaryKey === undefined ? null : `PRI(${primaryKey.columns.join(", ")})`;
  return columns.map((c) => {
    const type = c.kind === "computed" ? typeOf?.(c.expr) : c.type;
    const rowtime = watermark?.rowtimeColumn === c.name;
    return {
      name: c.name,
      type: type === undefined ? null : formatLogicalType(withNullability(type, true)) + (rowtime ? " *ROWTIME*" : ""),
      null: type?.nullable ?? true,
      key: primaryKey?.columns.includes(c.name) === true ? key : null,
      extras: c.kind === "computed" ? `AS ${exprSqlText(c.expr)}` : c.kind === "metadata" ? metadataText(c.name, c.key, c.virtual) : null,
      watermark: rowtime ? exprSqlText(watermark!.expr) : null,
    };
  });
}

/** Flink's DESCRIBE extras of a metadata column: `METADATA FROM 'timestamp' VIRTUAL`, without FROM when the key is the name. */
function metadataText(name: string, key: string, virtual: boolean): string {
  return `METADATA${key === name ? "" : ` FROM '${key}'`}${virtual ? " VIRTUAL" : ""}`;
}
