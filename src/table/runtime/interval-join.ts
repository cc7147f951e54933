/**
 * The SQL interval join (Flink's `RowTimeIntervalJoin`): on equal keys, a
 * left row `l` joins every right row `r` with
 * `r.time BETWEEN l.time + lowerBound AND l.time + upperBound` (inclusive,
 * the times read from the rows' time attribute fields) for which the residual
 * condition holds. Both inputs are insert-only, and so is the output.
 *
 * Each row is joined with the rows of the other side buffered so far, then
 * buffered itself (engine keyed state: not copied on access; what is emitted
 * is a copy) until the watermark makes a new match impossible: a left row until
 * the watermark reaches `l.time + upperBound`, a right row until it reaches
 * `r.time - lowerBound`. The earliest of those times per key and side waits in
 * the operator's queue of cleanups (no timer per key: see {@link CleanupQueueFunction}); when the
 * watermark reaches it, what is due is removed and the next is queued for the rows left. An outer
 * join (LEFT, RIGHT, FULL) emits a row of its
 * preserved side that never matched NULL-padded at that moment; a row whose
 * matches are already impossible when it arrives (it is late) joins the
 * buffered rows and, without a match, is emitted padded at once.
 *
 * The rows it emits are older than its watermark (a pair when its later row
 * arrives, a padded row after its last chance): the output watermark is held
 * back by `max(-lowerBound, upperBound, 0) + 1` ms, as Flink does, so that
 * they are not late for event-time operators downstream on either time
 * attribute (see {@link intervalJoinWatermarkDelay}).
 *
 * Rows with a NULL key (not null-safe) or a NULL time never match. The result equals the batch
 * join when no row is late (its time is above the watermark when it arrives).
 *
 * **Retained side** (`retain`, INNER joins only): the rows of that side are kept for good, and only the
 * other side's rows expire. The planner uses it for a regular join whose condition bounds a rowtime
 * attribute of one side by the `window_end` of a window aggregation's rows on the other (Nexmark q7:
 * `B.dateTime BETWEEN B1.window_end - INTERVAL '10' SECOND AND B1.window_end`). A window aggregation
 * emits a window before its watermark passes the window's end and drops late rows, so every later row
 * of that side has its end above the current watermark: a row of the other side expires once the
 * watermark makes its bound on that end unreachable, and a late row of the other side still joins every
 * row of the retained side. The result then equals the regular join's (Flink plans the query as one:
 * `window_end` is no time attribute) whether rows are late or not, with the state of one side bounded.
 */
