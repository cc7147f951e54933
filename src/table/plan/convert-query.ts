/**
 * Converts a query's syntax tree to a plan ({@link RelNode}): WITH, set
 * operations, VALUES, SELECT (FROM, WHERE, GROUP BY, HAVING, OVER, DISTINCT,
 * the select list) and ORDER BY … LIMIT. FROM items, aggregation, windows,
 * joins and ranking live in the `convert-*.ts` files beside this one.
 */
import { exprSqlText } from "../catalog/expr-sql-text.ts";
import type { Expr, Query, QueryBody, SelectBody, SelectItem, SetOperation, ValuesBody } from "../sql/ast.ts";
import { commonType } from "../expr/type-rules.ts";
import { castFunction } from "../expr/cast.ts";
import { canonicalBigint, subtractInt64, type BigintValue } from "../types/bigint-value.ts";
import type { LogicalType } from "../types/logical-type.ts";
import { formatLogicalType } from "../types/logical-type.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { conjunction, conjuncts, someExpr } from "./ast-walk.ts";
import { bindPlanExpr, fieldRef } from "./bind-plan-expr.ts";
import { convertFrom, type FromResult } from "./convert-from.ts";
import { applyWhere } from "./convert-subquery.ts";
import { convertAggregation, isAggregateCall } from "./convert-aggregate.ts";
import { convertOver, hasOverCall } from "./convert-over.ts";
import { applyPendingRank } from "./convert-rank.ts";
import type { PlannerContext } from "./planner-context.ts";
import { fieldsOf, isVisible, planRowType, type PlanField } from "./plan-row-type.ts";
import type { PlanExpr, PlanRowType, RelNode } from "./rel-node.ts";
import { aggregateCall } from "./aggregate-call-type.ts";

/** The common table expressions in scope, by name, each with the scope its own query sees (the ones before it). */
export type CteScope = ReadonlyMap<string, { query: Query; columns?: string[]; scope: CteScope }>;

/** Converts `q` to a plan. */
export function convertQuery(ctx: PlannerContext, q: Query, ctes: CteScope = new Map()): RelNode {
  let scope = ctes;
  for (const c of q.with) {
    const before = scope;
    scope = new Map(before).set(c.name.value, { query: c.query, ...(c.columns ? { columns: c.columns.map((x) => x.value) } : {}), scope: before });
  }
  let node = convertBody(ctx, q.body, scope);
  if (q.orderBy.length > 0 || q.limit !== undefined) node = orderAndLimit(node, q);
  return node;
}

function convertBody(ctx: PlannerContext, body: QueryBody, ctes: CteScope): RelNode {
  switch (body.kind) {
    case "query":
      return convertQuery(ctx, body, ctes);
    case "values":
      return convertValues(body);
    case "setOperation":
      return convertSetOperation(ctx, body, ctes);
    case "select":
      return convertSelect(ctx, body, ctes);
  }
}

// ------------------------------------------------------------------ VALUES

/** `VALUES (…), (…)`: constant rows of the common type of each column. */
export function convertValues(body: ValuesBody): RelNode {
  const empty = planRowType([]);
  const width = body.rows[0]!.length;
  const bound = body.rows.map((r, i) => {
    if (r.length !== width) throw new SqlValidationError(`Values passed to VALUES operator must have compatible types: row ${i + 1} has ${r.length} values, row 1 has ${width}`, body.loc);
    return r.map((e) => bindPlanExpr(e, empty));
  });
  const types: LogicalType[] = [];
  for (let c = 0; c < width; c++) {
    let t = bound[0]![c]!.type;
    for (const r of bound) {
      const next = commonType(t, r[c]!.type);
      if (next === undefined) throw new SqlValidationError(`Values passed to VALUES operator must have compatible types: <${formatLogicalType(t)}> and <${formatLogicalType(r[c]!.type)}>`, body.rows[0]![c]!.loc);
      t = next;
    }
    types.push(t.kind === "null" ? { kind: "int", nullable: true } : t);
  }
  const rows = bound.map((r) => r.map((e, c) => castValue(e.eval([]), e.type, types[c]!)));
  return { kind: "values", rows, rowType: planRowType(types.map((type, i) => ({ name: `EXPR$${i}`, type }))) };
}

