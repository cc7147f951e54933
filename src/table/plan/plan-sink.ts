/**
 * `INSERT INTO t [(columns)] query`: the query's columns matched to the
 * sink table's physical columns (by position, or by the listed names with
 * NULL for the others), cast to their types, and the check that the sink
 * accepts the changelog the query emits.
 */
import type { CatalogTable } from "../catalog/catalog-table.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import type { TableSink } from "../connectors/dynamic-table-factory.ts";
import { RowKind } from "../data/row-kind.ts";
import type { InsertStatement, Query, SourceLoc } from "../sql/ast.ts";
import { supportsImplicitCast } from "../expr/cast.ts";
import { formatLogicalType, type LogicalType } from "../types/logical-type.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { fieldRef } from "./bind-plan-expr.ts";
import { ChangelogMode } from "./changelog-mode.ts";
import { castMetadata, metadataType } from "./convert-from.ts";
import type { ChangelogModes } from "./changelog-inference.ts";
import { castExpr, project } from "./convert-query.ts";
import type { PlannerContext } from "./planner-context.ts";
import { isVisible, planRowType, type PlanField } from "./plan-row-type.ts";
import type { PlanExpr, RelNode } from "./rel-node.ts";

/** A planned sink: the table, its connector's sink and the rows it receives. */
export interface PlannedSink {
  table: CatalogTable;
  sink: TableSink;
  input: RelNode;
  /** `Sink(table=[…], fields=[…])` for EXPLAIN. */
  description: string;
}

/**
 * Plans writing `query` into `table`, by the column list and with the
 * places of `insert` when the query comes from an INSERT statement. A query
 * column goes into its sink column when Flink would cast it implicitly
 * ({@link supportsImplicitCast}); any other pair is an error before anything
 * runs, and so is a NULL literal for a NOT NULL column, or such a column left
 * out of the column list (a nullable expression for it is not checked).
 *
 * @throws {SqlValidationError} for a column count or type mismatch (naming the column, both types and both schemas) and for a sink that cannot take the query's changes.
 */
