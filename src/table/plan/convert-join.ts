/**
 * Joins in FROM: the equality conditions become keys and the rest a
 * residual condition; bounds between the two sides' rowtime attributes make
 * an interval join (bounds between one side's rowtime attribute and the
 * other's `window_end` of a window aggregation stay a regular join, as in
 * Flink, marked with the bounds so that its state can expire); equal
 * `window_start` and `window_end` of two window TVFs
 * make a window join; `FOR SYSTEM_TIME AS OF` makes an event-time temporal
 * join against a versioned table (one with a primary key and a watermark)
 * when it names a rowtime, a lookup join when it names a processing time.
 */
import type { Expr, FromItem } from "../sql/ast.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { columnRef, conjunction, conjuncts, rewrite } from "./ast-walk.ts";
import { bindPlanExpr, resolveColumns } from "./bind-plan-expr.ts";
import { castExpr, filterNode } from "./convert-query.ts";
import { convertCorrelate, isTableFunctionCall } from "./convert-correlate.ts";
import { exprSqlText } from "../catalog/expr-sql-text.ts";
import { convertFrom, convertRelation } from "./convert-from.ts";
import type { CteScope } from "./convert-query.ts";
import type { PlannerContext } from "./planner-context.ts";
import { concatRowTypes, fieldsOf, planRowType, requalify, type PlanField } from "./plan-row-type.ts";
import type { JoinType, PlanExpr, PlanRowType, RelNode } from "./rel-node.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import { ChangelogMode } from "./changelog-mode.ts";

type JoinItem = Extract<FromItem, { kind: "join" }>;

/** Converts `left JOIN right ON …` (or USING, CROSS JOIN, a comma join). */
export function convertJoin(ctx: PlannerContext, item: JoinItem, ctes: CteScope): RelNode {
  const left = plainNode(convertFrom(ctx, item.left, ctes), item.left);
  const right = item.right;
  const joinType: JoinType = item.joinType === "CROSS" ? "INNER" : item.joinType;
  if (right.kind === "table" && right.systemTime !== undefined) {
    const r = convertRelation(ctx, right.name, ctes);
    const rnode = { ...r.node, rowType: requalify(r.node.rowType, right.alias?.value ?? right.name.at(-1)!.value) } as RelNode;
    const time = bindPlanExpr(right.systemTime, left.rowType).inputRef;
    if (time !== undefined && left.rowType.timeAttributes[time] === "proctime") return lookupJoin(left, rnode, joinType, item);
    return temporalJoin(left, rnode, joinType, item, right.systemTime);
  }
  if (right.kind === "tableFunction" && isTableFunctionCall(ctx, right.call)) {
    if (joinType !== "INNER" && joinType !== "LEFT") throw new SqlValidationError(`${joinType} JOIN with a table function is not supported; use a comma, JOIN … ON TRUE or LEFT JOIN … ON TRUE`, item.loc);
    return convertCorrelate(ctx, left, right.call, joinType, item.on, right.alias?.value, right.columnAliases);
  }
  const rnode = plainNode(convertFrom(ctx, right, ctes), right);
  let condition = item.on;
  if (item.using !== undefined) {
    condition = conjunction(item.using.map((u) => ({
      kind: "binary" as const,
      op: "=" as const,
      left: { kind: "column" as const, names: [{ value: leftQualifier(left, u.value), quoted: true, loc: u.loc }, u], loc: u.loc },
      right: { kind: "column" as const, names: [{ value: leftQualifier(rnode, u.value), quoted: true, loc: u.loc }, u], loc: u.loc },
      loc: u.loc,
    })));
  }
  return planJoin(left, rnode, joinType, condition);
}

function leftQualifier(n: RelNode, column: string): string {
  const i = n.rowType.names.indexOf(column);
  if (i < 0) throw new SqlValidationError(`Column '${column}' of USING is not in both tables`);
  return n.rowType.qualifiers[i] ?? "";
}

function plainNode(r: { node: RelNode; pendingRank?: unknown }, item: FromItem): RelNode {
  if (r.pendingRank !== undefined) throw new SqlValidationError("A Top-N subquery must be filtered by its rank column before it is joined", item.loc);
  return r.node;
}

