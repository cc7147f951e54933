/** The default trigger of event-time windows: fires once the watermark passes the window's end. */
import { Trigger, TriggerResult, type OnMergeContext, type TriggerContext } from "./trigger.ts";
import type { Window } from "./window.ts";

/**
 * Fires when the watermark reaches `window.maxTimestamp()`; a record added to a
 * window whose end the watermark already passed (allowed lateness) fires it at once.
 *
 * @example
 * ```ts
 * stream.keyBy(k).window(GlobalWindows.create()).trigger(EventTimeTrigger.create());
 * ```
 */
export class EventTimeTrigger extends Trigger<unknown, Window> {
  private constructor() {
    super();
  }

  /** The trigger. */
  static create(): EventTimeTrigger {
    return new EventTimeTrigger();
  }

  onElement(_e: unknown, _ts: number, window: Window, ctx: TriggerContext): TriggerResult {
    if (window.maxTimestamp() <= ctx.getCurrentWatermark()) return TriggerResult.FIRE;
    ctx.registerEventTimeTimer(window.maxTimestamp());
    return TriggerResult.CONTINUE;
  }

  onEventTime(time: number, window: Window): TriggerResult {
    return time === window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
  }

  onProcessingTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  override canMerge(): boolean {
    return true;
  }

  override onMerge(window: Window, ctx: OnMergeContext): void {
    if (window.maxTimestamp() > ctx.getCurrentWatermark()) ctx.registerEventTimeTimer(window.maxTimestamp());
  }

  override clear(window: Window, ctx: TriggerContext): void {
    ctx.deleteEventTimeTimer(window.maxTimestamp());
  }
}
