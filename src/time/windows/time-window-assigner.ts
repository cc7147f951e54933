/**
 * Base of the fixed time-window assigners (tumbling, sliding): the event-time
 * and processing-time variants differ only in the clock that places a record
 * and in the default trigger. All their windows have one size, so a window is
 * known by its start: the window operator keys their state and timers by that
 * number and steps through the starts of a record's windows (latest first, as
 * in Flink) without building window objects or arrays:
 *
 * ```ts
 * const { size, slide, offset } = assigner;
 * for (let start = windowStartWithOffset(time, offset, slide); start > time - size; start -= slide) …
 * ```
 */
import { EventTimeTrigger } from "./event-time-trigger.ts";
import { ProcessingTimeTrigger } from "./processing-time-trigger.ts";
import type { Trigger } from "./trigger.ts";
import { TimeWindow, windowStartWithOffset } from "./window.ts";
import { checkOffset, checkPositiveMs, WindowAssigner, type WindowAssignerContext } from "./window-assigner.ts";

export abstract class TimeWindowAssigner extends WindowAssigner<unknown, TimeWindow> {
  /**
   * @param eventTime true: windows by the record's timestamp; false: by the task's processing time at arrival
   * @param size every window is `[start, start + size)`
   * @param slide a window starts every `slide` ms (`size` for tumbling windows)
   * @param offset window starts are shifted by `offset` ms (|offset| < slide)
   */
  protected constructor(
    private readonly eventTime: boolean,
    readonly size: number,
    readonly slide: number,
    readonly offset: number,
  ) {
    super();
    checkPositiveMs("window size", size);
    checkPositiveMs("window slide", slide);
    checkOffset(offset, slide);
  }

  assignWindows(_element: unknown, timestamp: number, context: WindowAssignerContext): TimeWindow[] {
    const time = this.eventTime ? timestamp : context.currentProcessingTime();
    const windows: TimeWindow[] = [];
    for (let start = windowStartWithOffset(time, this.offset, this.slide); start > time - this.size; start -= this.slide) windows.push(new TimeWindow(start, start + this.size));
    return windows;
  }

  getDefaultTrigger(): Trigger<unknown, TimeWindow> {
    return this.eventTime ? EventTimeTrigger.create() : ProcessingTimeTrigger.create();
  }

  isEventTime(): boolean {
    return this.eventTime;
  }
}