/** The output row type of a join: both sides, the outer side's fields nullable; SEMI/ANTI keep the left side. */
function joinRowType(left: PlanRowType, right: PlanRowType, joinType: JoinType, keepTime: boolean): PlanRowType {
  if (joinType === "SEMI" || joinType === "ANTI") {
    // a left row goes out when its match comes, maybe after the watermark passed its window end
    const { windowEnds: _, ...rest } = left;
    return rest;
  }
  const side = (t: PlanRowType, nullable: boolean): PlanField[] =>
    fieldsOf(t).map((f) => ({ ...f, type: nullable ? { ...f.type, nullable: true } : f.type, time: keepTime ? f.time : undefined }));
  return planRowType([
    ...side(left, joinType === "RIGHT" || joinType === "FULL"),
    ...side(right, joinType === "LEFT" || joinType === "FULL"),
  ]);
}

/** The keys of a join condition and what remains of it. */
interface SplitCondition {
  leftKeys: number[];
  rightKeys: number[];
  residual: Expr[];
}

function splitCondition(condition: Expr | undefined, combined: PlanRowType, nl: number): SplitCondition {
  const out: SplitCondition = { leftKeys: [], rightKeys: [], residual: [] };
  for (const c of condition === undefined ? [] : conjuncts(condition)) {
    if (c.kind === "binary" && c.op === "=") {
      const a = bindPlanExpr(c.left, combined).inputRef;
      const b = bindPlanExpr(c.right, combined).inputRef;
      if (a !== undefined && b !== undefined && (a < nl) !== (b < nl)) {
        out.leftKeys.push(Math.min(a, b));
        out.rightKeys.push(Math.max(a, b) - nl);
        continue;
      }
    }
    out.residual.push(c);
  }
  return out;
}

/**
 * Plans `left <joinType> right ON condition`: a window join, an interval
 * join or a regular join, by what the condition says.
 */
export function planJoin(leftInput: RelNode, rightInput: RelNode, joinType: JoinType, condition: Expr | undefined): RelNode {
  const nl = leftInput.rowType.names.length;
  const ends = [...(leftInput.rowType.windowEnds ?? []), ...(rightInput.rowType.windowEnds ?? []).map((i) => i + nl)];
  const combined = { ...concatRowTypes(leftInput.rowType, rightInput.rowType), ...(ends.length === 0 ? {} : { windowEnds: ends }) };
  const split = splitCondition(condition, combined, nl);
  const { left, right } = pushDown(leftInput, rightInput, joinType, split, combined);
  const residualExpr = () => {
    const r = conjunction(split.residual);
    return r === undefined ? {} : { condition: bindBoolean(r, combined) };
  };
  // window join: the window bounds of both sides are equal
  const lw = left.rowType.windowBounds;
  const rw = right.rowType.windowBounds;
  if (lw !== undefined && rw !== undefined) {
    const pair = (l: number, r: number) => split.leftKeys.findIndex((k, i) => k === l && split.rightKeys[i] === r);
    const s = pair(lw[0], rw[0]);
    const e = pair(lw[1], rw[1]);
    if (s >= 0 && e >= 0) {
      const keep = (_: number, i: number) => i !== s && i !== e;
      return {
        kind: "windowJoin",
        left,
        right,
        joinType,
        leftKeys: split.leftKeys.filter(keep),
        rightKeys: split.rightKeys.filter(keep),
        leftWindow: [lw[0], lw[1]],
        rightWindow: [rw[0], rw[1]],
        ...residualExpr(),
        rowType: joinRowType(left.rowType, right.rowType, joinType, false),
      };
    }
  }
  // interval join: both sides' rowtime attributes bounded against each other
  const interval = intervalBounds(split.residual, combined, nl);
  if (interval !== undefined && interval.retained !== undefined) {
    // a rowtime bounded by a window aggregation's window_end: a regular join (as Flink plans it), whose
    // other side's rows can expire when an INNER join over insert-only inputs (see translate-plan)
    const { leftTimeField, rightTimeField, lower: lowerBound, upper: upperBound, retained } = interval;
    return {
      kind: "join",
      left,
      right,
      joinType,
      leftKeys: split.leftKeys,
      rightKeys: split.rightKeys,
      ...residualExpr(),
      ...(joinType === "INNER" ? { timeBounds: { leftTimeField, rightTimeField, lowerBound, upperBound, retained } } : {}),
      rowType: joinRowType(left.rowType, right.rowType, joinType, false),
    };
  }
  if (interval !== undefined && joinType !== "SEMI" && joinType !== "ANTI") {
    split.residual = interval.rest;
    return {
      kind: "intervalJoin",
      left,
      right,
      joinType,
      leftKeys: split.leftKeys,
      rightKeys: split.rightKeys,
      leftTimeField: interval.leftTimeField,
      rightTimeField: interval.rightTimeField,
      lowerBound: interval.lower,
      upperBound: interval.upper,
      ...residualExpr(),
      rowType: joinRowType(left.rowType, right.rowType, joinType, true),
    };
  }
  return {
    kind: "join",
    left,
    right,
    joinType,
    leftKeys: split.leftKeys,
    rightKeys: split.rightKeys,
    ...residualExpr(),
    rowType: joinRowType(left.rowType, right.rowType, joinType, false),
  };
}

