/**
 * The interval join (Flink's `IntervalJoinOperator`): on equal keys, joins a
 * left record `l` with every right record `r` such that
 * `l.ts + lower <= r.ts <= l.ts + upper`. Both sides are buffered in keyed
 * state; a record is dropped from its buffer once the watermark makes a new
 * match impossible (its cleanup time). A pair is emitted with the larger of
 * both timestamps. A record whose timestamp is below the watermark when it
 * arrives is late: it is dropped (or sent to the side output configured for
 * its side).
 *
 * Hot path. The buffers of a key (both sides in one entry) are engine-owned
 * state (no copy per access): each side's records in timestamp order, so the
 * matches of a record are a range found by binary search, and the expired
 * ones are a prefix. One timer
 * per key and side, at the cleanup time of the buffer's earliest record,
 * removes every expired record when it fires (as Flink's timer per timestamp
 * would have by then) and is set again for the next one. These timers are
 * implied by the buffers, so they are not state: an in-memory queue, rebuilt
 * from the buffers on restore (a queued timer that is no longer the cleanup
 * time of its buffer's earliest record is stale and skipped). What user code
 * receives from a buffer is a copy; a record is buffered as it came unless the
 * function saw it.
 */
import type { Collector } from "../../core/collector.ts";
import type { ProcessJoinContext, ProcessJoinFunctionObject } from "../../core/process-join-function.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import type { EngineKeyedState, KeyedStateBackend } from "../../state/index.ts";
import { copyPlainData } from "../../state/plain-copy.ts";
import { TimerQueue } from "../../time/timer-queue.ts";
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

/**
 * The buffered records of a key: of each side, the timestamps and the records,
 * index for index, in timestamp order (arrival order among equal timestamps).
 * Both sides in one entry: a record reads the other side and writes its own
 * with one lookup.
 */
type Buffers = [leftTimes: number[], lefts: unknown[], rightTimes: number[], rights: unknown[]];
/** Where a side's timestamps are in {@link Buffers} (its records follow). */
const LEFT = 0;
const RIGHT = 2;

const STATE = "_interval-join";


/** When a side's record at `ts` can no longer match: its cleanup timer. */
export function cleanupTimeOf(side: Side, ts: number, b: IntervalJoinBounds): number {
  if (side === "left") return b.upper > 0 ? ts + b.upper : ts;
  return b.lower < 0 ? ts - b.lower : ts;
}

/** The operator of `a.keyBy(ka).intervalJoin(b.keyBy(kb)).between(lower, upper).process(fn)`. */
export class IntervalJoinOperator<L, R, OUT> extends UdfOperator<L, OUT, ProcessJoinFunctionObject<L, R, OUT>> {
  private key1!: KeySelector;
  private key2!: KeySelector;
  private buffers!: EngineKeyedState<Buffers>;
  private backend!: KeyedStateBackend;
  /** The cleanup timers (key, side) by time. */
  private readonly cleanups = new TimerQueue();
  private watermark = Number.NEGATIVE_INFINITY;
  private leftTs = 0;
  private rightTs = 0;
  private readonly context: ProcessJoinContext = {
    getLeftTimestamp: () => this.leftTs,
    getRightTimestamp: () => this.rightTs,
    getTimestamp: () => Math.max(this.leftTs, this.rightTs),
    output: (tag, value) => this.out.collectSide(tag.id, value),
  };

