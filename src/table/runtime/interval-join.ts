/**
 * The SQL interval join (Flink's `RowTimeIntervalJoin`): on equal keys, a
 * left row `l` joins every right row `r` with
 * `r.time BETWEEN l.time + lowerBound AND l.time + upperBound` (inclusive,
 * the times read from the rows' time attribute fields) for which the residual
 * condition holds. Both inputs are insert-only, and so is the output.
 *
 * Each row is joined with the rows of the other side buffered so far, then
 * buffered itself (keyed state) until the watermark makes a new match
 * impossible: a left row until the watermark reaches `l.time + upperBound`, a
 * right row until it reaches `r.time - lowerBound`; an event-time timer at that
 * time removes it. An outer join (LEFT, RIGHT, FULL) emits a row of its
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
 */
import type { OperatorNaming } from "./operator-naming.ts";
import { KeyedCoProcessFunction } from "../../core/co-process-function.ts";
import type { Collector } from "../../core/collector.ts";
import type { KeyedProcessContext, OnTimerContext } from "../../core/process-function.ts";
import type { DataStream } from "../../api/data-stream.ts";
import { MapStateDescriptor, type MapState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";
import {
  checkJoinSpec, checkPositions, conditionHolds, hasNullKey, InsertOnlyInputError, joinedFields, JoinSpecError, padsLeft, padsRight, rowOf,
  type JoinSpec
} from "./join-spec.ts";
import { processWithWatermarkDelay } from "./delayed-watermark-join.ts";
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
}

/** Buffered copies of one row: its fields, time, number of copies and whether it matched a row of the other side. */
interface Buffered {
  f: SqlValue[];
  t: number;
  c: number;
  m: boolean;
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

class IntervalJoinFunction extends KeyedCoProcessFunction<string, Row, Row, Row> {
  private leftState!: MapState<string, Buffered>;
  private rightState!: MapState<string, Buffered>;

  constructor(private readonly spec: IntervalJoinSpec) {
    super();
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    this.leftState = ctx.getMapState(new MapStateDescriptor<string, Buffered>("left"));
    this.rightState = ctx.getMapState(new MapStateDescriptor<string, Buffered>("right"));
  }

  processElement1(row: Row, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    this.process(row, true, ctx, out);
  }

  processElement2(row: Row, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    this.process(row, false, ctx, out);
  }

  override onTimer(timestamp: number, _ctx: OnTimerContext<string>, out: Collector<Row>): void {
    this.expire(this.leftState, true, timestamp, out);
    this.expire(this.rightState, false, timestamp, out);
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
    const other = isLeft ? this.rightState : this.leftState;
    const otherPads = isLeft ? padsRight(spec.joinType) : padsLeft(spec.joinType);
    let matched = false;
    const firstMatches: [string, Buffered][] = [];
    for (const [k, e] of other.entries()) {
      if (e.t < lo || e.t > hi) continue;
      if (!(isLeft ? conditionHolds(spec, fields, e.f) : conditionHolds(spec, e.f, fields))) continue;
      matched = true;
      for (let i = 0; i < e.c; i++) out.collect(rowOf(RowKind.INSERT, isLeft ? this.joined(fields, e.f) : this.joined(e.f, fields)));
      if (otherPads && !e.m) firstMatches.push([k, e]);
    }
    for (const [k, e] of firstMatches) other.put(k, { ...e, m: true });
    const cleanup = this.cleanupTime(time, isLeft);
    if (cleanup <= ctx.timerService().currentWatermark()) {
      if (!matched && pads) out.collect(rowOf(RowKind.INSERT, this.padded(fields, isLeft)));
      return;
    }
    const own = isLeft ? this.leftState : this.rightState;
    const key = time + "|" + sqlValueKey(fields);
    const entry = own.get(key);
    own.put(key, entry === undefined ? { f: fields, t: time, c: 1, m: matched } : { f: entry.f, t: time, c: entry.c + 1, m: entry.m || matched });
    ctx.timerService().registerEventTimeTimer(cleanup);
  }

  /** When the watermark makes a new match of a row of a side at `time` impossible. */
  private cleanupTime(time: number, isLeft: boolean): number {
    return isLeft ? time + this.spec.upperBound : time - this.spec.lowerBound;
  }

  /** Removes the rows of a side whose matches the watermark `upTo` made impossible; a preserved side emits those that never matched padded. */
  private expire(state: MapState<string, Buffered>, isLeft: boolean, upTo: number, out: Collector<Row>): void {
    const pads = isLeft ? padsLeft(this.spec.joinType) : padsRight(this.spec.joinType);
    const expired: string[] = [];
    for (const [k, e] of state.entries()) {
      if (this.cleanupTime(e.t, isLeft) > upTo) continue;
      expired.push(k);
      if (pads && !e.m) for (let i = 0; i < e.c; i++) out.collect(rowOf(RowKind.INSERT, this.padded(e.f, isLeft)));
    }
    for (const k of expired) state.remove(k);
  }

  private padded(fields: readonly SqlValue[], isLeft: boolean): SqlValue[] {
    const { leftArity, rightArity } = this.spec;
    return isLeft ? joinedFields(fields, leftArity, null, rightArity) : joinedFields(null, leftArity, fields, rightArity);
  }

  private joined(left: readonly SqlValue[], right: readonly SqlValue[]): SqlValue[] {
    return joinedFields(left, this.spec.leftArity, right, this.spec.rightArity);
  }
}