/**
 * Filter push-down: a conjunct of the condition that reads one side only
 * filters that side before the join (less state, fewer rows), where the join
 * type allows it: the side whose rows are kept unmatched (the left of a LEFT
 * join) cannot be filtered by the ON condition. Rowtime conjuncts stay for
 * the interval-join bounds.
 */
function pushDown(left: RelNode, right: RelNode, joinType: JoinType, split: SplitCondition, combined: PlanRowType): { left: RelNode; right: RelNode } {
  const nl = left.rowType.names.length;
  const leftOnly: Expr[] = [];
  const rightOnly: Expr[] = [];
  const canLeft = joinType === "INNER" || joinType === "RIGHT" || joinType === "SEMI";
  const canRight = joinType === "INNER" || joinType === "LEFT" || joinType === "SEMI" || joinType === "ANTI";
  split.residual = split.residual.filter((c) => {
    const b = bindPlanExpr(c, combined);
    const reads = b.reads ?? [];
    if (reads.length === 0 || reads.some((r) => combined.timeAttributes[r] === "rowtime")) return true;
    if (canLeft && reads.every((r) => r < nl)) return leftOnly.push(c) < 0;
    if (canRight && reads.every((r) => r >= nl)) return rightOnly.push(c) < 0;
    return true;
  });
  const shifted = (e: Expr) => rewrite(e, (x) => (x.kind === "column" ? columnRef(`$#${bindPlanExpr(x, combined).inputRef! - nl}`, x.loc) : undefined));
  const l = conjunction(leftOnly);
  const r = conjunction(rightOnly.map(shifted));
  return {
    left: l === undefined ? left : filterNode(left, resolveColumns(l, combined), positional(left.rowType), exprSqlText(l)),
    right: r === undefined ? right : filterNode(right, r, positional(right.rowType), exprSqlText(conjunction(rightOnly)!)),
  };
}

/** `t` with its fields named by position (`$#0`, …), for expressions already resolved against it. */
function positional(t: PlanRowType): PlanRowType {
  return { ...t, names: t.names.map((_, i) => `$#${i}`) };
}

function bindBoolean(e: Expr, t: PlanRowType) {
  const b = bindPlanExpr(e, t);
  if (b.type.kind !== "boolean" && b.type.kind !== "null") throw new SqlValidationError("A join condition must be BOOLEAN", e.loc);
  return b;
}

/** A rowtime column (or a window aggregation's `window_end`) of one side plus a constant interval. */
interface TimeOperand {
  field: number;
  offset: number;
  /** The field is a window end ({@link PlanRowType.windowEnds}), not a rowtime attribute. */
  windowEnd: boolean;
}

function timeOperand(e: Expr, t: PlanRowType): TimeOperand | undefined {
  if (e.kind === "binary" && (e.op === "+" || e.op === "-")) {
    const base = timeOperand(e.left, t);
    if (base === undefined) return undefined;
    const c = bindPlanExpr(e.right, t);
    if (!c.constant || c.type.kind !== "interval") return undefined;
    const v = c.eval([]) as number;
    return { field: base.field, offset: base.offset + (e.op === "+" ? v : -v), windowEnd: base.windowEnd };
  }
  if (e.kind !== "column") return undefined;
  const i = bindPlanExpr(e, t).inputRef!;
  if (t.timeAttributes[i] === "rowtime") return { field: i, offset: 0, windowEnd: false };
  return t.windowEnds?.includes(i) ? { field: i, offset: 0, windowEnd: true } : undefined;
}

/**
 * `right.time - left.time` bounds from the comparisons between the sides' rowtime attributes, or between
 * one side's rowtime attribute and the other's window end (then that side is `retained`).
 */