  constructor(
    fn: ProcessJoinFunctionObject<L, R, OUT>,
    private readonly bounds: IntervalJoinBounds,
  ) {
    super(fn);
  }

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    if (!ctx.keyedState || !ctx.keySelector || !ctx.keySelector2)
      throw new Error(`operator '${ctx.operatorUid}' needs two keyed inputs: a.keyBy(...).intervalJoin(b.keyBy(...))`);
    this.key1 = ctx.keySelector;
    this.key2 = ctx.keySelector2;
    this.backend = ctx.keyedState;
    this.buffers = ctx.keyedState.getEngineState<Buffers>(STATE);
    for (const [key, b] of ctx.keyedState.entriesOf(STATE)) {
      const [leftTimes, , rightTimes] = b as Buffers;
      if (leftTimes.length > 0) this.cleanups.push(cleanupTimeOf("left", leftTimes[0]!, this.bounds), key, "left");
      if (rightTimes.length > 0) this.cleanups.push(cleanupTimeOf("right", rightTimes[0]!, this.bounds), key, "right");
    }
    await super.open(ctx, output);
  }

  processElement(value: L): void {
    const ts = this.timestampOf("left", value, this.bounds.leftLateTag);
    if (ts === undefined) return;
    this.ctx.keyedState!.setCurrentKey(this.key1(value));
    const { lower, upper } = this.bounds;
    const buffers = this.buffers.getOwned();
    let matched = false;
    if (buffers !== undefined) {
      const times = buffers[RIGHT];
      const rights = buffers[RIGHT + 1] as R[];
      for (let i = firstAtOrAfter(times, ts + lower); i < times.length && times[i]! <= ts + upper; i++) {
        matched = true;
        this.emit(value, ts, copyPlainData(rights[i]!), times[i]!);
      }
    }
    this.buffer(buffers, "left", ts, matched ? copyPlainData(value) : value);
  }

  processElement2(value: unknown): void {
    const ts = this.timestampOf("right", value, this.bounds.rightLateTag);
    if (ts === undefined) return;
    const r = value as R;
    this.ctx.keyedState!.setCurrentKey(this.key2(r));
    const { lower, upper } = this.bounds;
    const buffers = this.buffers.getOwned();
    let matched = false;
    if (buffers !== undefined) {
      const times = buffers[LEFT];
      const lefts = buffers[LEFT + 1] as L[];
      for (let i = firstAtOrAfter(times, ts - upper); i < times.length && times[i]! <= ts - lower; i++) {
        matched = true;
        this.emit(copyPlainData(lefts[i]!), times[i]!, r, ts);
      }
    }
    this.buffer(buffers, "right", ts, matched ? copyPlainData(r) : r);
  }

  processWatermark(timestamp: number): void {
    this.watermark = timestamp;
    const queue = this.cleanups;
    for (let next = queue.nextTimestamp(); next !== undefined && next <= timestamp; next = queue.nextTimestamp()) {
      const time = queue.pop();
      this.backend.setCurrentKey(queue.key);
      this.cleanUp(queue.namespace as Side, time);
    }
    this.out.emitWatermark(timestamp);
  }

  /** The record's timestamp, or undefined when it is late (then dropped or sent to `lateTag`). */
  private timestampOf(side: Side, value: unknown, lateTag: string | undefined): number | undefined {
    const ts = this.ctx.element.timestamp;
    if (ts === NO_TIMESTAMP) throw new MissingTimestampError(this.ctx.operatorUid, side);
    if (ts >= this.watermark) return ts;
    if (lateTag !== undefined) this.out.collectSide(lateTag, value);
    return undefined;
  }

  private emit(l: L, lts: number, r: R, rts: number): void {
    this.leftTs = lts;
    this.rightTs = rts;
    this.ctx.element.timestamp = Math.max(lts, rts);
    this.fn.processElement(l, r, this.context, this.out as Collector<OUT>);
  }

  /** Adds a record to `side` of the current key's `buffers` (owned, or none yet); a new earliest record gets the side's cleanup timer. */
  private buffer(buffers: Buffers | undefined, side: Side, ts: number, record: unknown): void {
    if (buffers === undefined) {
      this.buffers.set(side === "left" ? [[ts], [record], [], []] : [[], [], [ts], [record]]);
      this.registerCleanup(side, ts);
      return;
    }
    const offset = side === "left" ? LEFT : RIGHT;
    const times = buffers[offset] as number[];
    const records = buffers[offset + 1] as unknown[];
    let at = times.length;
    times.push(ts);
    records.push(record);
    for (; at > 0 && times[at - 1]! > ts; at--) {
      // mostly in order: rarely moves anything
      times[at] = times[at - 1]!;
      records[at] = records[at - 1];
    }
    times[at] = ts;
    records[at] = record;
    if (at === 0) this.registerCleanup(side, ts);
  }

  private registerCleanup(side: Side, ts: number): void {
    this.cleanups.push(cleanupTimeOf(side, ts, this.bounds), this.backend.getCurrentKey(), side);
  }

  /** A cleanup timer of `side` fired at `time`: drops the records that can no longer match, then sets the timer for the next one. */
  private cleanUp(side: Side, time: number): void {
    const offset = side === "left" ? LEFT : RIGHT;
    const buffers = this.buffers.get();
    if (buffers === undefined) return;
    const times = buffers[offset] as number[];
    if (times.length === 0 || cleanupTimeOf(side, times[0]!, this.bounds) !== time) return; // stale: not the earliest record's
    let expired = 0;
    while (expired < times.length && cleanupTimeOf(side, times[expired]!, this.bounds) <= this.watermark) expired++;
    const other = buffers[offset === LEFT ? RIGHT : LEFT] as number[];
    if (expired === times.length && other.length === 0) return this.buffers.set(undefined);
    const next = times[expired];
    const own = this.buffers.getOwned()!;
    (own[offset] as number[]).splice(0, expired);
    (own[offset + 1] as unknown[]).splice(0, expired);
    if (next !== undefined) this.registerCleanup(side, next);
  }
}

/** The index of the first of the ascending `times` at or after `t` (`times.length` if none). */
function firstAtOrAfter(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