function castValue(v: import("../types/sql-value.ts").SqlValue, from: LogicalType, to: LogicalType) {
  if (v === null || from.kind === "null") return null;
  const cast = castFunction(from, to);
  return cast === undefined ? v : cast(v);
}

// ------------------------------------------------------------------ set operations

function convertSetOperation(ctx: PlannerContext, s: SetOperation, ctes: CteScope): RelNode {
  const left = convertBody(ctx, s.left, ctes);
  const right = convertBody(ctx, s.right, ctes);
  const ln = left.rowType.names.filter(isVisible).length;
  const rn = right.rowType.names.filter(isVisible).length;
  if (ln !== rn) throw new SqlValidationError(`Set operator cannot combine queries with different numbers of columns: ${ln} and ${rn}`, s.loc);
  const types = left.rowType.types.slice(0, ln).map((t, i) => {
    const c = commonType(t, right.rowType.types[i]!);
    if (c === undefined) throw new SqlValidationError(`Type mismatch in column ${i + 1} of ${s.op}: <${formatLogicalType(t)}> and <${formatLogicalType(right.rowType.types[i]!)}>`, s.loc);
    return c;
  });
  const names = left.rowType.names.slice(0, ln);
  const l = castTo(left, names, types);
  const r = castTo(right, names, types);
  if (s.op === "UNION") {
    // a field holds window ends only when it does in both inputs
    const { windowEnds, ...lt } = l.rowType;
    const ends = windowEnds?.filter((i) => r.rowType.windowEnds?.includes(i));
    const union: RelNode = { kind: "union", inputs: [l, r], rowType: ends === undefined || ends.length === 0 ? lt : { ...lt, windowEnds: ends } };
    return s.all ? union : distinct(union);
  }
  // INTERSECT / EXCEPT: count the rows of each side per distinct row, then keep or repeat them
  const tagged = (n: RelNode, side: 0 | 1): RelNode => project(n, [
    ...fieldsOf(n.rowType).map((_, i) => ({ expr: fieldRef(n.rowType, i), name: names[i]! })),
    { expr: constantExpr(side === 0 ? 1 : 0), name: "$l" },
    { expr: constantExpr(side === 1 ? 1 : 0), name: "$r" },
  ]);
  const both: RelNode = { kind: "union", inputs: [tagged(l, 0), tagged(r, 1)], rowType: tagged(l, 0).rowType };
  const keys = names.map((_, i) => i);
  const bigint = both.rowType.types[ln]!;
  const counts: RelNode = {
    kind: "aggregate",
    input: both,
    groupKeys: keys,
    calls: [aggregateCall("SUM", [ln], [bigint], false, undefined, "SUM($l)"), aggregateCall("SUM", [ln + 1], [bigint], false, undefined, "SUM($r)")],
    rowType: planRowType([...fieldsOf(l.rowType), { name: "$lc", type: bigint }, { name: "$rc", type: bigint }]),
  };
  // BIGINT counts: numbers, or bigints in state written by an earlier version (see bigint-value.ts)
  const lc = (f: import("../types/sql-value.ts").SqlValue[]) => (f[ln] as BigintValue | null) ?? 0;
  const rc = (f: import("../types/sql-value.ts").SqlValue[]) => (f[ln + 1] as BigintValue | null) ?? 0;
  const keep: PlanExpr = {
    eval: s.op === "INTERSECT" ? (f) => lc(f) > 0 && rc(f) > 0 : s.all ? (f) => lc(f) > rc(f) : (f) => lc(f) > 0 && rc(f) == 0,
    type: { kind: "boolean", nullable: false },
    text: s.op === "INTERSECT" ? "AND(>($lc, 0), >($rc, 0))" : s.all ? ">($lc, $rc)" : "AND(>($lc, 0), =($rc, 0))",
    constant: false,
  };
  const kept: RelNode = { kind: "filter", input: counts, condition: keep, rowType: counts.rowType };
  if (!s.all) return project(kept, keys.map((i) => ({ expr: fieldRef(kept.rowType, i), name: names[i]! })));
  const times: PlanExpr = {
    eval: s.op === "INTERSECT" ? (f) => canonicalBigint(lc(f) < rc(f) ? lc(f) : rc(f)) : (f) => subtractInt64(lc(f), rc(f)),
    type: bigint,
    text: s.op === "INTERSECT" ? "LEAST($lc, $rc)" : "-($lc, $rc)",
    constant: false,
  };
  const withCount = project(kept, [...keys.map((i) => ({ expr: fieldRef(kept.rowType, i), name: names[i]! })), { expr: times, name: "$n" }]);
  return { kind: "replicate", input: withCount, countField: ln, rowType: planRowType(fieldsOf(withCount.rowType).slice(0, ln)) };
}

