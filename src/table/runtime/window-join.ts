/**
 * The window join (Flink's `WindowJoinOperator`): joins two window TVF outputs
 * on their keys and on equal windows (`window_start` and `window_end` of both
 * sides). Rows are buffered per key and window (engine keyed state: not copied
 * on access, by window end; what is emitted is a copy) and the window is
 * joined once, when the watermark reaches `window_end - 1`; then its rows are
 * dropped. A row for a window that already fired (its `window_end - 1` is at
 * or below the watermark when it arrives) is dropped, as in Flink.
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
  rows: SqlValue[][];
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

  constructor(private readonly spec: WindowJoinSpec) {
    super();
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    this.leftState = engineKeyedState<SideBuffer>(ctx, "_left");
    this.rightState = engineKeyedState<SideBuffer>(ctx, "_right");
  }

  processElement1(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    this.buffer(row, this.leftState, this.spec.leftWindowStart, this.spec.leftWindowEnd, ctx);
  }

  processElement2(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    this.buffer(row, this.rightState, this.spec.rightWindowStart, this.spec.rightWindowEnd, ctx);
  }

  /** Joins the windows that end at `timestamp + 1`, then drops their rows. */
  override onTimer(timestamp: number, _ctx: OnTimerContext<string>, out: Collector<Row>): void {
    const lefts = this.take(this.leftState, timestamp + 1);
    const rights = this.take(this.rightState, timestamp + 1);
    for (const l of lefts) this.join(l.rows, rights.find((r) => r.s === l.s)?.rows ?? [], out);
    for (const r of rights) if (!lefts.some((l) => l.s === r.s)) this.join([], r.rows, out);
  }

  private buffer(row: Row, state: EngineKeyedState<SideBuffer>, startField: number, endField: number, ctx: KeyedProcessContext<string>): void {
    if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) throw new InsertOnlyInputError("window join", row);
    const start = row.fields[startField] as number;
    const end = row.fields[endField] as number;
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
    if (w === undefined) windows.push((w = { s: start, e: end, rows: [] }));
    // the row is this function's own, so its fields may be kept
    w.rows.push(row.fields);
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

  /** Emits the join of the rows of one window. */
  private join(lefts: readonly SqlValue[][], rights: readonly SqlValue[][], out: Collector<Row>): void {
    const { spec } = this;
    const { joinType, leftArity, rightArity } = spec;
    const rightMatched = rights.map(() => false);
    for (const l of lefts) {
      let matched = false;
      const nullKey = hasNullKey(l, spec.leftKeys, spec.nullSafeKeys);
      for (let j = 0; j < rights.length && !nullKey; j++) {
        const r = rights[j]!;
        if (hasNullKey(r, spec.rightKeys, spec.nullSafeKeys) || !conditionHolds(spec, l, r)) continue;
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
