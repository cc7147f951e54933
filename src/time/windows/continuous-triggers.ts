/**
 * Triggers that fire a window periodically before it ends (early results):
 * every `interval` of event time or of processing time.
 */
import { ReducingStateDescriptor, type ReducingState } from "../../state/index.ts";
import { checkPositiveMs } from "./window-assigner.ts";
import { Trigger, TriggerResult, type OnMergeContext, type TriggerContext } from "./trigger.ts";
import type { Window } from "./window.ts";

const fireTimestamp = () => new ReducingStateDescriptor<number>("fire-time", Math.min);

/**
 * Fires every `interval` ms of event time (at multiples of the interval, as the
 * watermark passes them) and at the end of the window.
 *
 * @example
 * ```ts
 * stream.keyBy(k).window(TumblingEventTimeWindows.of(3_600_000)).trigger(ContinuousEventTimeTrigger.of(60_000));
 * ```
 */
export class ContinuousEventTimeTrigger extends Trigger<unknown, Window> {
  private readonly next = fireTimestamp();

  private constructor(private readonly interval: number) {
    super();
  }

  /** Fires every `interval` ms of event time. */
  static of(interval: number): ContinuousEventTimeTrigger {
    return new ContinuousEventTimeTrigger(checkPositiveMs("trigger interval", interval));
  }

  onElement(_e: unknown, timestamp: number, window: Window, ctx: TriggerContext): TriggerResult {
    if (window.maxTimestamp() <= ctx.getCurrentWatermark()) return TriggerResult.FIRE;
    ctx.registerEventTimeTimer(window.maxTimestamp());
    const state = ctx.getReducingState(this.next);
    if (state.get() === undefined) this.registerNext(timestamp - (timestamp % this.interval), window, ctx, state);
    return TriggerResult.CONTINUE;
  }

  onEventTime(time: number, window: Window, ctx: TriggerContext): TriggerResult {
    if (time === window.maxTimestamp()) return TriggerResult.FIRE;
    const state = ctx.getReducingState(this.next);
    if (state.get() !== time) return TriggerResult.CONTINUE;
    state.clear();
    this.registerNext(time, window, ctx, state);
    return TriggerResult.FIRE;
  }

  onProcessingTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  override canMerge(): boolean {
    return true;
  }

  override onMerge(window: Window, ctx: OnMergeContext): void {
    ctx.mergePartitionedState(this.next);
    const next = ctx.getReducingState(this.next).get();
    if (next !== undefined) ctx.registerEventTimeTimer(next);
    if (window.maxTimestamp() > ctx.getCurrentWatermark()) ctx.registerEventTimeTimer(window.maxTimestamp());
  }

  override clear(window: Window, ctx: TriggerContext): void {
    const state = ctx.getReducingState(this.next);
    const next = state.get();
    if (next !== undefined) ctx.deleteEventTimeTimer(next);
    state.clear();
    ctx.deleteEventTimeTimer(window.maxTimestamp());
  }

  private registerNext(time: number, window: Window, ctx: TriggerContext, state: ReducingState<number>): void {
    const next = Math.min(time + this.interval, window.maxTimestamp());
    state.add(next);
    ctx.registerEventTimeTimer(next);
  }

  override toString(): string {
    return `ContinuousEventTimeTrigger(${this.interval})`;
  }
}

/**
 * Fires every `interval` ms of processing time while the window has records.
 *
 * @example
 * ```ts
 * stream.keyBy(k).window(GlobalWindows.create()).trigger(ContinuousProcessingTimeTrigger.of(5_000));
 * ```
 */
export class ContinuousProcessingTimeTrigger extends Trigger<unknown, Window> {
  private readonly next = fireTimestamp();

  private constructor(private readonly interval: number) {
    super();
  }

  /** Fires every `interval` ms of processing time. */
  static of(interval: number): ContinuousProcessingTimeTrigger {
    return new ContinuousProcessingTimeTrigger(checkPositiveMs("trigger interval", interval));
  }

  onElement(_e: unknown, _ts: number, window: Window, ctx: TriggerContext): TriggerResult {
    const state = ctx.getReducingState(this.next);
    const now = ctx.getCurrentProcessingTime();
    if (state.get() === undefined) this.registerNext(now - (now % this.interval), window, ctx, state);
    return TriggerResult.CONTINUE;
  }

  onEventTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  onProcessingTime(time: number, window: Window, ctx: TriggerContext): TriggerResult {
    const state = ctx.getReducingState(this.next);
    if (state.get() !== time) return TriggerResult.CONTINUE;
    state.clear();
    this.registerNext(time, window, ctx, state);
    return TriggerResult.FIRE;
  }

  override canMerge(): boolean {
    return true;
  }

  override onMerge(_w: Window, ctx: OnMergeContext): void {
    ctx.mergePartitionedState(this.next);
    const next = ctx.getReducingState(this.next).get();
    if (next !== undefined) ctx.registerProcessingTimeTimer(next);
  }

  override clear(_w: Window, ctx: TriggerContext): void {
    const state = ctx.getReducingState(this.next);
    const next = state.get();
    if (next !== undefined) ctx.deleteProcessingTimeTimer(next);
    state.clear();
  }

  private registerNext(time: number, window: Window, ctx: TriggerContext, state: ReducingState<number>): void {
    const next = Math.min(time + this.interval, window.maxTimestamp());
    state.add(next);
    ctx.registerProcessingTimeTimer(next);
  }

  override toString(): string {
    return `ContinuousProcessingTimeTrigger(${this.interval})`;
  }
}