function constantExpr(v: number): PlanExpr {
  return { eval: () => v, type: { kind: "bigint", nullable: false }, text: String(v), constant: true };
}

/** `node`'s visible fields cast to `types` and named `names`. */
function castTo(node: RelNode, names: readonly string[], types: readonly LogicalType[]): RelNode {
  const same = types.every((t, i) => sameType(t, node.rowType.types[i]!)) && names.length === node.rowType.names.length;
  if (same) return node;
  return project(node, types.map((t, i) => ({ expr: castExpr(fieldRef(node.rowType, i), t), name: names[i]! })));
}

function sameType(a: LogicalType, b: LogicalType): boolean {
  return formatLogicalType(a) === formatLogicalType(b);
}

/** `e` cast to `to` (a no-op when the types print alike). */
export function castExpr(e: PlanExpr, to: LogicalType): PlanExpr {
  if (sameType(e.type, to) || e.type.kind === "null") return { ...e, type: to };
  const cast = castFunction(e.type, to);
  if (cast === undefined) throw new SqlValidationError(`Cannot cast <${formatLogicalType(e.type)}> to <${formatLogicalType(to)}>`);
  const ev = e.eval;
  return { eval: (f) => { const v = ev(f); return v === null ? null : cast(v); }, type: to, text: `CAST(${e.text} AS ${formatLogicalType(to)})`, constant: e.constant };
}

/** A projection node; output fields keep the time attribute of a plain column they copy. */
export function project(input: RelNode, items: { expr: PlanExpr; name: string; qualifier?: string }[]): RelNode {
  const names = uniqueNames(items.map((i) => i.name));
  const fields: PlanField[] = items.map((it, i) => ({
    name: names[i]!,
    type: it.expr.type,
    qualifier: it.qualifier,
    time: it.expr.proctime ? "proctime" : it.expr.inputRef === undefined ? undefined : input.rowType.timeAttributes[it.expr.inputRef],
  }));
  let rowType: PlanRowType = planRowType(fields);
  const wb = input.rowType.windowBounds;
  if (wb !== undefined) {
    const start = items.findIndex((i) => i.expr.inputRef === wb[0]);
    const end = items.findIndex((i) => i.expr.inputRef === wb[1]);
    if (start >= 0 && end >= 0) rowType = { ...rowType, windowBounds: [start, end] };
  }
  const we = input.rowType.windowEnds;
  if (we !== undefined) {
    const ends = items.flatMap((it, i) => (it.expr.inputRef !== undefined && we.includes(it.expr.inputRef) ? [i] : []));
    if (ends.length > 0) rowType = { ...rowType, windowEnds: ends };
  }
  return { kind: "project", input, exprs: items.map((i) => i.expr), rowType };
}

/** Names made unique as Calcite does: a repeated `id` becomes `id0`, `id1`, … */
export function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((n) => {
    let name = n;
    for (let k = 0; seen.has(name); k++) name = `${n}${k}`;
    seen.add(name);
    return name;
  });
}

/** `SELECT DISTINCT` over every visible field. */
export function distinct(node: RelNode): RelNode {
  const keys = node.rowType.names.map((_, i) => i).filter((i) => isVisible(node.rowType.names[i]!));
  return { kind: "aggregate", input: node, groupKeys: keys, calls: [], rowType: planRowType(keys.map((i) => ({ ...fieldsOf(node.rowType)[i]!, time: undefined }))) };
}

// ------------------------------------------------------------------ SELECT

