/**
 * GROUP BY and aggregate calls: the grouping expressions and grouping sets
 * (`GROUPING SETS`, `ROLLUP`, `CUBE` through an expand node), the aggregate
 * calls of the select list and HAVING, the projection of their arguments
 * into the aggregation's input, and the rewrite of the select list to read
 * the aggregation's output. Grouping by a window TVF's `window_start` and
 * `window_end` makes a window aggregation, and so does a legacy group window
 * (`GROUP BY TUMBLE(ts, …)`, see convert-group-window.ts).
 */
import type { Expr, ExprOf, GroupingElement, SourceLoc } from "../sql/ast.ts";
import type { AggFunctionName } from "../runtime/aggregate-call.ts";
import type { AggregateCall } from "../runtime/aggregate-call.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { callName, columnRef, rewrite, someExpr } from "./ast-walk.ts";
import { aggregateCall, AGGREGATE_FUNCTIONS } from "./aggregate-call-type.ts";
import { bindPlanExpr, canonicalText, fieldRef, userAggregate } from "./bind-plan-expr.ts";
import { planUserAggregateCall, requireMerge } from "./user-aggregate-call.ts";
import { convertGroupWindow } from "./convert-group-window.ts";
import { exprSqlText } from "../catalog/expr-sql-text.ts";
import { project } from "./convert-query.ts";
import { fieldsOf, planRowType, type PlanField } from "./plan-row-type.ts";
import type { PlanExpr, RelNode, RelNodeOf } from "./rel-node.ts";
import type { WindowSpec } from "../runtime/window-spec.ts";

/** True for a call of a built-in or user-defined aggregate function without OVER. */
export function isAggregateCall(e: Expr): boolean {
  return e.kind === "call" && e.over === undefined && e.overWindow === undefined && (AGGREGATE_FUNCTIONS.has(callName(e)) || userAggregate(callName(e)) !== undefined);
}

/** The aggregation's node and the rewrite of expressions over its input into expressions over its output. */
export interface Aggregation {
  node: RelNode;
  rewrite(e: Expr): Expr;
}

/**
 * Plans `GROUP BY groupBy` with the aggregate calls found in `exprs` over
 * `input`.
 *
 * @throws {SqlValidationError} for nested aggregates and misplaced window columns.
 */
export function convertAggregation(
  input: RelNode,
  groupBy: GroupingElement[],
  exprs: Expr[],
  loc: SourceLoc,
  aliases: ReadonlyMap<Expr, string> = new Map(),
): Aggregation {
  const groupWindow = convertGroupWindow(input, groupBy);
  if (groupWindow !== undefined) {
    const mapped = exprs.map(groupWindow.properties);
    const mappedAliases = new Map(exprs.flatMap((e, i) => (aliases.has(e) ? [[mapped[i]!, aliases.get(e)!] as const] : [])));
    const agg = convertAggregation(groupWindow.input, groupWindow.groupBy, mapped, loc, mappedAliases);
    return { node: agg.node, rewrite: (e) => agg.rewrite(groupWindow.properties(e)) };
  }
  const { groupExprs, sets } = groupingOf(groupBy, input);
  const calls = collectCalls(exprs, input);
  const tvf = windowInput(input, groupExprs);
  const agg = tvf === undefined ? regular(input, groupExprs, sets, calls) : windowed(tvf, groupExprs, sets, calls, loc);
  const names = calls.map((c) => aliases.get(c.call) ?? c.call.name.map((n) => n.value).join("."));
  if (agg.node.kind === "aggregate" || agg.node.kind === "windowAggregate") agg.node.callNames = names;
  return agg;
}

// ---------------------------------------------------------------- grouping

function groupingOf(groupBy: GroupingElement[], input: RelNode): { groupExprs: Expr[]; sets: number[][] | undefined } {
  const groupExprs: Expr[] = [];
  const keys: string[] = [];
  const indexOf = (e: Expr) => {
    const k = canonicalText(e, input.rowType);
    let i = keys.indexOf(k);
    if (i < 0) {
      i = keys.length;
      keys.push(k);
      groupExprs.push(e);
    }
    return i;
  };
  let plain = true;
  let product: number[][] = [[]];
  for (const el of groupBy) {
    let options: number[][];
    switch (el.kind) {
      case "expr":
        options = [[indexOf(el.expr)]];
        break;
      case "groupingSets":
        plain = false;
        options = el.sets.map((s) => s.map(indexOf));
        break;
      case "rollup": {
        plain = false;
        const ids = el.exprs.map(indexOf);
        options = ids.map((_, i) => ids.slice(0, ids.length - i)).concat([[]]);
        break;
      }
      case "cube": {
        plain = false;
        const ids = el.exprs.map(indexOf);
        options = [];
        for (let mask = (1 << ids.length) - 1; mask >= 0; mask--) options.push(ids.filter((_, i) => (mask & (1 << (ids.length - 1 - i))) !== 0));
        break;
      }
    }
    product = product.flatMap((p) => options.map((o) => [...new Set([...p, ...o])].sort((a, b) => a - b)));
  }
  if (plain) return { groupExprs, sets: undefined };
  const unique = [...new Map(product.map((s) => [s.join(","), s])).values()];
  return { groupExprs, sets: unique };
}

