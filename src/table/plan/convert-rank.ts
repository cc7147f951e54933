/**
 * Top-N and deduplication: a subquery whose select list has
 * `ROW_NUMBER() | RANK() | DENSE_RANK() OVER (PARTITION BY … ORDER BY …)`
 * becomes a rank node once the outer WHERE bounds that column
 * (`rownum <= 3`). Ordered by a time attribute and bounded to the first row
 * it is a deduplication; partitioned by a window TVF's `window_start` and
 * `window_end` it is a window Top-N or a window deduplication, as in Flink.
 */
import type { Expr, ExprOf, Query, SelectBody, SelectItem, WindowSpec as OverSpec } from "../sql/ast.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { callName, conjunction, conjuncts, someExpr } from "./ast-walk.ts";
import { bindPlanExpr, fieldRef } from "./bind-plan-expr.ts";
import { convertQuery, project, type CteScope } from "./convert-query.ts";
import type { PlannerContext } from "./planner-context.ts";
import { fieldsOf, planRowType, requalify } from "./plan-row-type.ts";
import type { PlanExpr, RelNode } from "./rel-node.ts";
import type { SortKey } from "../runtime/sort-spec.ts";

const RANK_FUNCTIONS = new Set(["ROW_NUMBER", "RANK", "DENSE_RANK"]);

/** A Top-N subquery waiting for the outer WHERE that bounds its rank column. */
export interface PendingRank {
  /** The subquery's rows with hidden partition/order columns appended. */
  input: RelNode;
  visible: number;
  rankName: string;
  /** The rank column's position among the subquery's visible columns (`SELECT *, ROW_NUMBER() …`: after all of `*`). */
  rankColumn: number;
  partitionKeys: number[];
  orderBy: SortKey[];
  rankType: "ROW_NUMBER" | "RANK" | "DENSE_RANK";
  alias?: string | undefined;
  loc: import("../sql/ast.ts").SourceLoc;
}

function rankItem(items: SelectItem[]): number {
  return items.findIndex((i) => i.expr.kind === "call" && (i.expr.over !== undefined || i.expr.overWindow !== undefined) && RANK_FUNCTIONS.has(callName(i.expr)));
}

/** True for a query whose select list ranks rows (a Top-N or deduplication subquery). */
export function isRankQuery(q: Query): boolean {
  return q.body.kind === "select" && q.orderBy.length === 0 && q.limit === undefined && rankItem(q.body.items) >= 0;
}

