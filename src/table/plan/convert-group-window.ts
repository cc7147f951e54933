/**
 * Flink's legacy group windows: `GROUP BY TUMBLE(ts, size)`,
 * `HOP(ts, slide, size)` or `SESSION(ts, gap)` with the window's bounds read
 * by `TUMBLE_START(ts, size)`, `…_END` and `…_ROWTIME` in the select list and
 * HAVING. They become the window TVF form: a window table function over the
 * aggregation's input whose (hidden) window columns are grouped, so they plan
 * and run as the window aggregations of `TABLE(TUMBLE(…))` do.
 */
import type { Expr, ExprOf, GroupingElement } from "../sql/ast.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { callName, columnRef, rewrite } from "./ast-walk.ts";
import { bindPlanExpr } from "./bind-plan-expr.ts";
import { windowNode } from "./convert-window-tvf.ts";
import { exprSqlText } from "../catalog/expr-sql-text.ts";
import type { RelNode } from "./rel-node.ts";

/** The parameters of each group window function after the time attribute. */
const PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  TUMBLE: ["SIZE"],
  HOP: ["SLIDE", "SIZE"],
  SESSION: ["GAP"],
};

/** The window columns of the rewritten input: hidden, so they never clash with the input's own. */
const COLUMNS = ["$window_start", "$window_end", "$window_time"] as const;

/** The auxiliary functions reading a group window's bounds, by suffix. */
const PROPERTIES: Readonly<Record<string, string>> = { START: COLUMNS[0], END: COLUMNS[1], ROWTIME: COLUMNS[2] };

/** An aggregation over a legacy group window, in the window TVF form. */
export interface GroupWindow {
  /** The window table function over the aggregation's input. */
  input: RelNode;
  /** The GROUP BY with the window call replaced by the window's start and end. */
  groupBy: GroupingElement[];
  /** `e` with the window's auxiliary functions (`TUMBLE_START(…)`, …) replaced by its window columns. */
  properties(e: Expr): Expr;
}

/**
 * The group window of `groupBy` over `input`, or undefined when it groups by none.
 *
 * @throws {SqlValidationError} for two group windows, a window on a column that is no time attribute, or an auxiliary function of another window.
 */
export function convertGroupWindow(input: RelNode, groupBy: readonly GroupingElement[]): GroupWindow | undefined {
  const windows = groupBy.filter((g): g is GroupingElement & { kind: "expr"; expr: ExprOf<"call"> } => g.kind === "expr" && isGroupWindowCall(g.expr));
  if (windows.length === 0) return undefined;
  if (windows.length > 1) throw new SqlValidationError("A GROUP BY can have only one group window", windows[1]!.expr.loc);
  const call = windows[0]!.expr;
  const fn = callName(call);
  const params = PARAMETERS[fn]!;
  if (call.args.length !== params.length + 1) {
    throw new SqlValidationError(`${fn} in GROUP BY takes ${["the time attribute", ...params.map((p) => p.toLowerCase())].join(", ")}`, call.loc);
  }
  const [time, ...sizes] = call.args.map((a) => a.value);
  const timeField = bindPlanExpr(time!, input.rowType).inputRef;
  if (timeField === undefined) throw new SqlValidationError(`The first argument of ${fn} must be a time attribute column`, time!.loc);
  const args = new Map<string, Expr>([["TIMECOL", time!], ...params.map((p, i) => [p, sizes[i]!] as const)]);
  const tvf = windowNode(input, fn, timeField, args, [], time!.loc, call.loc, COLUMNS);
  const bounds: GroupingElement[] = [COLUMNS[0], COLUMNS[1]].map((c) => ({ kind: "expr", expr: columnRef(c, call.loc) }));
  const window = groupBy.indexOf(windows[0]!);
  const canonical = argumentsText(call);
  return {
    input: tvf,
    groupBy: [...groupBy.slice(0, window), ...bounds, ...groupBy.slice(window + 1)],
    properties: (e) =>
      rewrite(e, (x) => {
        if (x.kind !== "call") return undefined;
        const name = callName(x);
        const cut = name.lastIndexOf("_");
        const column = cut < 0 ? undefined : PROPERTIES[name.slice(cut + 1)];
        if (column === undefined || PARAMETERS[name.slice(0, cut)] === undefined) return undefined;
        if (name.slice(0, cut) !== fn || argumentsText(x) !== canonical) {
          throw new SqlValidationError(`${name} must name the GROUP BY's window: ${exprSqlText(call)}`, x.loc);
        }
        return columnRef(column, x.loc);
      }),
  };
}

function isGroupWindowCall(e: Expr): e is ExprOf<"call"> {
  return e.kind === "call" && e.over === undefined && PARAMETERS[callName(e)] !== undefined;
}

/** The arguments of a call as SQL text without spacing or case differences, to match auxiliary functions with their window. */
function argumentsText(call: ExprOf<"call">): string {
  return call.args.map((a) => JSON.stringify(a.value, (k, v) => (k === "loc" ? undefined : v))).join(",");
}
