/**
 * The window table-valued functions `TUMBLE`, `HOP`, `CUMULATE` and
 * `SESSION` in FROM (`TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10'
 * MINUTES))`), with positional or named arguments (`DATA`, `TIMECOL`,
 * `SIZE`, `SLIDE`, `STEP`, `GAP`, `OFFSET`) as in Flink. Their rows are the
 * input's plus `window_start`, `window_end` and `window_time`.
 */
import type { Expr, ExprOf, SourceLoc } from "../sql/ast.ts";
import { formatLogicalType, type LogicalType } from "../types/logical-type.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { callName } from "./ast-walk.ts";
import { bindPlanExpr } from "./bind-plan-expr.ts";
import { exprSqlText } from "../catalog/expr-sql-text.ts";
import type { CteScope } from "./convert-query.ts";
import { convertRelation } from "./convert-from.ts";
import type { PlannerContext } from "./planner-context.ts";
import { fieldsOf, planRowType, resolveColumn } from "./plan-row-type.ts";
import type { RelNode, RelNodeOf } from "./rel-node.ts";
import type { WindowSpec } from "../runtime/window-spec.ts";

const PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  TUMBLE: ["DATA", "TIMECOL", "SIZE", "OFFSET"],
  HOP: ["DATA", "TIMECOL", "SLIDE", "SIZE", "OFFSET"],
  CUMULATE: ["DATA", "TIMECOL", "STEP", "SIZE", "OFFSET"],
  SESSION: ["DATA", "TIMECOL", "GAP"],
};

/** Converts a window TVF call of FROM. */
export function convertWindowTableFunction(ctx: PlannerContext, call: ExprOf<"call">, ctes: CteScope): RelNode {
  const fn = callName(call);
  const params = PARAMETERS[fn];
  if (params === undefined) {
    throw new SqlValidationError(`Table function '${fn}' is not supported; the window table functions are TUMBLE, HOP, CUMULATE and SESSION`, call.loc);
  }
  const args = new Map<string, Expr>();
  call.args.forEach((a, i) => {
    const name = a.name?.value.toUpperCase() ?? params[i];
    if (name === undefined || !params.includes(name)) throw new SqlValidationError(`${fn} has no parameter ${a.name?.value ?? `#${i + 1}`}; its parameters are ${params.join(", ")}`, a.value.loc);
    if (args.has(name)) throw new SqlValidationError(`Parameter ${name} of ${fn} is given twice`, a.value.loc);
    args.set(name, a.value);
  });
  const required = params.filter((p) => p !== "OFFSET");
  for (const p of required) if (!args.has(p)) throw new SqlValidationError(`${fn} needs the parameter ${p}`, call.loc);
  const data = args.get("DATA")!;
  if (data.kind !== "tableArg") throw new SqlValidationError(`The DATA parameter of ${fn} must be TABLE <name>`, data.loc);
  const from = convertRelation(ctx, data.name, ctes);
  if (from.pendingRank !== undefined) throw new SqlValidationError("A Top-N query cannot be the input of a window table function", data.loc);
  const timecol = args.get("TIMECOL")!;
  if (timecol.kind !== "descriptor" || timecol.columns.length !== 1) throw new SqlValidationError(`The TIMECOL parameter of ${fn} must be DESCRIPTOR(<time attribute>)`, timecol.loc);
  const timeField = resolveColumn([timecol.columns[0]!], from.node.rowType);
  return windowNode(from.node, fn, timeField, args, data.partitionBy, timecol.loc, call.loc);
}

/**
 * The window TVF `fn` over `input` on the time attribute at `timeField`,
 * its sizes read from `args` (by parameter name), with the window columns
 * named `names` (default `window_start`, `window_end`, `window_time`).
 *
 * @throws {SqlValidationError} when the column is not a time attribute or a size is not a positive constant interval.
 */
export function windowNode(
  input: RelNode,
  fn: string,
  timeField: number,
  args: ReadonlyMap<string, Expr>,
  partitionBy: readonly Expr[],
  timeLoc: SourceLoc,
  loc: SourceLoc,
  names: readonly [string, string, string] = ["window_start", "window_end", "window_time"],
): RelNodeOf<"windowTableFunction"> {
  const t = input.rowType;
  const timeKind = t.timeAttributes[timeField];
  if (timeKind === undefined) {
    throw new SqlValidationError(`The window function requires the timecol is a time attribute type, but is ${formatLogicalType(t.types[timeField]!)}.`, timeLoc);
  }
  if (timeKind === "proctime") {
    throw new SqlValidationError(`Processing-time windows are not supported: ${fn} needs an event-time attribute (a column with a WATERMARK), not '${t.names[timeField]}'`, timeLoc);
  }
  const ms = (p: string) => {
    const e = args.get(p);
    if (e === undefined) return 0;
    const b = bindPlanExpr(e, t);
    if (!b.constant || b.type.kind !== "interval") throw new SqlValidationError(`The ${p} parameter of ${fn} must be a day-time INTERVAL constant`, e.loc);
    const v = b.eval([]) as number;
    if (p !== "OFFSET" && !(v > 0)) throw new SqlValidationError(`The ${p} parameter of ${fn} must be positive`, e.loc);
    return v;
  };
  let window: WindowSpec;
  switch (fn) {
    case "TUMBLE":
      window = { kind: "tumble", timeField, size: ms("SIZE"), offset: ms("OFFSET") };
      break;
    case "HOP": {
      const size = ms("SIZE");
      const slide = ms("SLIDE");
      if (size % slide !== 0) throw new SqlValidationError(`HOP table function based aggregate requires size must be an integral multiple of slide, but got size ${size} ms and slide ${slide} ms.`, loc);
      window = { kind: "hop", timeField, size, slide, offset: ms("OFFSET") };
      break;
    }
    case "CUMULATE": {
      const maxSize = ms("SIZE");
      const step = ms("STEP");
      if (maxSize % step !== 0) throw new SqlValidationError(`CUMULATE table function based aggregate requires maxSize must be an integral multiple of step, but got maxSize ${maxSize} ms and step ${step} ms.`, loc);
      window = { kind: "cumulate", timeField, maxSize, step, offset: ms("OFFSET") };
      break;
    }
    default:
      window = { kind: "session", timeField, gap: ms("GAP"), partitionKeys: partitionBy.map((p) => {
        const b = bindPlanExpr(p, t);
        if (b.inputRef === undefined) throw new SqlValidationError("PARTITION BY of SESSION takes columns", p.loc);
        return b.inputRef;
      }) };
  }
  const timeType = t.types[timeField]!;
  const bound: LogicalType = timeType.kind === "timestamp" && timeType.withLocalTimeZone
    ? { kind: "timestamp", precision: 3, withLocalTimeZone: true, nullable: false }
    : { kind: "timestamp", precision: 3, withLocalTimeZone: false, nullable: false };
  const n = t.names.length;
  const fields = fieldsOf(t).map((f) => ({ ...f, time: undefined }));
  const rowType = {
    ...planRowType([
      ...fields,
      { name: names[0], type: bound },
      { name: names[1], type: bound },
      { name: names[2], type: { ...timeType, nullable: false }, time: timeKind },
    ]),
    windowBounds: [n, n + 1] as const,
  };
  const text = `${fn}(${[...args].filter(([k]) => k !== "DATA").map(([k, v]) => `${k.toLowerCase()}=[${exprSqlText(v)}]`).join(", ")})`;
  return { kind: "windowTableFunction", input, window, text, rowType };
}