/** Converts a Top-N subquery up to its rank; {@link applyPendingRank} finishes it. */
export function convertRankSubquery(ctx: PlannerContext, q: Query, ctes: CteScope): { node: RelNode; pendingRank: PendingRank } {
  const body = q.body as SelectBody;
  const idx = rankItem(body.items);
  const item = body.items[idx]!;
  const call = item.expr as ExprOf<"call">;
  let spec: OverSpec | undefined = call.over;
  if (spec === undefined) {
    const w = body.windows?.find((x) => x.name.value === call.overWindow!.value);
    if (w === undefined) throw new SqlValidationError(`Window '${call.overWindow!.value}' not found`, call.overWindow!.loc);
    spec = w.spec;
  }
  if (spec.orderBy.length === 0) throw new SqlValidationError(`${callName(call)}() needs ORDER BY in its OVER clause`, call.loc);
  const others = body.items.filter((_, i) => i !== idx);
  const hidden: SelectItem[] = [
    ...spec.partitionBy.map((e, i) => ({ expr: e, alias: { value: `$rk${i}`, quoted: true, loc: e.loc } })),
    ...spec.orderBy.map((o, i) => ({ expr: o.expr, alias: { value: `$ro${i}`, quoted: true, loc: o.expr.loc } })),
  ];
  const inner = convertQuery(ctx, { ...q, body: { ...body, items: [...others, ...hidden] } }, ctes);
  const visible = inner.rowType.names.length - hidden.length;
  // a `*` stands for several columns: the rank column follows the columns of the items written before it
  const isStar = (i: SelectItem) => i.expr.kind === "star";
  const before = body.items.slice(0, idx);
  const after = body.items.slice(idx + 1);
  if (before.some(isStar) && after.some(isStar)) throw new SqlValidationError(`${callName(call)}() OVER between two '*' items is not supported: write it before or after them`, call.loc);
  const rankColumn = after.some(isStar) ? idx : visible - after.length;
  const partitionKeys = spec.partitionBy.map((_, i) => visible + i);
  const orderBy = spec.orderBy.map((o, i) => ({
    field: visible + spec!.partitionBy.length + i,
    descending: o.descending,
    nullsFirst: o.nulls === undefined ? !o.descending : o.nulls === "FIRST",
  }));
  // partition and order columns that are plain select-list columns are keyed by those (window bounds stay visible)
  const dedupe = (pos: number) => {
    const e = (inner.kind === "project" ? inner.exprs[pos] : undefined);
    if (e?.inputRef === undefined || inner.kind !== "project") return pos;
    const same = inner.exprs.findIndex((x, i) => i < visible && x.inputRef === e.inputRef);
    return same >= 0 ? same : pos;
  };
  return {
    node: inner,
    pendingRank: {
      input: inner,
      visible,
      rankName: item.alias?.value ?? `EXPR$${idx}`,
      rankColumn,
      partitionKeys: partitionKeys.map(dedupe),
      orderBy: orderBy.map((o) => ({ ...o, field: dedupe(o.field) })),
      rankType: callName(call) as PendingRank["rankType"],
      loc: call.loc,
    },
  };
}

/**
 * The rank node for `p` bounded by the conjuncts of `where` on its rank column; the other conjuncts remain.
 *
 * @param outer - the outer query's other expressions (select items, GROUP BY, HAVING): when neither they
 *   nor the remaining conjuncts read the rank column, the rank number is not computed, as Flink prunes it,
 *   and a Top-N emits the rows that enter and leave the top N (`+I`/`-D`) instead of updating ranks
 */
export function applyPendingRank(p: PendingRank, where: Expr | undefined, outer: readonly Expr[] = []): { node: RelNode; remainingWhere: Expr | undefined } {
  let start = 1;
  let end: number | undefined;
  const rest: Expr[] = [];
  for (const c of where === undefined ? [] : conjuncts(where)) {
    const b = rankBound(c, p);
    if (b === undefined) {
      rest.push(c);
      continue;
    }
    if (b.start !== undefined) start = Math.max(start, b.start);
    if (b.end !== undefined) end = end === undefined ? b.end : Math.min(end, b.end);
  }
  if (end === undefined) {
    throw new SqlValidationError(`${p.rankType}() is supported for Top-N only: bound '${p.rankName}' in the outer WHERE, e.g. WHERE ${p.rankName} <= 10`, p.loc);
  }
  const input = p.input;
  const t = input.rowType;
  const wb = t.windowBounds;
  const windowed = wb !== undefined && p.partitionKeys.includes(wb[0]) && p.partitionKeys.includes(wb[1]);
  const partitionKeys = windowed ? p.partitionKeys.filter((k) => k !== wb![0] && k !== wb![1]) : p.partitionKeys;
  const first = p.orderBy[0]!;
  const timeKind = t.timeAttributes[first.field];
  const isDedup = start === 1 && end === 1 && p.rankType === "ROW_NUMBER" && p.orderBy.length === 1 && timeKind !== undefined;
  const rn = { name: p.rankName, type: { kind: "bigint" as const, nullable: false } };
  let ranked: RelNode;
  if (isDedup) {
    const keepLast = first.descending;
    const dedup: RelNode = windowed
      ? { kind: "windowDeduplicate", input, keys: partitionKeys, window: [wb![0], wb![1]], timeField: first.field, keepLast, rowType: t }
      : { kind: "deduplicate", input, keys: partitionKeys, keepLast, ...(timeKind === "rowtime" ? { timeField: first.field } : {}), rowType: t };
    const one: PlanExpr = { eval: () => 1n, type: rn.type, text: "1", constant: true, reads: [] };
    ranked = project(dedup, [...fieldsOf(t).map((f, i) => ({ expr: fieldRef(t, i), name: f.name })), { expr: one, name: rn.name }]);
  } else {
    const outputRankNumber = [...outer, ...rest].some((e) => readsRank(e, p));
    const rowType = planRowType(outputRankNumber ? [...fieldsOf(t), rn] : fieldsOf(t));
    ranked = windowed
      ? { kind: "windowRank", input, partitionKeys, window: [wb![0], wb![1]], orderBy: p.orderBy, rankType: p.rankType, rankStart: start, rankEnd: end, outputRankNumber, rowType }
      : { kind: "rank", input, partitionKeys: p.partitionKeys, orderBy: p.orderBy, rankType: p.rankType, rankStart: start, rankEnd: end, outputRankNumber, rowType };
  }
  // the subquery's columns in their order, the rank column where it was written, hidden columns dropped
  const rt = ranked.rowType;
  const order = Array.from({ length: p.visible }, (_, i) => i);
  if (rt.names.length > t.names.length) order.splice(p.rankColumn, 0, rt.names.length - 1);
  const out = project(ranked, order.map((i) => ({ expr: fieldRef(rt, i), name: rt.names[i]! })));
  return { node: { ...out, rowType: requalify(out.rowType, p.alias) } as RelNode, remainingWhere: conjunction(rest) };
}

