/**
 * Sliding windows: windows of `size` ms starting every `slide` ms, so a record
 * belongs to `size / slide` windows (rounded up), on event or processing time.
 */
import { EventTimeTrigger } from "./event-time-trigger.ts";
import { ProcessingTimeTrigger } from "./processing-time-trigger.ts";
import type { Trigger } from "./trigger.ts";
import { TimeWindow, windowStartWithOffset } from "./window.ts";
import { checkOffset, checkPositiveMs, WindowAssigner, type WindowAssignerContext } from "./window-assigner.ts";

/** The windows of `size` every `slide` (shifted by `offset`) that contain `t`, latest first (Flink's order). */
export function slidingWindowsOf(t: number, size: number, slide: number, offset: number): TimeWindow[] {
  const windows: TimeWindow[] = [];
  const lastStart = windowStartWithOffset(t, offset, slide);
  for (let start = lastStart; start > t - size; start -= slide) windows.push(new TimeWindow(start, start + size));
  return windows;
}

function checkSlide(size: number, slide: number, offset: number): void {
  checkPositiveMs("window size", size);
  checkPositiveMs("window slide", slide);
  checkOffset(offset, slide);
}

/**
 * Event-time sliding windows.
 *
 * @example
 * ```ts
 * // a 10 s average, updated every second
 * stream.keyBy((r) => r.sensor).window(SlidingEventTimeWindows.of(10_000, 1_000)).aggregate(average);
 * ```
 */
export class SlidingEventTimeWindows extends WindowAssigner<unknown, TimeWindow> {
  private constructor(
    private readonly size: number,
    private readonly slide: number,
    private readonly offset: number,
  ) {
    super();
  }

  /** Windows of `size` ms every `slide` ms, shifted by `offset` ms (|offset| < slide). */
  static of(size: number, slide: number, offset = 0): SlidingEventTimeWindows {
    checkSlide(size, slide, offset);
    return new SlidingEventTimeWindows(size, slide, offset);
  }

  assignWindows(_element: unknown, timestamp: number): TimeWindow[] {
    return slidingWindowsOf(timestamp, this.size, this.slide, this.offset);
  }

  getDefaultTrigger(): Trigger<unknown, TimeWindow> {
    return EventTimeTrigger.create();
  }

  isEventTime(): boolean {
    return true;
  }

  override toString(): string {
    return `SlidingEventTimeWindows(${this.size}, ${this.slide})`;
  }
}

/**
 * Processing-time sliding windows.
 *
 * @example
 * ```ts
 * stream.keyBy((r) => r.sensor).window(SlidingProcessingTimeWindows.of(10_000, 1_000)).sum("value");
 * ```
 */
export class SlidingProcessingTimeWindows extends WindowAssigner<unknown, TimeWindow> {
  private constructor(
    private readonly size: number,
    private readonly slide: number,
    private readonly offset: number,
  ) {
    super();
  }

  /** Windows of `size` ms every `slide` ms, shifted by `offset` ms. */
  static of(size: number, slide: number, offset = 0): SlidingProcessingTimeWindows {
    checkSlide(size, slide, offset);
    return new SlidingProcessingTimeWindows(size, slide, offset);
  }

  assignWindows(_element: unknown, _timestamp: number, context: WindowAssignerContext): TimeWindow[] {
    return slidingWindowsOf(context.currentProcessingTime(), this.size, this.slide, this.offset);
  }

  getDefaultTrigger(): Trigger<unknown, TimeWindow> {
    return ProcessingTimeTrigger.create();
  }

  isEventTime(): boolean {
    return false;
  }

  override toString(): string {
    return `SlidingProcessingTimeWindows(${this.size}, ${this.slide})`;
  }
}
