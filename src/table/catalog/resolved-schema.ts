/**
 * The schema of a table resolved from its `CREATE TABLE` statement: columns
 * with logical types, computed columns, the watermark and the primary key,
 * checked by Flink's rules.
 */
import type { Expr, SourceLoc, StatementOf } from "../sql/ast.ts";
import { type LogicalType, formatLogicalType, toLogicalType, withNullability } from "../types/logical-type.ts";
import { didYouMean } from "../validation/nearest-name.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

/**
 * A column of a resolved schema. A physical column has its declared type; a
 * computed column keeps its expression for the planner, which types it; a
 * metadata column has its type and the connector's metadata `key` it reads
 * (and writes, unless `virtual`).
 */
export type ResolvedColumn = { name: string; comment?: string; loc: SourceLoc } & (
  | { kind: "physical"; type: LogicalType }
  | { kind: "computed"; expr: Expr }
  | { kind: "metadata"; type: LogicalType; key: string; virtual: boolean }
);

/** `WATERMARK FOR column AS expr`: the rowtime column and its watermark strategy expression. */
export interface WatermarkSpec {
  rowtimeColumn: string;
  expr: Expr;
}

/** `PRIMARY KEY (columns) NOT ENFORCED`, named like Flink's generated constraint names. */
export interface PrimaryKey {
  name: string;
  columns: string[];
}

/** The checked schema of a table. */
export interface ResolvedSchema {
  columns: ResolvedColumn[];
  watermark?: WatermarkSpec;
  primaryKey?: PrimaryKey;
}

/**
 * Resolves and checks the schema of a `CREATE TABLE` statement: column names
 * are unique; the watermark's rowtime column exists and is a `TIMESTAMP(3)` or
 * `TIMESTAMP_LTZ(3)` (a computed rowtime column is typed later by the
 * planner); primary key columns exist, are physical, are not repeated, and
 * become `NOT NULL`.
 *
 * @throws {SqlValidationError} located at the offending name.
 * @example
 * ```ts
 * const schema = resolveSchema(parseStatement("CREATE TABLE t (a INT, PRIMARY KEY (a) NOT ENFORCED)") as StatementOf<"createTable">);
 * schema.columns[0]; // { kind: "physical", name: "a", type: { kind: "int", nullable: false }, … }
 * ```
 */
export function resolveSchema(stmt: StatementOf<"createTable">): ResolvedSchema {
  const columns: ResolvedColumn[] = [];
  const byName = new Map<string, ResolvedColumn>();
  for (const c of stmt.columns) {
    const name = c.name.value;
    if (byName.has(name)) throw new SqlValidationError(`A column named '${name}' already exists in the table.`, c.name.loc);
    const base = { name, loc: c.name.loc, ...(c.comment === undefined ? {} : { comment: c.comment }) };
    const col: ResolvedColumn =
      c.kind === "physical"
        ? { ...base, kind: "physical", type: toLogicalType(c.type) }
        : c.kind === "metadata"
          ? { ...base, kind: "metadata", type: toLogicalType(c.type), key: c.key ?? name, virtual: c.virtual }
          : { ...base, kind: "computed", expr: c.expr };
    columns.push(col);
    byName.set(name, col);
  }
  const names = columns.map((c) => c.name);
  const fieldList = `Available fields: [${names.map((n) => `\`${n}\``).join(", ")}]`;

  const schema: ResolvedSchema = { columns };
  if (stmt.watermark !== undefined) {
    const { column, expr } = stmt.watermark;
    const col = byName.get(column.value);
    if (col === undefined) {
      throw new SqlValidationError(
        `The rowtime attribute field '${column.value}' is not defined in the table schema. ${fieldList}.${didYouMean(column.value, names)}`,
        column.loc,
      );
    }
    if (col.kind !== "computed" && !(col.type.kind === "timestamp" && col.type.precision === 3)) {
      throw new SqlValidationError(
        `Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(3) or TIMESTAMP_LTZ(3), but the time field type is ${formatLogicalType(col.type)}.`,
        column.loc,
      );
    }
    schema.watermark = { rowtimeColumn: column.value, expr };
  }
  if (stmt.primaryKey !== undefined) {
    const keyColumns: string[] = [];
    for (const id of stmt.primaryKey.columns) {
      const col = byName.get(id.value);
      if (col === undefined) {
        throw new SqlValidationError(`Could not create a PRIMARY KEY. Column '${id.value}' does not exist.${didYouMean(id.value, names)}`, id.loc);
      }
      if (col.kind !== "physical") {
        throw new SqlValidationError(`Could not create a PRIMARY KEY with column '${id.value}'. A PRIMARY KEY constraint must be declared on physical columns.`, id.loc);
      }
      if (keyColumns.includes(id.value)) {
        throw new SqlValidationError(`Invalid primary key. A primary key constraint must not contain duplicate columns, but '${id.value}' is repeated.`, id.loc);
      }
      keyColumns.push(id.value);
      col.type = withNullability(col.type, false);
    }
    schema.primaryKey = { name: `PK_${keyColumns.join("_")}`, columns: keyColumns };
  }
  return schema;
}