function convertSelect(ctx: PlannerContext, s: SelectBody, ctes: CteScope): RelNode {
  let where = s.where;
  let from: FromResult;
  if (s.from === undefined) {
    from = { node: { kind: "values", rows: [[]], rowType: planRowType([]) } };
  } else if (s.from.kind === "join" && (s.from.comma || s.from.joinType === "INNER" || s.from.joinType === "CROSS") && where !== undefined) {
    // FROM a, b WHERE … (or an inner join): the WHERE's conjuncts are the join's condition (an inner join filters
    // alike), so they become keys, interval bounds or filters pushed into one side; subquery conjuncts stay
    const parts = conjuncts(where);
    const plain = parts.filter((c) => !someExpr(c, isSubqueryExpr));
    const on = conjunction([...(s.from.on === undefined ? [] : [s.from.on]), ...plain]);
    from = convertFrom(ctx, { ...s.from, joinType: "INNER", ...(on === undefined ? {} : { on }) }, ctes);
    where = conjunction(parts.filter((c) => someExpr(c, isSubqueryExpr)));
  } else {
    from = convertFrom(ctx, s.from, ctes);
  }
  let node = from.node;
  if (from.pendingRank !== undefined) {
    // GROUP BY may name the rank column (and grouping sets are not looked into): keep it then
    const outer = s.items.map((i) => i.expr);
    if (s.having !== undefined) outer.push(s.having);
    if (s.groupBy !== undefined) outer.push({ kind: "star", qualifier: [], loc: s.loc });
    const r = applyPendingRank(from.pendingRank, where, outer);
    node = r.node;
    where = r.remainingWhere;
  }
  if (where !== undefined) {
    if (someExpr(where, isAggregateCall)) throw new SqlValidationError("Aggregate functions are not allowed in WHERE; use HAVING", where.loc);
    node = applyWhere(ctx, node, where, ctes);
  }

  const items = s.items;
  const having = s.having;
  const aggregated = s.groupBy !== undefined || items.some((i) => someExpr(i.expr, isAggregateCall)) || (having !== undefined);
  let rewriteExpr: (e: Expr) => Expr = (e) => e;
  if (aggregated) {
    const aliases = new Map(items.flatMap((i, idx) => (isAggregateCall(i.expr) ? [[i.expr, i.alias?.value ?? `EXPR$${idx}`] as const] : [])));
    const agg = convertAggregation(node, s.groupBy ?? [], [...items.map((i) => i.expr), ...(having ? [having] : [])], s.loc, aliases);
    node = agg.node;
    rewriteExpr = agg.rewrite;
  }
  if (having !== undefined) {
    node = filterNode(node, rewriteExpr(having));
  }
  let selectItems: SelectItem[] = items.map((i) => ({ ...i, expr: rewriteExpr(i.expr) }));
  if (selectItems.some((i) => hasOverCall(i.expr))) {
    const over = convertOver(node, selectItems, s.windows ?? []);
    node = over.node;
    selectItems = over.items;
  }
  node = projectSelectItems(node, selectItems, items);
  return s.distinct ? distinct(node) : node;
}

function isSubqueryExpr(e: Expr): boolean {
  return e.kind === "inQuery" || e.kind === "exists" || e.kind === "subquery";
}

/** A filter node for `condition` over `node`'s fields (named as in `scope`); it must be BOOLEAN. */
export function filterNode(node: RelNode, condition: Expr, scope: PlanRowType = node.rowType, text?: string): RelNode {
  // a conjunct that is always TRUE goes, one that is never TRUE empties the result
  const kept: Expr[] = [];
  for (const part of conjuncts(condition)) {
    const b = bindPlanExpr(part, scope);
    const v = b.constant ? constantValue(b) : undefined;
    if (v === true) continue;
    if (v !== undefined) return { kind: "values", rows: [], rowType: node.rowType };
    kept.push(part);
  }
  if (kept.length === 0) return node;
  const c = bindPlanExpr(conjunction(kept)!, scope, kept.length === conjuncts(condition).length ? text : undefined);
  if (c.type.kind !== "boolean" && c.type.kind !== "null") {
    throw new SqlValidationError(`A filter condition must be BOOLEAN, not ${formatLogicalType(c.type)}`, condition.loc);
  }
  return simplifiedFilter(node, c);
}

