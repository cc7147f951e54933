/**
 * OVER aggregations in the select list (`SUM(amount) OVER (PARTITION BY
 * product ORDER BY order_time RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND
 * CURRENT ROW)`): every OVER call of a select list must use the same window,
 * ordered by an ascending time attribute, and end at the current row, as in
 * Flink's streaming mode.
 */
import type { Expr, ExprOf, FrameBound, SelectItem, WindowSpec as OverSpec, Identifier } from "../sql/ast.ts";
import { exprSqlText } from "../catalog/expr-sql-text.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { AggFunctionName } from "../runtime/aggregate-call.ts";
import { callName, columnRef, rewrite, someExpr } from "./ast-walk.ts";
import { aggregateCall, AGGREGATE_FUNCTIONS } from "./aggregate-call-type.ts";
import { bindPlanExpr, canonicalText, fieldRef, userAggregate } from "./bind-plan-expr.ts";
import { planUserAggregateCall, requireRetract } from "./user-aggregate-call.ts";
import { project } from "./convert-query.ts";
import { fieldsOf, planRowType } from "./plan-row-type.ts";
import type { PlanExpr, RelNode } from "./rel-node.ts";

function isOverCall(e: Expr): e is ExprOf<"call"> {
  return e.kind === "call" && (e.over !== undefined || e.overWindow !== undefined);
}

/** True when `e` has an OVER call. */
export function hasOverCall(e: Expr): boolean {
  return someExpr(e, isOverCall);
}

/** The over-aggregation node under the select list, and the select list reading its output. */
export function convertOver(input: RelNode, items: SelectItem[], windows: { name: Identifier; spec: OverSpec }[]): { node: RelNode; items: SelectItem[] } {
  const t = input.rowType;
  const calls: ExprOf<"call">[] = [];
  const keys: string[] = [];
  for (const it of items) {
    rewrite(it.expr, (e) => {
      if (!isOverCall(e)) return undefined;
      const k = canonicalText({ ...e, over: undefined, overWindow: undefined } as Expr, t);
      if (!keys.includes(k)) {
        keys.push(k);
        calls.push(e);
      }
      return e;
    });
  }
  const specOf = (c: ExprOf<"call">): OverSpec => {
    if (c.over !== undefined) return c.over;
    const w = windows.find((x) => x.name.value === c.overWindow!.value);
    if (w === undefined) throw new SqlValidationError(`Window '${c.overWindow!.value}' not found`, c.overWindow!.loc);
    return w.spec;
  };
  const spec = specOf(calls[0]!);
  const specText = (s: OverSpec) => JSON.stringify([s.partitionBy.map((e) => canonicalText(e, t)), s.orderBy.map((o) => [canonicalText(o.expr, t), o.descending]), frameText(s)]);
  for (const c of calls) {
    const name = callName(c);
    if (!AGGREGATE_FUNCTIONS.has(name) && userAggregate(name) === undefined) {
      throw new SqlValidationError(`${name}() OVER is supported only in a Top-N or deduplication subquery (filtered by its result in the outer WHERE)`, c.loc);
    }
    if (specText(specOf(c)) !== specText(spec)) throw new SqlValidationError("Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the same window.", c.loc);
  }
  if (spec.orderBy.length !== 1) throw new SqlValidationError("OVER windows need exactly one ORDER BY column, a time attribute", calls[0]!.loc);
  const order = spec.orderBy[0]!;
  const orderRef = bindPlanExpr(order.expr, t);
  if (orderRef.inputRef === undefined || t.timeAttributes[orderRef.inputRef] === undefined || order.descending) {
    throw new SqlValidationError("OVER windows' ordering in stream mode must be defined on a time attribute, ascending", order.expr.loc);
  }
  const frame = frameOf(spec);
  // the input's fields, then partition keys, arguments and filters that are not plain columns
  const extra: { expr: PlanExpr; name: string }[] = [];
  const position = (e: PlanExpr): number => {
    if (e.inputRef !== undefined) return e.inputRef;
    const i = extra.findIndex((x) => x.expr.text === e.text);
    if (i >= 0) return t.names.length + i;
    extra.push({ expr: e, name: `$x${extra.length}` });
    return t.names.length + extra.length - 1;
  };
  const partitionKeys = spec.partitionBy.map((e) => position(bindPlanExpr(e, t, canonicalText(e, t))));
  const planned = calls.map((c) => {
    const udf = userAggregate(callName(c));
    if (udf !== undefined) return planUserAggregateCall(udf, c, t, position);
    const fn = callName(c) as AggFunctionName;
    const args = c.star ? [] : c.args.map((a) => bindPlanExpr(a.value, t, canonicalText(a.value, t)));
    const filterArg = c.filter === undefined ? undefined : position(bindPlanExpr(c.filter, t, canonicalText(c.filter, t)));
    return aggregateCall(fn, args.map(position), args.map((a) => a.type), c.distinct, filterArg, exprSqlText({ ...c, over: undefined, overWindow: undefined } as Expr), c.loc);
  });
  if (frame.preceding !== "unbounded") requireRetract(planned, "a bounded OVER frame");
  const pre = extra.length === 0 ? input : project(input, [...fieldsOf(t).map((f, i) => ({ expr: fieldRef(t, i), name: f.name, ...(f.qualifier === undefined ? {} : { qualifier: f.qualifier }) })), ...extra]);
  const preFields = fieldsOf(pre.rowType);
  const node: RelNode = {
    kind: "overAggregate",
    input: pre,
    partitionKeys,
    timeField: orderRef.inputRef,
    frame,
    calls: planned,
    rowType: planRowType([...preFields, ...planned.map((c, i) => ({ name: `$o${i}`, type: c.resultType }))]),
  };
  const rewritten = items.map((it) => ({
    ...it,
    expr: rewrite(it.expr, (e) => {
      if (!isOverCall(e)) return undefined;
      const k = canonicalText({ ...e, over: undefined, overWindow: undefined } as Expr, t);
      return columnRef(`$o${keys.indexOf(k)}`, e.loc);
    }),
  }));
  return { node, items: rewritten };
}

