/**
 * Base of the fixed time-window assigners (tumbling, sliding): the event-time
 * and processing-time variants differ only in the clock that places a record
 * and in the default trigger.
 */
import { EventTimeTrigger } from "./event-time-trigger.ts";
import { ProcessingTimeTrigger } from "./processing-time-trigger.ts";
import type { Trigger } from "./trigger.ts";
import type { TimeWindow } from "./window.ts";
import { WindowAssigner, type WindowAssignerContext } from "./window-assigner.ts";

export abstract class TimeWindowAssigner extends WindowAssigner<unknown, TimeWindow> {
  /** @param eventTime true: windows by the record's timestamp; false: by the task's processing time at arrival */
  protected constructor(private readonly eventTime: boolean) {
    super();
  }

  /** The windows that contain `time`. */
  protected abstract windowsAt(time: number): TimeWindow[];

  assignWindows(_element: unknown, timestamp: number, context: WindowAssignerContext): TimeWindow[] {
    return this.windowsAt(this.eventTime ? timestamp : context.currentProcessingTime());
  }

  getDefaultTrigger(): Trigger<unknown, TimeWindow> {
    return this.eventTime ? EventTimeTrigger.create() : ProcessingTimeTrigger.create();
  }

  isEventTime(): boolean {
    return this.eventTime;
  }
}
