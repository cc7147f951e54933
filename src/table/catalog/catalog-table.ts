/**
 * The objects an in-memory {@link Catalog} holds: tables resolved from
 * `CREATE TABLE` and views that keep their query for the planner.
 */
import type { Query, StatementOf } from "../sql/ast.ts";
import type { ObjectIdentifier } from "./object-identifier.ts";
import { type ResolvedSchema, resolveSchema } from "./resolved-schema.ts";
import { didYouMean } from "../validation/nearest-name.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

/** A table: its checked schema and its `WITH` options in declaration order. */
export interface CatalogTable {
  kind: "table";
  identifier: ObjectIdentifier;
  temporary: boolean;
  schema: ResolvedSchema;
  options: ReadonlyMap<string, string>;
  comment?: string;
  /** The columns of `PARTITIONED BY (…)`, in order (physical columns of the schema). */
  partitionKeys?: readonly string[];
}

/** A view: its query as parsed and the column names it declares, if any. */
export interface CatalogView {
  kind: "view";
  identifier: ObjectIdentifier;
  temporary: boolean;
  query: Query;
  columns?: string[];
  comment?: string;
}

/** A table or a view. */
export type CatalogObject = CatalogTable | CatalogView;

/**
 * The table a `CREATE TABLE` statement declares, its schema checked (see
 * {@link resolveSchema}) and its options collected (the parser rejects an
 * option given twice).
 *
 * @throws {SqlValidationError}
 * @example
 * ```ts
 * const t = tableFromStatement(stmt, resolveIdentifier(stmt.name));
 * t.options.get("connector"); // "filesystem"
 * ```
 */
export function tableFromStatement(stmt: StatementOf<"createTable">, identifier: ObjectIdentifier): CatalogTable {
  const schema = resolveSchema(stmt);
  const partitionKeys = stmt.partitionKeys?.map((key, i) => {
    const column = schema.columns.find((c) => c.name === key.value);
    if (column === undefined) {
      throw new SqlValidationError(`Partition column '${key.value}' is not a column of the table.${didYouMean(key.value, schema.columns.map((c) => c.name))}`, key.loc);
    }
    if (column.kind !== "physical") throw new SqlValidationError(`Partition column '${key.value}' must be a physical column, not a computed one.`, key.loc);
    if (stmt.partitionKeys!.slice(0, i).some((k) => k.value === key.value)) throw new SqlValidationError(`Partition column '${key.value}' is given twice.`, key.loc);
    return key.value;
  });
  return {
    kind: "table",
    identifier,
    temporary: stmt.temporary,
    schema,
    options: new Map(stmt.options.map((o) => [o.key, o.value])),
    ...(stmt.comment === undefined ? {} : { comment: stmt.comment }),
    ...(partitionKeys === undefined ? {} : { partitionKeys }),
  };
}

/**
 * The view a `CREATE VIEW` statement declares; its declared column names must
 * be distinct (their number is checked against the query by the planner).
 *
 * @throws {SqlValidationError}
 * @example
 * ```ts
 * viewFromStatement(stmt, resolveIdentifier(stmt.name)).columns; // ["a", "b"]
 * ```
 */
export function viewFromStatement(stmt: StatementOf<"createView">, identifier: ObjectIdentifier): CatalogView {
  const view: CatalogView = { kind: "view", identifier, temporary: stmt.temporary, query: stmt.query };
  if (stmt.columns !== undefined) {
    const seen = new Set<string>();
    for (const c of stmt.columns) {
      if (seen.has(c.value)) throw new SqlValidationError(`A column named '${c.value}' already exists in the view.`, c.loc);
      seen.add(c.value);
    }
    view.columns = stmt.columns.map((c) => c.value);
  }
  if (stmt.comment !== undefined) view.comment = stmt.comment;
  return view;
}
