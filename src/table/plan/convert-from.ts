/**
 * FROM items: catalog tables (a scan, its computed columns and its
 * watermark), views, common table expressions, views registered from the
 * API, subqueries (a Top-N subquery is kept pending until the outer WHERE
 * gives its bound), window table functions and joins.
 */
import type { CatalogTable } from "../catalog/catalog-table.ts";
import type { ResolvedSchema } from "../catalog/resolved-schema.ts";
import { identifierString, resolveIdentifier } from "../catalog/object-identifier.ts";
import type { FromItem, Identifier, Query, QualifiedName } from "../sql/ast.ts";
import { formatLogicalType, withNullability, type LogicalType } from "../types/logical-type.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { didYouMean } from "../validation/nearest-name.ts";
import { bindPlanExpr, fieldRef } from "./bind-plan-expr.ts";
import { convertJoin } from "./convert-join.ts";
import { castExpr, convertQuery, project, type CteScope } from "./convert-query.ts";
import { convertRankSubquery, isRankQuery, type PendingRank } from "./convert-rank.ts";
import { convertWindowTableFunction } from "./convert-window-tvf.ts";
import { convertCorrelate, isTableFunctionCall } from "./convert-correlate.ts";
import type { PlannerContext } from "./planner-context.ts";
import { planRowType, renameFields, requalify, type PlanField } from "./plan-row-type.ts";
import type { PlanExpr, RelNode } from "./rel-node.ts";

/** A converted FROM item: its plan, or a Top-N waiting for the WHERE that bounds it. */
export interface FromResult {
  node: RelNode;
  pendingRank?: PendingRank;
}

/** Converts a FROM item. */
export function convertFrom(ctx: PlannerContext, item: FromItem, ctes: CteScope): FromResult {
  switch (item.kind) {
    case "table": {
      if (item.systemTime !== undefined) throw new SqlValidationError("FOR SYSTEM_TIME AS OF is supported only on the right side of a join", item.systemTime.loc);
      const r = convertRelation(ctx, item.name, ctes);
      return aliased(r, item.alias?.value ?? item.name.at(-1)!.value, item.columnAliases);
    }
    case "subquery": {
      const r = isRankQuery(item.query) ? convertRankSubquery(ctx, item.query, ctes) : { node: convertQuery(ctx, item.query, ctes) };
      return aliased(r, item.alias?.value, item.columnAliases);
    }
    case "tableFunction": {
      if (isTableFunctionCall(ctx, item.call)) {
        const one: RelNode = { kind: "values", rows: [[]], rowType: planRowType([]) };
        return { node: convertCorrelate(ctx, one, item.call, "INNER", undefined, item.alias?.value, item.columnAliases) };
      }
      const node = convertWindowTableFunction(ctx, item.call, ctes);
      return aliased({ node }, item.alias?.value, item.columnAliases);
    }
    case "join":
      return { node: convertJoin(ctx, item, ctes) };
  }
}

function aliased(r: FromResult, alias: string | undefined, columns: Identifier[] | undefined): FromResult {
  const apply = (n: RelNode): RelNode => {
    let rowType = requalify(n.rowType, alias);
    if (columns !== undefined) {
      if (columns.length !== n.rowType.names.length) {
        throw new SqlValidationError(`List of column aliases must have same degree as table; table has ${n.rowType.names.length} columns, whereas alias list has ${columns.length} columns`, columns[0]!.loc);
      }
      rowType = renameFields(rowType, columns.map((c) => c.value));
    }
    return { ...n, rowType } as RelNode;
  };
  if (r.pendingRank !== undefined) return { node: r.node, pendingRank: { ...r.pendingRank, alias } };
  return { node: apply(r.node) };
}

/**
 * The relation a name refers to: a CTE, a view registered from the API, or
 * a catalog table or view; a Top-N view stays pending.
 */
export function convertRelation(ctx: PlannerContext, name: QualifiedName, ctes: CteScope): FromResult {
  if (name.length === 1) {
    const cte = ctes.get(name[0]!.value);
    if (cte !== undefined) return viewResult(ctx, cte.query, cte.columns, cte.scope);
  }
  const id = resolveIdentifier(name);
  const inline = ctx.inlineViews.get(id.object);
  if (inline !== undefined && name.length === 1) return { node: inline() };
  const object = ctx.catalog.lookup(id.object);
  if (object === undefined) {
    const names = [...ctx.catalog.listTables(), ...ctx.catalog.listViews(), ...ctx.inlineViews.keys(), ...ctes.keys()];
    throw new SqlValidationError(`Object '${id.object}' not found within '${id.catalog}.${id.database}'.${didYouMean(id.object, names)}`, name.at(-1)!.loc);
  }
  if (object.kind === "view") return viewResult(ctx, object.query, object.columns, new Map());
  const key = identifierString(object.identifier);
  let scan = ctx.scans.get(key);
  if (scan === undefined) {
    scan = scanTable(ctx, object);
    ctx.scans.set(key, scan);
  }
  return { node: scan };
}

