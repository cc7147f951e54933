/**
 * The window join (Flink's `WindowJoinOperator`): joins two window TVF outputs
 * on their keys and on equal windows (`window_start` and `window_end` of both
 * sides). Rows are buffered per key and window (engine keyed state: not copied
 * on access, by window end; what is emitted is a copy) and the window is
 * joined once, when the watermark reaches `window_end - 1`; then its rows are
 * dropped. A window's rows are one flat array of their fields without the two
 * window columns (the window's own `s` and `e`), not an array per row: a
 * buffered row waits for the watermark, long enough for the young generation's
 * collections to copy and promote what it keeps. A row for a window that
 * already fired (its `window_end - 1` is at or below the watermark when it
 * arrives) is dropped, as in Flink.
 *
 * INNER/LEFT/RIGHT/FULL output `[...left, ...right]` (NULL-padded rows of
 * the preserved sides without a match in their window); SEMI/ANTI output the
 * left rows with / without a match in their window. Inputs and output are
 * insert-only. Rows with a NULL key (not null-safe) never match.
 */
import type { OperatorNaming } from "./operator-naming.ts";
import { KeyedCoProcessFunction } from "../../core/co-process-function.ts";
import type { Collector } from "../../core/collector.ts";
import type { KeyedProcessContext, OnTimerContext } from "../../core/process-function.ts";
import type { DataStream } from "../../api/data-stream.ts";
import { engineKeyedState } from "../../core/runtime-context.ts";
import type { EngineKeyedState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { SqlValue } from "../types/sql-value.ts";
import {
  checkJoinSpec, checkPositions, conditionHolds, hasNullKey, InsertOnlyInputError, joinedFields, ownFields, padsLeft, padsRight, rowOf,
  type JoinSpec
} from "./join-spec.ts";
import { rowKeySelector } from "./row-key.ts";

/** A window join: the shared {@link JoinSpec} (keys without the window columns) and the window columns of both sides. */
export interface WindowJoinSpec extends JoinSpec {
  /** Position of `window_start` in the left row. */
  readonly leftWindowStart: number;
  /** Position of `window_end` in the left row. */
  readonly leftWindowEnd: number;
  readonly rightWindowStart: number;
  readonly rightWindowEnd: number;
}

/** The buffered rows of one window of one side and key, in arrival order. */
interface WindowRows {
  s: number;
  e: number;
  /** How many rows {@link v} holds (a side of the window columns alone has no other values). */
  n?: number;
  /** The rows' fields but the window's start and end (which are `s` and `e`), flat: `arity - 2` per row. */
  v?: SqlValue[];
  /** State written before {@link v}: each row's fields (see {@link flatRows}). */
  rows?: SqlValue[][];
}

/** One side's row layout: its arity and the positions of its window columns. */
interface SideLayout {
  readonly arity: number;
  readonly start: number;
  readonly end: number;
}

/** Appends the fields of `fields` but the window columns of `side` to `w`'s (flat) rows. */
function pushRow(w: WindowRows, fields: readonly SqlValue[], side: SideLayout): void {
  const v = w.v!;
  for (let i = 0; i < side.arity; i++) if (i !== side.start && i !== side.end) v.push(fields[i]!);
  w.n = (w.n ?? 0) + 1;
}

/** How many rows `w` holds. */
function rowCount(w: WindowRows): number {
  return w.rows !== undefined ? w.rows.length : w.n!;
}

/** The fields of row `i` of `w`: rebuilt in `into` (or, in state written before the flat form, its own array). */
function rowAt(w: WindowRows, i: number, side: SideLayout, into: SqlValue[]): SqlValue[] {
  if (w.rows !== undefined) return w.rows[i]!;
  const v = w.v!;
  for (let f = 0, at = i * (side.arity - 2); f < side.arity; f++) into[f] = f === side.start ? w.s : f === side.end ? w.e : v[at++]!;
  return into;
}

/** `w` (owned) in the flat form: the rows of state written before it move into {@link WindowRows.v}, in place. */
function flatRows(w: WindowRows, side: SideLayout): WindowRows {
  if (w.v !== undefined) return w;
  const rows = w.rows ?? [];
  delete w.rows;
  w.v = [];
  w.n = 0;
  for (const fields of rows) pushRow(w, fields, side);
  return w;
}

/** The buffered windows of one side and key, by window end. */
type SideBuffer = Map<number, WindowRows[]>;

/**
 * Translates a window join: `left.connect(right).keyBy(leftKeys, rightKeys)`
 * processed by the join, named `naming`.
 *
 * @example
 * ```ts
 * // SELECT * FROM TUMBLE(TABLE l, …) L FULL JOIN TUMBLE(TABLE r, …) R
 * //   ON L.id = R.id AND L.window_start = R.window_start AND L.window_end = R.window_end
 * const joined = windowJoin(l, r, {
 *   joinType: "FULL", leftKeys: [0], rightKeys: [0], leftArity: 4, rightArity: 4,
 *   leftWindowStart: 2, leftWindowEnd: 3, rightWindowStart: 2, rightWindowEnd: 3,
 * }, { uid: "join-1", name: "WindowJoin(FULL)" });
 * ```
 * @throws JoinSpecError for keys of different lengths or positions out of range
 */
export function windowJoin(left: DataStream<Row>, right: DataStream<Row>, spec: WindowJoinSpec, naming: OperatorNaming): DataStream<Row> {
  checkJoinSpec(spec, "window join", ["INNER", "LEFT", "RIGHT", "FULL", "SEMI", "ANTI"]);
  checkPositions("window join", "left window", [spec.leftWindowStart, spec.leftWindowEnd], spec.leftArity);
  checkPositions("window join", "right window", [spec.rightWindowStart, spec.rightWindowEnd], spec.rightArity);
  return left
    .connect(right)
    .keyBy(rowKeySelector(spec.leftKeys), rowKeySelector(spec.rightKeys))
    .process(new WindowJoinFunction(spec))
    .uid(naming.uid)
    .name(naming.name);
}

class WindowJoinFunction extends KeyedCoProcessFunction<string, Row, Row, Row> {
  private leftState!: EngineKeyedState<SideBuffer>;
  private rightState!: EngineKeyedState<SideBuffer>;
  private readonly left: SideLayout;
  private readonly right: SideLayout;
  /** The left row being joined, rebuilt from its window's flat rows (output rows copy its values). */
  private readonly leftRow: SqlValue[];
  /** The concatenated fields the residual condition reads. */
  private readonly pair: SqlValue[];

  constructor(private readonly spec: WindowJoinSpec) {
    super();
    this.left = { arity: spec.leftArity, start: spec.leftWindowStart, end: spec.leftWindowEnd };
    this.right = { arity: spec.rightArity, start: spec.rightWindowStart, end: spec.rightWindowEnd };
    this.leftRow = new Array<SqlValue>(spec.leftArity).fill(null);
    this.pair = new Array<SqlValue>(spec.leftArity + spec.rightArity).fill(null);
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    this.leftState = engineKeyedState<SideBuffer>(ctx, "_left");
    this.rightState = engineKeyedState<SideBuffer>(ctx, "_right");
  }

  processElement1(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    this.buffer(row, this.leftState, this.left, ctx);
  }

  processElement2(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    this.buffer(row, this.rightState, this.right, ctx);
  }

  /** Joins the windows that end at `timestamp + 1`, then drops their rows. */
  override onTimer(timestamp: number, _ctx: OnTimerContext<string>, out: Collector<Row>): void {
    const lefts = this.take(this.leftState, timestamp + 1);
    const rights = this.take(this.rightState, timestamp + 1);
    for (const l of lefts) this.join(l, rights.find((r) => r.s === l.s), out);
    for (const r of rights) if (!lefts.some((l) => l.s === r.s)) this.join(undefined, r, out);
  }

  private buffer(row: Row, state: EngineKeyedState<SideBuffer>, side: SideLayout, ctx: KeyedProcessContext<string>): void {
    if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) throw new InsertOnlyInputError("window join", row);
    const start = row.fields[side.start] as number;
    const end = row.fields[side.end] as number;
    if (end - 1 <= ctx.timerService().currentWatermark()) return; // its window already fired
    let buffer = state.getOwned(); // changed in place
    if (buffer === undefined) {
      buffer = new Map();
      state.set(buffer);
    }
    let windows = buffer.get(end);
    if (windows === undefined) {
      windows = [];
      buffer.set(end, windows);
      ctx.timerService().registerEventTimeTimer(end - 1);
    }
    let w: WindowRows | undefined;
    for (const x of windows) if (x.s === start) w = x;
    if (w === undefined) windows.push((w = { s: start, e: end, n: 0, v: [] }));
    // the row is this function's own, so its values may be kept
    pushRow(flatRows(w, side), row.fields, side);
  }

  /** The buffered windows ending at `end`, removed from the state. */
  private take(state: EngineKeyedState<SideBuffer>, end: number): WindowRows[] {
    const buffer = state.get();
    const windows = buffer?.get(end);
    if (windows === undefined) return [];
    if (buffer!.size === 1) state.set(undefined);
    else state.getOwned()!.delete(end); // changed in place
    return windows;
  }

  /** Emits the join of the rows of one window (of one side or both). */
  private join(leftRows: WindowRows | undefined, rightRows: WindowRows | undefined, out: Collector<Row>): void {
    const { spec } = this;
    const { joinType, leftArity, rightArity } = spec;
    const rights: SqlValue[][] = [];
    if (rightRows !== undefined) for (let j = 0, n = rowCount(rightRows); j < n; j++) rights.push(rowAt(rightRows, j, this.right, new Array<SqlValue>(rightArity)));
    const rightMatched = rights.map(() => false);
    for (let i = 0, n = leftRows === undefined ? 0 : rowCount(leftRows); i < n; i++) {
      const l = rowAt(leftRows!, i, this.left, this.leftRow);
      let matched = false;
      const nullKey = hasNullKey(l, spec.leftKeys, spec.nullSafeKeys);
      for (let j = 0; j < rights.length && !nullKey; j++) {
        const r = rights[j]!;
        if (hasNullKey(r, spec.rightKeys, spec.nullSafeKeys) || !conditionHolds(spec, l, r, this.pair)) continue;
        matched = true;
        rightMatched[j] = true;
        if (joinType === "SEMI" || joinType === "ANTI") break;
        out.collect(rowOf(RowKind.INSERT, joinedFields(l, leftArity, r, rightArity)));
      }
      if ((joinType === "SEMI" && matched) || (joinType === "ANTI" && !matched)) out.collect(rowOf(RowKind.INSERT, ownFields(l)));
      else if (!matched && padsLeft(joinType)) out.collect(rowOf(RowKind.INSERT, joinedFields(l, leftArity, null, rightArity)));
    }
    if (padsRight(joinType))
      rights.forEach((r, j) => {
        if (!rightMatched[j]) out.collect(rowOf(RowKind.INSERT, joinedFields(null, leftArity, r, rightArity)));
      });
  }
}