function intervalBounds(residual: Expr[], t: PlanRowType, nl: number) {
  let lower = -Infinity;
  let upper = Infinity;
  let lf: number | undefined;
  let rf: number | undefined;
  let retained: "left" | "right" | undefined;
  const rest: Expr[] = [];
  const consider = (a: Expr, op: string, b: Expr): boolean => {
    const x = timeOperand(a, t);
    const y = timeOperand(b, t);
    if (x === undefined || y === undefined || (x.field < nl) === (y.field < nl)) return false;
    // normalize to  L.t + l op R.t + r
    const [l, r, o] = x.field < nl ? [x, y, op] : [y, x, flip(op)];
    if ((lf !== undefined && lf !== l.field) || (rf !== undefined && rf !== r.field - nl)) return false;
    if (l.windowEnd && r.windowEnd) return false;
    retained = l.windowEnd ? "left" : r.windowEnd ? "right" : undefined;
    lf = l.field;
    rf = r.field - nl;
    const d = l.offset - r.offset; // R.t - L.t  (reversed)  d
    switch (o) {
      case ">=": upper = Math.min(upper, d); break;
      case ">": upper = Math.min(upper, d - 1); break;
      case "<=": lower = Math.max(lower, d); break;
      case "<": lower = Math.max(lower, d + 1); break;
      case "=": lower = Math.max(lower, d); upper = Math.min(upper, d); break;
      default: return false;
    }
    return true;
  };
  for (const c of residual) {
    let used = false;
    if (c.kind === "binary" && ["<", "<=", ">", ">=", "="].includes(c.op)) used = consider(c.left, c.op, c.right);
    else if (c.kind === "between" && !c.not && !c.symmetric) {
      const a = timeOperand(c.operand, t);
      if (a !== undefined) {
        const saveL = lower, saveU = upper;
        used = consider(c.operand, ">=", c.low) && consider(c.operand, "<=", c.high);
        if (!used) [lower, upper] = [saveL, saveU];
      }
    }
    if (!used) rest.push(c);
  }
  if (lf === undefined || rf === undefined || lower === -Infinity || upper === Infinity) return undefined;
  return { leftTimeField: lf, rightTimeField: rf, lower, upper, rest, retained };
}

function flip(op: string): string {
  return ({ "<": ">", ">": "<", "<=": ">=", ">=": "<=" } as Record<string, string>)[op] ?? op;
}

function temporalJoin(left: RelNode, right: RelNode, joinType: JoinType, item: JoinItem, systemTime: Expr): RelNode {
  if (joinType !== "INNER" && joinType !== "LEFT") throw new SqlValidationError("Temporal joins support INNER and LEFT joins only", item.loc);
  const lt = bindPlanExpr(systemTime, left.rowType).inputRef;
  if (lt === undefined || left.rowType.timeAttributes[lt] !== "rowtime") {
    throw new SqlValidationError("FOR SYSTEM_TIME AS OF needs the left table's rowtime attribute (processing-time temporal joins are not supported)", systemTime.loc);
  }
  const rt = right.rowType.timeAttributes.indexOf("rowtime");
  const pk = primaryKeyOf(right);
  if (rt < 0 || pk === undefined) {
    throw new SqlValidationError("Temporal Table Join requires primary key and row time attribute in versioned table", item.right.loc);
  }
  const combined = concatRowTypes(left.rowType, right.rowType);
  const split = splitCondition(item.on, combined, left.rowType.names.length);
  if (!pk.every((k) => split.rightKeys.includes(k))) {
    throw new SqlValidationError("Temporal Table Join requires an equality condition on the versioned table's primary key", item.on?.loc ?? item.loc);
  }
  const r = conjunction(split.residual);
  return {
    kind: "temporalJoin",
    left,
    right: versionHistory(right),
    joinType,
    leftKeys: split.leftKeys,
    rightKeys: split.rightKeys,
    leftTimeField: lt,
    rightTimeField: rt,
    ...(r === undefined ? {} : { condition: bindBoolean(r, combined) }),
    rowType: joinRowType(left.rowType, right.rowType, joinType, false),
  };
}

/**
 * The rows a temporal join keeps as the versions of `n`. A versioned view (a deduplication keeping the
 * last row per key by rowtime, under projections) has every row of its input in its history: its version
 * at time t is the key's latest row with rowtime ≤ t. Its changelog lacks a row that arrives after a later
 * row of its key (out of order within the watermark's delay), which would make the join miss that
 * version; so the join reads the deduplication's input rows instead, as versions of the same type.
 */