import type { OperatorNaming } from "./operator-naming.ts";
import type { Collector } from "../../core/collector.ts";
import type { KeyedProcessContext, OnTimerContext } from "../../core/process-function.ts";
import type { DataStream } from "../../api/data-stream.ts";
import { engineKeyedState } from "../../core/runtime-context.ts";
import type { EngineKeyedState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { SqlValue } from "../types/sql-value.ts";
import {
  checkJoinSpec, checkPositions, conditionHolds, hasNullKey, InsertOnlyInputError, joinedFields, JoinSpecError, padsLeft, padsRight, rowOf,
  type JoinSpec
} from "./join-spec.ts";
import { CleanupQueueFunction, processWithWatermarkDelay } from "./delayed-watermark-join.ts";
import { rowKeySelector } from "./row-key.ts";

/** An interval join: the shared {@link JoinSpec}, the time attributes and the bounds of `r.time - l.time`. */
export interface IntervalJoinSpec extends JoinSpec {
  /** Position of the left time attribute (TIMESTAMP(3), epoch ms). */
  readonly leftTimeField: number;
  /** Position of the right time attribute. */
  readonly rightTimeField: number;
  /** `r.time >= l.time + lowerBound` (ms, inclusive). */
  readonly lowerBound: number;
  /** `r.time <= l.time + upperBound` (ms, inclusive). */
  readonly upperBound: number;
  /** The side whose rows are kept for good (INNER joins only; see the module doc); none when absent. */
  readonly retain?: "left" | "right";
}

/** A buffered row: its fields, time and whether it matched a row of the other side. */
interface Buffered {
  f: SqlValue[];
  t: number;
  m: boolean;
}

/** The buffered rows of one side and key, in arrival order, and the earliest cleanup queued for them (null: none). */
interface SideBuffer {
  rows: Buffered[];
  next: number | null;
}

/**
 * Translates an interval join: `left.connect(right).keyBy(leftKeys, rightKeys)`
 * processed by the join, named `naming`.
 *
 * @example
 * ```ts
 * // SELECT * FROM orders o LEFT JOIN shipments s ON o.id = s.order_id
 * //   AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '4' HOUR
 * const joined = intervalJoin(orders, shipments, {
 *   joinType: "LEFT", leftKeys: [0], rightKeys: [1], leftArity: 3, rightArity: 3,
 *   leftTimeField: 2, rightTimeField: 2, lowerBound: 0, upperBound: 4 * 3600_000,
 * }, { uid: "join-1", name: "IntervalJoin(LEFT)" });
 * ```
 * @throws JoinSpecError for keys of different lengths, positions out of range or a join type other than INNER/LEFT/RIGHT/FULL
 */
export function intervalJoin(left: DataStream<Row>, right: DataStream<Row>, spec: IntervalJoinSpec, naming: OperatorNaming): DataStream<Row> {
  checkJoinSpec(spec, "interval join", ["INNER", "LEFT", "RIGHT", "FULL"]);
  checkPositions("interval join", "left time", [spec.leftTimeField], spec.leftArity);
  checkPositions("interval join", "right time", [spec.rightTimeField], spec.rightArity);
  if (!Number.isFinite(spec.lowerBound) || !Number.isFinite(spec.upperBound))
    throw new JoinSpecError(`interval join: bounds must be finite, got [${spec.lowerBound}, ${spec.upperBound}]`);
  if (spec.retain !== undefined && spec.joinType !== "INNER") throw new JoinSpecError(`interval join: only an INNER join can retain a side, got ${spec.joinType}`);
  return processWithWatermarkDelay(left, right, rowKeySelector(spec.leftKeys), rowKeySelector(spec.rightKeys), new IntervalJoinFunction(spec), intervalJoinWatermarkDelay(spec))
    .uid(naming.uid)
    .name(naming.name);
}

/**
 * How far the interval join's output watermark lags its input watermark:
 * more than the age of any row it emits relative to its watermark (rows that
 * were late on arrival aside).
 *
 * @example
 * ```ts
 * intervalJoinWatermarkDelay({ lowerBound: -5000, upperBound: 10_000 }); // 10001
 * ```
 */
export function intervalJoinWatermarkDelay(bounds: Pick<IntervalJoinSpec, "lowerBound" | "upperBound">): number {
  return Math.max(-bounds.lowerBound, bounds.upperBound, 0) + 1;
}

/** The cleanup slots of the left and the right side's rows. */
const LEFT = 0;
const RIGHT = 1;

class IntervalJoinFunction extends CleanupQueueFunction<string, Row, Row, Row> {
  readonly cleanupStates = ["_left", "_right"];
  private leftState!: EngineKeyedState<SideBuffer>;
  private rightState!: EngineKeyedState<SideBuffer>;

  constructor(private readonly spec: IntervalJoinSpec) {
    super();
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    this.leftState = engineKeyedState<SideBuffer>(ctx, "_left");
    this.rightState = engineKeyedState<SideBuffer>(ctx, "_right");
  }

  processElement1(row: Row, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    this.process(row, true, ctx, out);
  }

  processElement2(row: Row, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    this.process(row, false, ctx, out);
  }

  nextCleanup(stored: unknown): number | null {
    return (stored as SideBuffer).next;
  }

  cleanUp(time: number, slot: number, ctx: OnTimerContext<string>, out: Collector<Row>): void {
    if (slot === LEFT) this.expire(this.leftState, true, time, ctx, out);
    else this.expire(this.rightState, false, time, ctx, out);
  }

  private process(row: Row, isLeft: boolean, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) throw new InsertOnlyInputError("interval join", row);
    const { spec } = this;
    const fields = row.fields;
    const time = fields[isLeft ? spec.leftTimeField : spec.rightTimeField] as number | null;
    const pads = isLeft ? padsLeft(spec.joinType) : padsRight(spec.joinType);
    if (time === null || hasNullKey(fields, isLeft ? spec.leftKeys : spec.rightKeys, spec.nullSafeKeys)) {
      if (pads) out.collect(rowOf(RowKind.INSERT, this.padded(fields, isLeft)));
      return;
    }
    // the other side's times that match: [lo, hi]
    const lo = isLeft ? time + spec.lowerBound : time - spec.upperBound;
    const hi = isLeft ? time + spec.upperBound : time - spec.lowerBound;
    const otherState = isLeft ? this.rightState : this.leftState;
    const otherPads = isLeft ? padsRight(spec.joinType) : padsLeft(spec.joinType);
    let matched = false;
    const other = otherState.get();
    if (other !== undefined) {
      let firstMatches: number[] | undefined;
      const rows = other.rows;
      for (let i = 0; i < rows.length; i++) {
        const e = rows[i]!;
        if (e.t < lo || e.t > hi) continue;
        if (!(isLeft ? conditionHolds(spec, fields, e.f) : conditionHolds(spec, e.f, fields))) continue;
        matched = true;
        out.collect(rowOf(RowKind.INSERT, isLeft ? this.joined(fields, e.f) : this.joined(e.f, fields)));
        if (otherPads && !e.m) (firstMatches ??= []).push(i);
      }
      if (firstMatches !== undefined) {
        const owned = otherState.getOwned()!; // changed in place
        for (const i of firstMatches) owned.rows[i]!.m = true;
      }
    }
    const retained = spec.retain === (isLeft ? "left" : "right");
    const cleanup = this.cleanupTime(time, isLeft);
    if (!retained && cleanup <= ctx.timerService().currentWatermark()) {
      if (!matched && pads) out.collect(rowOf(RowKind.INSERT, this.padded(fields, isLeft)));
      return;
    }
    const ownState = isLeft ? this.leftState : this.rightState;
    let own = ownState.getOwned(); // changed in place
    if (own === undefined) {
      own = { rows: [], next: null };
      ownState.set(own);
    }
    // the row is this function's own, so its fields may be kept
    own.rows.push({ f: fields, t: time, m: matched });
    if (!retained && (own.next === null || cleanup < own.next)) {
      own.next = cleanup;
      this.queueCleanup(cleanup, isLeft ? LEFT : RIGHT, ctx.getCurrentKey());
    }
  }

  /** When the watermark makes a new match of a row of a side at `time` impossible. */
  private cleanupTime(time: number, isLeft: boolean): number {
    return isLeft ? time + this.spec.upperBound : time - this.spec.lowerBound;
  }

  /**
   * Removes the rows of a side whose matches the watermark made impossible (a preserved side emits those
   * that never matched padded), then queues the earliest cleanup of the rows left. A preserved side
   * removes the rows due at `time` (its cleanup popped from the queue), so that each padded row is emitted
   * in the order and with the timestamp of its own cleanup time; a side that pads nothing removes every
   * row due at the current watermark at once (a key with many rows is scanned once per watermark, not
   * once per row).
   */
  private expire(state: EngineKeyedState<SideBuffer>, isLeft: boolean, time: number, ctx: OnTimerContext<string>, out: Collector<Row>): void {
    const buffer = state.getOwned(); // compacted in place below (an outdated cleanup, rarely, changes nothing)
    if (buffer === undefined || buffer.next === null || buffer.next > time) return;
    const pads = isLeft ? padsLeft(this.spec.joinType) : padsRight(this.spec.joinType);
    const upTo = pads ? time : ctx.timerService().currentWatermark();
    const rows = buffer.rows;
    let kept = 0;
    let next: number | null = null;
    for (let i = 0; i < rows.length; i++) {
      const e = rows[i]!;
      const cleanup = this.cleanupTime(e.t, isLeft);
      if (cleanup > upTo) {
        rows[kept++] = e;
        if (next === null || cleanup < next) next = cleanup;
      } else if (pads && !e.m) out.collect(rowOf(RowKind.INSERT, this.padded(e.f, isLeft)));
    }
    if (kept === 0) {
      state.set(undefined);
      return;
    }
    rows.length = kept;
    buffer.next = next;
    this.queueCleanup(next!, isLeft ? LEFT : RIGHT, ctx.getCurrentKey());
  }

  private padded(fields: readonly SqlValue[], isLeft: boolean): SqlValue[] {
    const { leftArity, rightArity } = this.spec;
    return isLeft ? joinedFields(fields, leftArity, null, rightArity) : joinedFields(null, leftArity, fields, rightArity);
  }

  private joined(left: readonly SqlValue[], right: readonly SqlValue[]): SqlValue[] {
    return joinedFields(left, this.spec.leftArity, right, this.spec.rightArity);
  }
}