function viewResult(ctx: PlannerContext, query: Query, columns: string[] | undefined, ctes: CteScope): FromResult {
  if (isRankQuery(query)) {
    if (columns !== undefined) throw new SqlValidationError("A Top-N view cannot declare column names", query.loc);
    return convertRankSubquery(ctx, query, ctes);
  }
  const node = convertQuery(ctx, query, ctes);
  if (columns === undefined) return { node };
  if (columns.length !== node.rowType.names.length) {
    throw new SqlValidationError(`The view declares ${columns.length} columns but its query has ${node.rowType.names.length}`, query.loc);
  }
  return { node: { ...node, rowType: renameFields(node.rowType, columns) } as RelNode };
}

/** A catalog table as a source: the scan, its computed columns, its watermark. */
export function scanTable(ctx: PlannerContext, table: CatalogTable): RelNode {
  const name = identifierString(table.identifier);
  const options = ctx.factories.validate(table.options, { table: name, as: "source" });
  const factory = ctx.factories.connector(options.connector);
  if (factory?.createSource === undefined) {
    throw new SqlValidationError(`Connector '${options.connector}' can only be used as a sink. It cannot be used as a source (table '${name}').`);
  }
  const physical: PlanField[] = [];
  for (const c of table.schema.columns) if (c.kind === "physical") physical.push({ name: c.name, type: c.type });
  const physicalType = planRowType(physical);
  const metadata = table.schema.columns.flatMap((c) => (c.kind === "metadata" ? [c] : []));
  const metadataFields = metadata.map((c) => ({ name: c.name, type: metadataType(factory.readableMetadata, c.key, c.name, name, "reading") }));
  const pk = table.schema.primaryKey?.columns.map((c) => physical.findIndex((f) => f.name === c));
  const source = factory.createSource({
    env: ctx.env,
    table,
    options,
    physicalType,
    ...(pk === undefined ? {} : { primaryKey: pk }),
    ...(metadata.length === 0 ? {} : { metadataKeys: metadata.map((c) => c.key) }),
    uid: ctx.uidFor(`source-${name}`),
    timeZone: ctx.timeZone,
  });
  const rowType = metadata.length === 0 ? physicalType : planRowType([...physical, ...metadataFields]);
  return withComputedColumns({ kind: "scan", table, options, source, rowType }, table.schema);
}

/** `e` as type `to`: a cast, or the value as it is when the types differ only in nullability (a MAP NOT NULL read as a MAP). */
export function castMetadata(e: PlanExpr, to: LogicalType): PlanExpr {
  const text = (t: LogicalType) => formatLogicalType(withNullability(t, true));
  return text(e.type) === text(to) ? { ...e, type: to } : castExpr(e, to);
}

/**
 * The type of metadata `key` of a connector, for column `column` of `table`.
 *
 * @throws {SqlValidationError} when the connector has no such metadata (Flink's message, with the keys it has).
 */
export function metadataType(available: ReadonlyMap<string, LogicalType> | undefined, key: string, column: string, table: string, use: "reading" | "writing"): LogicalType {
  const type = available?.get(key);
  if (type !== undefined) return type;
  const keys = [...(available?.keys() ?? [])];
  const list = keys.length === 0 ? "none" : keys.map((k) => `'${k}'`).join(", ");
  throw new SqlValidationError(
    `Invalid metadata key '${key}' in column '${column}' of table '${table}'. The connector supports the following metadata keys for ${use}: ${list}.${didYouMean(key, keys)}`,
  );
}

/**
 * The rows of a table's physical columns (`node`) completed by its computed
 * columns, in declaration order, and its watermark.
 */
export function withComputedColumns(physicalNode: RelNode, schema: ResolvedSchema): RelNode {
  let node = physicalNode;
  if (schema.columns.some((c) => c.kind !== "physical")) {
    // the scan's rows: the physical columns, then the metadata columns (in the connector's types)
    let p = 0;
    let m = schema.columns.filter((c) => c.kind === "physical").length;
    const scanType = node.rowType;
    node = project(
      node,
      schema.columns.map((c) => {
        if (c.kind === "physical") return { expr: fieldRef(scanType, p++), name: c.name };
        if (c.kind === "metadata") return { expr: castMetadata(fieldRef(scanType, m++), c.type), name: c.name };
        return { expr: bindPlanExpr(c.expr, scanType), name: c.name };
      }),
    );
  }
  const wm = schema.watermark;
  if (wm !== undefined) {
    const rowtimeField = node.rowType.names.indexOf(wm.rowtimeColumn);
    const watermark = bindPlanExpr(wm.expr, node.rowType);
    const rowType = { ...node.rowType, timeAttributes: node.rowType.timeAttributes.map((t, i) => (i === rowtimeField ? ("rowtime" as const) : t)) };
    node = { kind: "watermarkAssigner", input: node, rowtimeField, watermark, rowType };
  }
  return node;
}