function frameText(s: OverSpec): string {
  return s.frame === undefined ? "" : `${s.frame.unit}:${boundText(s.frame.start)}:${boundText(s.frame.end)}`;
}

function boundText(b: FrameBound): string {
  return b.kind === "preceding" || b.kind === "following" ? `${b.kind}:${exprSqlText(b.offset)}` : b.kind;
}

function frameOf(spec: OverSpec): { unit: "ROWS" | "RANGE"; preceding: number | "unbounded" } {
  const f = spec.frame;
  if (f === undefined) return { unit: "RANGE", preceding: "unbounded" };
  if (f.end.kind !== "currentRow") throw new SqlValidationError("OVER windows in stream mode must end at CURRENT ROW", f.end.kind === "preceding" || f.end.kind === "following" ? f.end.offset.loc : undefined);
  const s = f.start;
  if (s.kind === "unboundedPreceding") return { unit: f.unit, preceding: "unbounded" };
  if (s.kind === "currentRow") return { unit: f.unit, preceding: 0 };
  if (s.kind !== "preceding") throw new SqlValidationError("OVER window frames must start at a PRECEDING bound");
  const b = bindPlanExpr(s.offset, planRowType([]));
  const v = b.constant ? b.eval([]) : null;
  if (f.unit === "ROWS") {
    const n = typeof v === "bigint" ? Number(v) : v;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || b.type.kind === "interval") throw new SqlValidationError("ROWS frames take a non-negative integer", s.offset.loc);
    return { unit: "ROWS", preceding: n };
  }
  if (b.type.kind !== "interval" || typeof v !== "number") throw new SqlValidationError("RANGE frames over a time attribute take an INTERVAL", s.offset.loc);
  return { unit: "RANGE", preceding: v };
}