// ---------------------------------------------------------------- aggregate calls

interface CallSite {
  key: string;
  call: ExprOf<"call">;
}

function collectCalls(exprs: Expr[], input: RelNode): CallSite[] {
  const sites: CallSite[] = [];
  for (const root of exprs) {
    const visit = (e: Expr): boolean => {
      if (!isAggregateCall(e)) return true;
      const call = e as ExprOf<"call">;
      for (const a of call.args) {
        if (someExpr(a.value, isAggregateCall)) throw new SqlValidationError("Aggregate function calls cannot be nested", a.value.loc);
      }
      const key = canonicalText(call, input.rowType);
      if (!sites.some((s) => s.key === key)) sites.push({ key, call });
      return false;
    };
    walkNoSubquery(root, visit);
  }
  return sites;
}

function walkNoSubquery(e: Expr, visit: (e: Expr) => boolean): void {
  rewrite(e, (x) => (visit(x) ? undefined : x));
}

/** The pre-projection's items: the group keys, then the arguments and filters of every call. */
interface PreProjection {
  items: { expr: PlanExpr; name: string }[];
  calls: AggregateCall[];
}

function preProject(source: RelNode, groupExprs: Expr[], calls: CallSite[], extra: PlanExpr[] = []): PreProjection {
  const t = source.rowType;
  const items: { expr: PlanExpr; name: string }[] = [];
  const texts: string[] = [];
  const add = (e: PlanExpr, name: string) => {
    const i = texts.indexOf(e.text);
    if (i >= 0 && i >= groupExprs.length) return i;
    texts.push(e.text);
    items.push({ expr: e, name });
    return items.length - 1;
  };
  groupExprs.forEach((g, i) => add(bindPlanExpr(g, t, canonicalText(g, t)), groupName(g, i)));
  for (const e of extra) add(e, `$x${items.length}`);
  const planned = calls.map((site) => {
    const c = site.call;
    const udf = userAggregate(callName(c));
    if (udf !== undefined) return planUserAggregateCall(udf, c, t, (e, kind) => add(e, `$${kind}${items.length}`));
    const fn = callName(c) as AggFunctionName;
    const argExprs = c.star ? [] : c.args.map((a) => bindPlanExpr(a.value, t, canonicalText(a.value, t)));
    let separator: string | undefined;
    if (fn === "LISTAGG" && argExprs.length === 2) {
      const sep = argExprs.pop()!;
      if (!sep.constant) throw new SqlValidationError("The separator of LISTAGG must be a constant", c.args[1]!.value.loc);
      separator = String(sep.eval([]));
    }
    if (fn === "COUNT" && argExprs.length === 0 && c.distinct) throw new SqlValidationError("COUNT(DISTINCT *) is not supported", c.loc);
    const args = argExprs.map((a) => add(a, `$arg${items.length}`));
    let filterArg: number | undefined;
    if (c.filter !== undefined) {
      const f = bindPlanExpr(c.filter, t, canonicalText(c.filter, t));
      if (f.type.kind !== "boolean") throw new SqlValidationError("FILTER condition must be BOOLEAN", c.filter.loc);
      filterArg = add(f, `$filter${items.length}`);
    }
    return aggregateCall(fn, args, argExprs.map((a) => a.type), c.distinct, filterArg, exprSqlText(c), c.loc, separator);
  });
  return { items, calls: planned };
}

function groupName(g: Expr, i: number): string {
  return g.kind === "column" ? g.names[g.names.length - 1]!.value : `$g${i}`;
}

// ---------------------------------------------------------------- regular aggregation

function regular(input: RelNode, groupExprs: Expr[], sets: number[][] | undefined, calls: CallSite[]): Aggregation {
  const pre = preProject(input, groupExprs, calls);
  let node = project(input, pre.items);
  let groupKeys = groupExprs.map((_, i) => i);
  if (sets !== undefined) {
    node = expandNode(node, groupKeys, sets);
    groupKeys = [...groupKeys, node.rowType.names.length - 1];
  }
  const fields: PlanField[] = [
    ...groupKeys.map((k, i) => ({ name: i < groupExprs.length ? `$g${i}` : "$e", type: nullableIf(node.rowType.types[k]!, sets !== undefined) })),
    ...pre.calls.map((c, i) => ({ name: `$a${i}`, type: c.resultType })),
  ];
  const agg: RelNode = { kind: "aggregate", input: node, groupKeys, calls: pre.calls, rowType: planRowType(fields) };
  return { node: agg, rewrite: rewriter(input, groupExprs, calls, new Map()) };
}