/** The value of a constant expression, or undefined when evaluating it fails (it fails per row then, as in Flink). */
function constantValue(e: PlanExpr): import("../types/sql-value.ts").SqlValue | undefined {
  try {
    return e.eval([]);
  } catch {
    return undefined;
  }
}

/** Predicate simplification: a filter over a filter is one conjunction. */
function simplifiedFilter(node: RelNode, c: PlanExpr): RelNode {
  if (node.kind === "filter") {
    const a = node.condition.eval;
    const b = c.eval;
    const both: PlanExpr = {
      eval: (f) => (a(f) === true ? b(f) : false),
      type: c.type,
      text: `AND(${node.condition.text}, ${c.text})`,
      constant: false,
      reads: [...new Set([...(node.condition.reads ?? []), ...(c.reads ?? [])])].sort((x, y) => x - y),
    };
    return { kind: "filter", input: node.input, condition: both, rowType: node.rowType };
  }
  return { kind: "filter", input: node, condition: c, rowType: node.rowType };
}

/** The select list over `node`: `*` and `t.*` expanded, names from aliases, columns or `EXPR$i`. */
function projectSelectItems(node: RelNode, items: SelectItem[], original: SelectItem[]): RelNode {
  const t = node.rowType;
  const out: { expr: PlanExpr; name: string }[] = [];
  items.forEach((item, idx) => {
    const e = item.expr;
    if (e.kind === "star") {
      const q = e.qualifier.map((x) => x.value).join(".");
      let any = false;
      t.names.forEach((name, i) => {
        if (!isVisible(name) || (q !== "" && t.qualifiers[i] !== q)) return;
        any = true;
        out.push({ expr: fieldRef(t, i), name });
      });
      if (!any) throw new SqlValidationError(q === "" ? "SELECT * over no columns" : `Table '${q}' not found`, e.loc);
      return;
    }
    const bound = bindPlanExpr(e, t, exprSqlText(original[idx]!.expr));
    const name = item.alias?.value ?? (original[idx]!.expr.kind === "column" ? lastName(original[idx]!.expr) : bound.inputRef !== undefined && isVisible(t.names[bound.inputRef]!) && e.kind === "column" ? t.names[bound.inputRef]! : `EXPR$${idx}`);
    out.push({ expr: bound, name });
  });
  return project(node, out);
}

function lastName(e: Expr): string {
  return e.kind === "column" ? e.names[e.names.length - 1]!.value : "";
}


// ------------------------------------------------------------------ ORDER BY / LIMIT

function orderAndLimit(node: RelNode, q: Query): RelNode {
  const t = node.rowType;
  const orderBy = q.orderBy.map((o) => {
    const e = bindPlanExpr(o.expr, t);
    if (e.inputRef === undefined) throw new SqlValidationError("ORDER BY supports only columns of the select list", o.expr.loc);
    return { field: e.inputRef, descending: o.descending, nullsFirst: o.nulls === undefined ? !o.descending : o.nulls === "FIRST" };
  });
  if (q.limit === undefined) {
    if (orderBy.length > 0 && t.timeAttributes[orderBy[0]!.field] === "rowtime" && !orderBy[0]!.descending) return node;
    throw new SqlValidationError("Sort on a non-time-attribute field is not supported; add a LIMIT (Top-N) or sort by an ascending time attribute", q.orderBy[0]!.expr.loc);
  }
  const limit = constantInt(q.limit, "LIMIT");
  const offset = q.offset === undefined ? 0 : constantInt(q.offset, "OFFSET");
  return {
    kind: "rank",
    input: node,
    partitionKeys: [],
    orderBy,
    rankType: "ROW_NUMBER",
    rankStart: offset + 1,
    rankEnd: offset + limit,
    outputRankNumber: false,
    rowType: t,
  };
}

function constantInt(e: Expr, what: string): number {
  const b = bindPlanExpr(e, planRowType([]));
  const v = b.constant ? b.eval([]) : null;
  const n = typeof v === "bigint" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) throw new SqlValidationError(`${what} must be a non-negative integer constant`, e.loc);
  return n;
}