/** True when `e` may read the rank column: names it, is a `*`, or holds a subquery or an OVER call (not looked into). */
function readsRank(e: Expr, p: PendingRank): boolean {
  return someExpr(
    e,
    (x) =>
      x.kind === "star" ||
      x.kind === "inQuery" ||
      x.kind === "exists" ||
      x.kind === "subquery" ||
      (x.kind === "call" && (x.over !== undefined || x.overWindow !== undefined)) ||
      (x.kind === "column" && x.names.at(-1)!.value === p.rankName),
  );
}

/** `rn <= 3`, `rn < 4`, `rn = 1`, `3 >= rn`, `rn BETWEEN 2 AND 5`, `rn > 1` on the rank column. */
function rankBound(c: Expr, p: PendingRank): { start?: number; end?: number } | undefined {
  const isRank = (e: Expr) => e.kind === "column" && e.names.at(-1)!.value === p.rankName && (e.names.length === 1 || e.names.at(-2)!.value === p.alias);
  const constant = (e: Expr): number | undefined => {
    if (isRank(e)) return undefined;
    try {
      const b = bindPlanExpr(e, planRowType([]));
      const v = b.constant ? b.eval([]) : null;
      return typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : undefined;
    } catch {
      return undefined;
    }
  };
  if (c.kind === "between" && !c.not && isRank(c.operand)) {
    const lo = constant(c.low);
    const hi = constant(c.high);
    if (lo !== undefined && hi !== undefined) return { start: lo, end: hi };
    return undefined;
  }
  if (c.kind !== "binary") return undefined;
  let op = c.op;
  let n: number | undefined;
  if (isRank(c.left)) n = constant(c.right);
  else if (isRank(c.right)) {
    n = constant(c.left);
    op = ({ "<": ">", ">": "<", "<=": ">=", ">=": "<=" } as Record<string, typeof op>)[op] ?? op;
  }
  if (n === undefined) return undefined;
  switch (op) {
    case "<=": return { end: n };
    case "<": return { end: n - 1 };
    case "=": return { start: n, end: n };
    case ">=": return { start: n };
    case ">": return { start: n + 1 };
    default: return undefined;
  }
}
