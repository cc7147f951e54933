/**
 * Tumbling windows: fixed-size, non-overlapping windows aligned to the epoch
 * (plus an optional offset), on event time or processing time.
 */
import { EventTimeTrigger } from "./event-time-trigger.ts";
import { ProcessingTimeTrigger } from "./processing-time-trigger.ts";
import type { Trigger } from "./trigger.ts";
import { TimeWindow, windowStartWithOffset } from "./window.ts";
import { checkOffset, checkPositiveMs, WindowAssigner, type WindowAssignerContext } from "./window-assigner.ts";

/**
 * Event-time windows of `size` ms: a record with timestamp `ts` goes to
 * `[ts - (ts - offset) % size, … + size)`.
 *
 * @example
 * ```ts
 * stream.keyBy((e) => e.user).window(TumblingEventTimeWindows.of(60_000)).sum("clicks");
 * ```
 */
export class TumblingEventTimeWindows extends WindowAssigner<unknown, TimeWindow> {
  private constructor(
    private readonly size: number,
    private readonly offset: number,
  ) {
    super();
  }

  /** Windows of `size` ms, shifted by `offset` ms (e.g. a time zone). */
  static of(size: number, offset = 0): TumblingEventTimeWindows {
    return new TumblingEventTimeWindows(checkPositiveMs("window size", size), checkOffset(offset, size));
  }

  assignWindows(_element: unknown, timestamp: number): TimeWindow[] {
    const start = windowStartWithOffset(timestamp, this.offset, this.size);
    return [new TimeWindow(start, start + this.size)];
  }

  getDefaultTrigger(): Trigger<unknown, TimeWindow> {
    return EventTimeTrigger.create();
  }

  isEventTime(): boolean {
    return true;
  }

  override toString(): string {
    return `TumblingEventTimeWindows(${this.size})`;
  }
}

/**
 * Processing-time windows of `size` ms: a record goes to the window that contains
 * the task's processing time when it arrives.
 *
 * @example
 * ```ts
 * stream.keyBy((e) => e.user).window(TumblingProcessingTimeWindows.of(1_000)).reduce((a, b) => a + b);
 * ```
 */
export class TumblingProcessingTimeWindows extends WindowAssigner<unknown, TimeWindow> {
  private constructor(
    private readonly size: number,
    private readonly offset: number,
  ) {
    super();
  }

  /** Windows of `size` ms, shifted by `offset` ms. */
  static of(size: number, offset = 0): TumblingProcessingTimeWindows {
    return new TumblingProcessingTimeWindows(checkPositiveMs("window size", size), checkOffset(offset, size));
  }

  assignWindows(_element: unknown, _timestamp: number, context: WindowAssignerContext): TimeWindow[] {
    const now = context.currentProcessingTime();
    const start = windowStartWithOffset(now, this.offset, this.size);
    return [new TimeWindow(start, start + this.size)];
  }

  getDefaultTrigger(): Trigger<unknown, TimeWindow> {
    return ProcessingTimeTrigger.create();
  }

  isEventTime(): boolean {
    return false;
  }

  override toString(): string {
    return `TumblingProcessingTimeWindows(${this.size})`;
  }
}