export function planSink(ctx: PlannerContext, table: CatalogTable, query: RelNode, insert: InsertStatement | undefined): PlannedSink {
  const columns = insert?.columns;
  const name = identifierString(table.identifier);
  const options = ctx.factories.validate(table.options, { table: name, as: "sink" });
  const factory = ctx.factories.connector(options.connector);
  if (factory?.createSink === undefined) {
    throw new SqlValidationError(`Connector '${options.connector}' can only be used as a source. It cannot be used as a sink (table '${name}').`);
  }
  // the columns a query writes: the physical and the persisted metadata columns, in declaration order (Flink's)
  const physical: PlanField[] = [];
  const written: (PlanField & { metadata?: { key: string; type: LogicalType } })[] = [];
  for (const c of table.schema.columns) {
    if (c.kind === "physical") {
      physical.push({ name: c.name, type: c.type });
      written.push({ name: c.name, type: c.type });
    } else if (c.kind === "metadata" && !c.virtual) {
      written.push({ name: c.name, type: c.type, metadata: { key: c.key, type: metadataType(factory.writableMetadata, c.key, c.name, name, "writing") } });
    }
  }
  const sinkType = planRowType(physical);
  const q = query.rowType;
  const visible = q.names.map((_, i) => i).filter((i) => isVisible(q.names[i]!));
  const targets = columns === undefined ? written.map((_, i) => i) : columns.map((c) => {
    const i = written.findIndex((f) => f.name === c.value);
    if (i < 0) throw new SqlValidationError(`Unknown target column '${c.value}' of table '${name}'`, c.loc);
    return i;
  });
  const mismatch = (cause: string, loc: SourceLoc | undefined) =>
    new SqlValidationError(
      `Column types of query result and sink for '${name}' do not match.\nCause: ${cause}\n\nQuery schema: ${schemaText(visible.map((i) => ({ name: q.names[i]!, type: q.types[i]! })))}\nSink schema:  ${schemaText(written)}`,
      loc ?? insert?.table.at(-1)?.loc,
    );
  if (visible.length !== targets.length) {
    const sinkSide = columns === undefined ? `the sink has ${targets.length}` : `the column list names ${targets.length}`;
    throw mismatch(`Different number of columns: the query has ${visible.length}, ${sinkSide}.`, columns === undefined ? undefined : columns[0]!.loc);
  }
  const writtenExprs: PlanExpr[] = written.map((f, i) => {
    const t = targets.indexOf(i);
    if (t < 0) {
      if (!f.type.nullable) throw new SqlValidationError(`Column '${f.name}' of '${name}' has no default value and does not allow NULLs: name it in the column list`, columns![0]!.loc);
      return { eval: () => null, type: { ...f.type, nullable: true }, text: "null", constant: true, reads: [] };
    }
    const src = fieldRef(q, visible[t]!);
    const incompatible = `Incompatible types for sink column '${f.name}' at position ${i}: the query gives ${src.type.kind === "null" ? "NULL" : formatLogicalType(src.type)}, the column is ${formatLogicalType(f.type)}`;
    const loc = insert === undefined ? undefined : queryColumnLoc(insert.query, t);
    if (src.type.kind === "null" && !f.type.nullable) throw mismatch(`${incompatible}.`, loc);
    if (!supportsImplicitCast(src.type, f.type)) {
      throw mismatch(`${incompatible} (convert it explicitly with CAST(… AS ${formatLogicalType({ ...f.type, nullable: true })})).`, loc);
    }
    try {
      return castExpr(src, f.type);
    } catch (e) {
      if (e instanceof SqlValidationError) throw mismatch(`${incompatible}: Flink converts these implicitly, Weir does not yet.`, loc);
      throw e;
    }
  });
  // the sink's rows: the physical columns, then the metadata columns in the connector's types
  const order = [...written.keys()].filter((i) => written[i]!.metadata === undefined).concat([...written.keys()].filter((i) => written[i]!.metadata !== undefined));
  const exprs = order.map((i) => (written[i]!.metadata === undefined ? writtenExprs[i]! : castMetadata(writtenExprs[i]!, written[i]!.metadata!.type)));
  const metadataKeys = order.flatMap((i) => (written[i]!.metadata === undefined ? [] : [written[i]!.metadata!.key]));
  const identity = exprs.every((e, i) => e.inputRef === i) && exprs.length === q.names.length;
  const input = identity ? query : project(query, exprs.map((e, i) => ({ expr: e, name: written[order[i]!]!.name })));
  const pk = table.schema.primaryKey?.columns.map((c) => physical.findIndex((f) => f.name === c));
  const sink = factory.createSink({
    env: ctx.env,
    table,
    options,
    physicalType: sinkType,
    ...(pk === undefined ? {} : { primaryKey: pk }),
    ...(metadataKeys.length === 0 ? {} : { metadataKeys }),
    uid: ctx.uidFor(`sink-${name}`),
    timeZone: ctx.timeZone,
  });
  return { table, sink, input, description: `Sink(table=[${name}], fields=[${order.map((i) => written[i]!.name).join(", ")}])` };
}

function schemaText(fields: readonly { name: string; type: LogicalType }[]): string {
  return `[${fields.map((f) => `${f.name}: ${formatLogicalType(f.type)}`).join(", ")}]`;
}

/**
 * Where column `position` of `query`'s result is written: its select item
 * (of the first SELECT of a set operation) or its value in the first row of
 * VALUES; undefined after a `*`, which has no place of its own per column.
 */
function queryColumnLoc(query: Query, position: number): SourceLoc | undefined {
  let body = query.body;
  for (;;) {
    if (body.kind === "query") body = body.body;
    else if (body.kind === "setOperation") body = body.left;
    else break;
  }
  if (body.kind === "values") return body.rows[0]?.[position]?.loc;
  if (body.items.some((item) => item.expr.kind === "star")) return undefined;
  return body.items[position]?.expr.loc;
}

/**
 * Refuses a sink that cannot take the kinds its input emits.
 *
 * @throws {SqlValidationError} naming the table and the node that produces the changes.
 */
export function checkSinkMode(s: PlannedSink, modes: ChangelogModes): void {
  const produced = modes.of(s.input);
  const missing = produced.kinds.filter((k) => !ChangelogMode.contains(s.sink.acceptedMode, k));
  if (missing.length === 0) return;
  const what = missing.includes(RowKind.DELETE) && missing.length === 1 ? "delete changes" : missing.includes(RowKind.DELETE) ? "update and delete changes" : "update changes";
  modes.requireInsertOnly(s.input, `Table sink '${identifierString(s.table.identifier)}'`, what);
}
