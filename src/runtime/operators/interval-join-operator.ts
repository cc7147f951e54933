/**
 * The interval join (Flink's `IntervalJoinOperator`): on equal keys, joins a
 * left record `l` with every right record `r` such that
 * `l.ts + lower <= r.ts <= l.ts + upper`. Both sides are buffered in keyed
 * MapState by timestamp; an event-time timer per side and timestamp drops a
 * bucket once the watermark makes a new match impossible. A pair is emitted
 * with the larger of both timestamps. A record whose timestamp is below the
 * watermark when it arrives is late: it is dropped (or sent to the side output
 * configured for its side).
 */
import type { Collector } from "../../core/collector.ts";
import type { ProcessJoinContext, ProcessJoinFunction } from "../../core/process-join-function.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import { MapStateDescriptor, type MapState } from "../../state/index.ts";
import { KeyedTimerService } from "../../time/timer-service.ts";
import { NO_TIMESTAMP } from "../elements.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { UdfOperator } from "./udf-operator.ts";

/** The bounds of an interval join, both inclusive (exclusive bounds are moved by 1 ms before). */
export interface IntervalJoinBounds {
  readonly lower: number;
  readonly upper: number;
  /** Side output ids for late records of each side (dropped when undefined). */
  readonly leftLateTag?: string;
  readonly rightLateTag?: string;
}

/** A record of the join without an event timestamp (the interval join needs event time). */
export class MissingTimestampError extends Error {
  override name = "MissingTimestampError";
  constructor(operatorUid: string, side: "left" | "right") {
    super(
      `interval join '${operatorUid}': a ${side} record has no event timestamp; ` +
        "assign timestamps with assignTimestampsAndWatermarks(...) on both inputs",
    );
  }
}

type Side = "left" | "right";

/** The timestamp of the bucket a side's cleanup timer at `timerTs` removes. */
export function bucketOfCleanupTimer(side: Side, timerTs: number, b: IntervalJoinBounds): number {
  if (side === "left") return b.upper <= 0 ? timerTs : timerTs - b.upper;
  return b.lower <= 0 ? timerTs + b.lower : timerTs;
}

/** When a side's record at `ts` can no longer match: its cleanup timer. */
export function cleanupTimeOf(side: Side, ts: number, b: IntervalJoinBounds): number {
  if (side === "left") return b.upper > 0 ? ts + b.upper : ts;
  return b.lower < 0 ? ts - b.lower : ts;
}

/** The operator of `a.keyBy(ka).intervalJoin(b.keyBy(kb)).between(lower, upper).process(fn)`. */
export class IntervalJoinOperator<L, R, OUT> extends UdfOperator<L, OUT, ProcessJoinFunction<L, R, OUT>> {
  private key1!: KeySelector;
  private key2!: KeySelector;
  private left!: MapState<number, L[]>;
  private right!: MapState<number, R[]>;
  private timers!: KeyedTimerService;
  private leftTs = 0;
  private rightTs = 0;
  private readonly context: ProcessJoinContext = {
    getLeftTimestamp: () => this.leftTs,
    getRightTimestamp: () => this.rightTs,
    getTimestamp: () => Math.max(this.leftTs, this.rightTs),
    output: (tag, value) => this.out.collectSide(tag.id, value),
  };

  constructor(
    fn: ProcessJoinFunction<L, R, OUT>,
    private readonly bounds: IntervalJoinBounds,
  ) {
    super(fn);
  }

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    if (!ctx.keyedState || !ctx.keySelector || !ctx.keySelector2)
      throw new Error(`operator '${ctx.operatorUid}' needs two keyed inputs: a.keyBy(...).intervalJoin(b.keyBy(...))`);
    this.key1 = ctx.keySelector;
    this.key2 = ctx.keySelector2;
    this.left = ctx.keyedState.getMapState(new MapStateDescriptor<number, L[]>("_interval-join:left"));
    this.right = ctx.keyedState.getMapState(new MapStateDescriptor<number, R[]>("_interval-join:right"));
    this.timers = new KeyedTimerService(ctx.keyedState, ctx.processingTime, (ts, _key, ns) => this.cleanUp(ns as Side, ts));
    this.timers.restore();
    await super.open(ctx, output);
  }

  processElement(value: L): void {
    const ts = this.timestampOf("left", value, this.bounds.leftLateTag);
    if (ts === undefined) return;
    this.ctx.keyedState!.setCurrentKey(this.key1(value));
    add(this.left, ts, value);
    const { lower, upper } = this.bounds;
    for (const [rts, rights] of this.right.entries()) {
      if (rts < ts + lower || rts > ts + upper) continue;
      for (const r of rights) this.emit(value, ts, r, rts);
    }
    this.timers.registerEventTimeTimer(cleanupTimeOf("left", ts, this.bounds), "left");
  }

  processElement2(value: unknown): void {
    const ts = this.timestampOf("right", value, this.bounds.rightLateTag);
    if (ts === undefined) return;
    const r = value as R;
    this.ctx.keyedState!.setCurrentKey(this.key2(r));
    add(this.right, ts, r);
    const { lower, upper } = this.bounds;
    for (const [lts, lefts] of this.left.entries()) {
      if (ts < lts + lower || ts > lts + upper) continue;
      for (const l of lefts) this.emit(l, lts, r, ts);
    }
    this.timers.registerEventTimeTimer(cleanupTimeOf("right", ts, this.bounds), "right");
  }

  processWatermark(timestamp: number): void {
    this.timers.advanceWatermark(timestamp);
    this.out.emitWatermark(timestamp);
  }

  /** The record's timestamp, or undefined when it is late (then dropped or sent to `lateTag`). */
  private timestampOf(side: Side, value: unknown, lateTag: string | undefined): number | undefined {
    const ts = this.ctx.element.timestamp;
    if (ts === NO_TIMESTAMP) throw new MissingTimestampError(this.ctx.operatorUid, side);
    if (ts >= this.timers.currentWatermark()) return ts;
    if (lateTag !== undefined) this.out.collectSide(lateTag, value);
    return undefined;
  }

  private emit(l: L, lts: number, r: R, rts: number): void {
    this.leftTs = lts;
    this.rightTs = rts;
    this.ctx.element.timestamp = Math.max(lts, rts);
    this.fn.processElement(l, r, this.context, this.out as Collector<OUT>);
  }

  private cleanUp(side: Side, timerTs: number): void {
    const bucket = bucketOfCleanupTimer(side, timerTs, this.bounds);
    (side === "left" ? this.left : this.right).remove(bucket);
  }
}

function add<T>(buffer: MapState<number, T[]>, ts: number, value: T): void {
  const bucket = buffer.get(ts);
  buffer.put(ts, bucket ? [...bucket, value] : [value]);
}