function versionHistory(n: RelNode): RelNode {
  switch (n.kind) {
    case "deduplicate":
      return n.keepLast && n.timeField !== undefined ? n.input : n;
    case "project": {
      const inner = versionHistory(n.input);
      return inner === n.input ? n : { ...n, input: inner };
    }
    default:
      return n;
  }
}

/**
 * `left JOIN t FOR SYSTEM_TIME AS OF left.proc_time ON …`: each left row
 * looks up the rows of table `t` by the equalities between a column of `t`
 * and an expression of the left row (`mod(b.auction, 10000) = s.key`).
 */
function lookupJoin(left: RelNode, right: RelNode, joinType: JoinType, item: JoinItem): RelNode {
  if (joinType !== "INNER" && joinType !== "LEFT") throw new SqlValidationError("Lookup joins support INNER and LEFT joins only", item.loc);
  const scan = right.kind === "watermarkAssigner" ? right.input : right;
  if (scan.kind !== "scan") throw new SqlValidationError("A lookup join (FOR SYSTEM_TIME AS OF a processing-time attribute) needs a table without computed columns, not a view", item.right.loc);
  const table = identifierString(scan.table.identifier);
  if (scan.source.lookup === undefined && scan.source.readAll === undefined) {
    throw new SqlValidationError(`Connector '${scan.options.connector}' of table '${table}' does not support lookup joins; the 'jdbc' and 'filesystem' connectors do`, item.right.loc);
  }
  if (!ChangelogMode.isInsertOnly(scan.source.changelogMode)) throw new SqlValidationError(`A lookup join needs a table of inserts; '${table}' is a changelog`, item.right.loc);
  const tableType = right.rowType;
  const combined = concatRowTypes(left.rowType, tableType);
  const nl = left.rowType.names.length;
  const keys: PlanExpr[] = [];
  const lookupKeys: number[] = [];
  const residual: Expr[] = [];
  for (const c of item.on === undefined ? [] : conjuncts(item.on)) {
    if (c.kind === "binary" && c.op === "=") {
      const sides = [bindPlanExpr(c.left, combined), bindPlanExpr(c.right, combined)];
      const column = sides.findIndex((s) => s.inputRef !== undefined && s.inputRef >= nl);
      const other = sides[1 - column];
      if (column >= 0 && other !== undefined && (other.reads ?? []).every((r) => r < nl) && !lookupKeys.includes(sides[column]!.inputRef! - nl)) {
        const k = sides[column]!.inputRef! - nl;
        const key = bindPlanExpr(column === 0 ? c.right : c.left, left.rowType);
        const type = tableType.types[k]!;
        keys.push(key.type.kind === type.kind ? key : castExpr(key, type));
        lookupKeys.push(k);
        continue;
      }
    }
    residual.push(c);
  }
  if (keys.length === 0) throw new SqlValidationError(`A lookup join needs an equality between a column of '${table}' and the left row`, item.on?.loc ?? item.loc);
  const r = conjunction(residual);
  return {
    kind: "lookupJoin",
    input: left,
    table: scan.table,
    source: scan.source,
    tableType,
    joinType,
    keys,
    lookupKeys,
    ...(r === undefined ? {} : { condition: bindBoolean(r, combined) }),
    rowType: joinRowType(left.rowType, { ...tableType, timeAttributes: tableType.timeAttributes.map(() => undefined) }, joinType, true),
  };
}

/**
 * The primary key positions of a versioned table: a catalog table's
 * declared key (through its computed columns and watermark), or the keys of
 * a deduplication that keeps the last row per key by rowtime (Flink's
 * versioned view), followed through projections that keep them.
 */
function primaryKeyOf(n: RelNode): number[] | undefined {
  switch (n.kind) {
    case "scan": {
      const pk = n.table.schema.primaryKey;
      return pk?.columns.map((c) => n.rowType.names.indexOf(c));
    }
    case "watermarkAssigner":
    case "filter":
      return primaryKeyOf(n.input);
    case "deduplicate":
      return n.keepLast && n.timeField !== undefined ? n.keys : undefined;
    case "project": {
      const inner = primaryKeyOf(n.input);
      if (inner === undefined) return undefined;
      const mapped = inner.map((p) => n.exprs.findIndex((e) => e.inputRef === p));
      return mapped.every((i) => i >= 0) ? mapped : undefined;
    }
    default:
      return undefined;
  }
}

