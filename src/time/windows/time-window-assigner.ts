/**
 * Base of the fixed time-window assigners (tumbling, sliding): the event-time
 * and processing-time variants differ only in the clock that places a record
 * and in the default trigger. All their windows have one size, so a window is
 * known by its start: the window operator keys their state and timers by that
 * number and asks for the starts of a record's windows without building window
 * objects.
 */
import { EventTimeTrigger } from "./event-time-trigger.ts";
import { ProcessingTimeTrigger } from "./processing-time-trigger.ts";
import type { Trigger } from "./trigger.ts";
import { TimeWindow } from "./window.ts";
import { checkPositiveMs, WindowAssigner, type WindowAssignerContext } from "./window-assigner.ts";

export abstract class TimeWindowAssigner extends WindowAssigner<unknown, TimeWindow> {
  /**
   * @param eventTime true: windows by the record's timestamp; false: by the task's processing time at arrival
   * @param size every window is `[start, start + size)`
   */
  protected constructor(
    private readonly eventTime: boolean,
    readonly size: number,
  ) {
    super();
    checkPositiveMs("window size", size);
  }

  /**
   * Writes the starts of the windows that contain `time` into `starts` (from
   * index 0, latest first as in Flink) and returns how many there are.
   */
  abstract windowStarts(time: number, starts: number[]): number;

  assignWindows(_element: unknown, timestamp: number, context: WindowAssignerContext): TimeWindow[] {
    const starts: number[] = [];
    const n = this.windowStarts(this.eventTime ? timestamp : context.currentProcessingTime(), starts);
    const windows: TimeWindow[] = [];
    for (let i = 0; i < n; i++) windows.push(new TimeWindow(starts[i]!, starts[i]! + this.size));
    return windows;
  }

  getDefaultTrigger(): Trigger<unknown, TimeWindow> {
    return this.eventTime ? EventTimeTrigger.create() : ProcessingTimeTrigger.create();
  }

  isEventTime(): boolean {
    return this.eventTime;
  }
}
