/** The default trigger of processing-time windows: fires when processing time passes the window's end. */
import { Trigger, TriggerResult, type OnMergeContext, type TriggerContext } from "./trigger.ts";
import type { Window } from "./window.ts";

/**
 * Fires when processing time reaches `window.maxTimestamp()`.
 *
 * @example
 * ```ts
 * stream.keyBy(k).window(TumblingEventTimeWindows.of(1_000)).trigger(ProcessingTimeTrigger.create());
 * ```
 */
export class ProcessingTimeTrigger extends Trigger<unknown, Window> {
  private constructor() {
    super();
  }

  /** The trigger. */
  static create(): ProcessingTimeTrigger {
    return new ProcessingTimeTrigger();
  }

  onElement(_e: unknown, _ts: number, window: Window, ctx: TriggerContext): TriggerResult {
    ctx.registerProcessingTimeTimer(window.maxTimestamp());
    return TriggerResult.CONTINUE;
  }

  onEventTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  onProcessingTime(): TriggerResult {
    return TriggerResult.FIRE;
  }

  override canMerge(): boolean {
    return true;
  }

  override onMerge(window: Window, ctx: OnMergeContext): void {
    if (window.maxTimestamp() > ctx.getCurrentProcessingTime()) ctx.registerProcessingTimeTimer(window.maxTimestamp());
  }

  override clear(window: Window, ctx: TriggerContext): void {
    ctx.deleteProcessingTimeTimer(window.maxTimestamp());
  }
}