function nullableIf(t: import("../types/logical-type.ts").LogicalType, nullable: boolean) {
  return nullable ? { ...t, nullable: true } : t;
}

function expandNode(node: RelNode, groupKeys: number[], sets: number[][]): RelNode {
  const fields = fieldsOf(node.rowType).map((f, i) => (groupKeys.includes(i) ? { ...f, type: { ...f.type, nullable: true } } : f));
  return {
    kind: "expand",
    input: node,
    groupKeys,
    groupingSets: sets.map((s) => s.map((i) => groupKeys[i]!)),
    rowType: planRowType([...fields, { name: "$e", type: { kind: "bigint", nullable: false } }]),
  };
}

/** Replaces aggregate calls by `$a{i}`, group expressions by `$g{i}` and window columns by `$ws`/`$we`/`$wt`; any other column is an error. */
function rewriter(input: RelNode, groupExprs: Expr[], calls: CallSite[], windowColumns: Map<number, string>) {
  const groupKeys = groupExprs.map((g) => canonicalText(g, input.rowType));
  return (root: Expr): Expr =>
    rewrite(root, (e) => {
      if (isAggregateCall(e)) {
        const k = canonicalText(e, input.rowType);
        return columnRef(`$a${calls.findIndex((c) => c.key === k)}`, e.loc);
      }
      if (e.kind === "inQuery" || e.kind === "exists" || e.kind === "subquery") return undefined;
      if (e.kind === "column") {
        const w = windowColumns.get(bindPlanExpr(e, input.rowType).inputRef!);
        if (w !== undefined) return columnRef(w, e.loc);
      }
      let k: string;
      try {
        k = canonicalText(e, input.rowType);
      } catch {
        return undefined;
      }
      const g = groupKeys.indexOf(k);
      if (g >= 0) return columnRef(`$g${g}`, e.loc);
      if (e.kind === "column") {
        throw new SqlValidationError(`Expression '${exprSqlText(e).replaceAll("`", "")}' is not being grouped`, e.loc);
      }
      return undefined;
    });
}

// ---------------------------------------------------------------- window aggregation

interface WindowInput {
  tvf: RelNodeOf<"windowTableFunction">;
  /** A filter between the TVF and the aggregation, moved below the TVF. */
  filter?: PlanExpr;
  /** Set for a window aggregation over windowed rows (a cascade): the positions of their window_start and window_end. */
  cascade?: readonly [number, number];
}

/** The window TVF under `input` when the GROUP BY has its window_start and window_end. */
function windowInput(input: RelNode, groupExprs: Expr[]): WindowInput | undefined {
  let node = input;
  let filter: PlanExpr | undefined;
  if (node.kind === "filter" && node.input.kind === "windowTableFunction") {
    filter = node.condition;
    node = node.input;
  }
  const positions = new Set<number>();
  for (const g of groupExprs) {
    const e = bindPlanExpr(g, input.rowType);
    if (e.inputRef !== undefined) positions.add(e.inputRef);
  }
  const bounds = input.rowType.windowBounds;
  if (node.kind !== "windowTableFunction") {
    // rows of windows already (a window aggregation's output) grouped by their window again: each window's rows
    // share its window_end, so a 1 ms tumbling window on window_end - 1 (the window's window_time) fires each
    // window once, when the watermark reaches its window_end - 1: where the window aggregation below fired it,
    // as Flink fires a cascaded window (a window join of both levels then sees both rows before it fires)
    if (bounds === undefined || !positions.has(bounds[0]) || !positions.has(bounds[1])) return undefined;
    const t = input.rowType;
    const endField = bounds[1];
    const end = t.types[endField]!;
    const windowTime: PlanExpr = {
      eval: (f) => (typeof f[endField] === "number" ? (f[endField] as number) - 1 : null),
      type: end,
      text: `${t.names[endField]} - INTERVAL '0.001' SECOND`,
      constant: false,
      reads: [endField],
    };
    const timed = project(input, [...fieldsOf(t).map((f, i) => ({ expr: fieldRef(t, i), name: f.name, ...(f.qualifier === undefined ? {} : { qualifier: f.qualifier }) })), { expr: windowTime, name: "$cwt" }]);
    const tvf: RelNodeOf<"windowTableFunction"> = {
      kind: "windowTableFunction",
      input: timed,
      window: { kind: "tumble", timeField: t.names.length, size: 1, offset: 0 },
      text: `CASCADE(window_start=[${t.names[bounds[0]]}], window_end=[${t.names[endField]}])`,
      rowType: planRowType([...fieldsOf(timed.rowType), { name: "$cs", type: end }, { name: "$ce", type: end }, { name: "$ct", type: end, time: "rowtime" }]),
    };
    return { tvf, cascade: [bounds[0], bounds[1]] };
  }
  const n = node.input.rowType.names.length;
  if (!positions.has(n) || !positions.has(n + 1)) return undefined;
  if (filter !== undefined && (filter.reads === undefined || filter.reads.some((r) => r >= n))) return undefined;
  return { tvf: node, ...(filter === undefined ? {} : { filter }) };
}

function windowed(w: WindowInput, groupExprs: Expr[], sets: number[][] | undefined, calls: CallSite[], loc: SourceLoc): Aggregation {
  const tvf = w.tvf;
  const outer: RelNode = w.filter === undefined ? tvf : { kind: "filter", input: tvf, condition: w.filter, rowType: tvf.rowType };
  const n = tvf.input.rowType.names.length;
  let source: RelNode = tvf.input;
  if (w.filter !== undefined) source = { kind: "filter", input: source, condition: w.filter, rowType: source.rowType };
  const windowPositions = new Map<number, string>([[n, "$ws"], [n + 1, "$we"], [n + 2, "$wt"]]);
  const keyIndexes: number[] = [];
  const keyExprs: Expr[] = [];
  groupExprs.forEach((g, i) => {
    const e = bindPlanExpr(g, outer.rowType);
    if (e.inputRef !== undefined && windowPositions.has(e.inputRef)) return;
    if (e.reads?.some((r) => r >= n)) throw new SqlValidationError("A window aggregation can group by window_start, window_end and window_time only as plain columns", g.loc);
    keyIndexes.push(i);
    keyExprs.push(g);
  });
  for (const c of calls) {
    for (const a of c.call.args) {
      if (bindPlanExpr(a.value, outer.rowType).reads?.some((r) => r >= n)) throw new SqlValidationError("Aggregate arguments cannot read the window columns", a.value.loc);
    }
  }
  const timeRef = fieldRef(source.rowType, tvf.window.timeField);
  const pre = preProject(source, keyExprs, calls, [timeRef]);
  let node = project(source, pre.items);
  const timeField = pre.items.findIndex((it) => it.expr === timeRef);
  let groupKeys = keyExprs.map((_, i) => i);
  if (sets !== undefined) {
    // every grouping set must hold window_start and window_end; the sets are over the non-window keys
    const setsOverKeys = sets.map((s) => {
      const kept = s.filter((i) => keyIndexes.includes(i));
      if (s.length - kept.length < 2) throw new SqlValidationError("Every grouping set of a window aggregation must contain window_start and window_end", loc);
      return kept.map((i) => keyIndexes.indexOf(i));
    });
    node = expandNode(node, groupKeys, setsOverKeys);
    groupKeys = [...groupKeys, node.rowType.names.length - 1];
  }
  const window: WindowSpec = tvf.window.kind === "session" ? { ...tvf.window, timeField, partitionKeys: [] } : { ...tvf.window, timeField };
  requireMerge(pre.calls, window);
  const ts = tvf.rowType.types[n]!;
  const fields: PlanField[] = [
    ...groupKeys.map((k, i) => ({ name: i < keyExprs.length ? `$g${keyIndexes[i]}` : "$e", type: nullableIf(node.rowType.types[k]!, sets !== undefined) })),
    ...pre.calls.map((c, i) => ({ name: `$a${i}`, type: c.resultType })),
    { name: "$ws", type: ts },
    { name: "$we", type: tvf.rowType.types[n + 1]! },
    { name: "$wt", type: tvf.rowType.types[n + 2]!, time: "rowtime" as const },
  ];
  let windowBounds: [number, number] = [fields.length - 3, fields.length - 2];
  if (w.cascade !== undefined) {
    const keyOf = (pos: number) => keyExprs.findIndex((g) => bindPlanExpr(g, outer.rowType).inputRef === pos);
    windowBounds = [keyOf(w.cascade[0]), keyOf(w.cascade[1])];
  }
  const agg: RelNode = {
    kind: "windowAggregate",
    input: node,
    window,
    windowText: tvf.text,
    groupKeys,
    calls: pre.calls,
    rowType: { ...planRowType(fields), windowBounds, windowEnds: [windowBounds[1]] },
  };
  return { node: agg, rewrite: rewriter(outer, groupExprs, calls, windowPositions) };
}
