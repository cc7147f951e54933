/** Turns every FIRE of another trigger into FIRE_AND_PURGE. */
import { isFire, Trigger, TriggerResult, type OnMergeContext, type TriggerContext } from "./trigger.ts";
import type { Window } from "./window.ts";

/**
 * Wraps a trigger so that each firing also discards the window's contents.
 *
 * @example
 * ```ts
 * stream.keyBy(k).window(GlobalWindows.create()).trigger(PurgingTrigger.of(CountTrigger.of(100)));
 * ```
 */
export class PurgingTrigger<T, W extends Window> extends Trigger<T, W> {
  private constructor(private readonly nested: Trigger<T, W>) {
    super();
  }

  /** Purging version of `trigger`. */
  static of<T, W extends Window>(trigger: Trigger<T, W>): PurgingTrigger<T, W> {
    return new PurgingTrigger(trigger);
  }

  private static purging(r: TriggerResult): TriggerResult {
    return isFire(r) ? TriggerResult.FIRE_AND_PURGE : r;
  }

  onElement(e: T, ts: number, w: W, ctx: TriggerContext): TriggerResult {
    return PurgingTrigger.purging(this.nested.onElement(e, ts, w, ctx));
  }

  onEventTime(time: number, w: W, ctx: TriggerContext): TriggerResult {
    return PurgingTrigger.purging(this.nested.onEventTime(time, w, ctx));
  }

  onProcessingTime(time: number, w: W, ctx: TriggerContext): TriggerResult {
    return PurgingTrigger.purging(this.nested.onProcessingTime(time, w, ctx));
  }

  override canMerge(): boolean {
    return this.nested.canMerge();
  }

  override onMerge(w: W, ctx: OnMergeContext): void {
    this.nested.onMerge(w, ctx);
  }

  override clear(w: W, ctx: TriggerContext): void {
    this.nested.clear(w, ctx);
  }

  override toString(): string {
    return `PurgingTrigger(${this.nested.toString()})`;
  }
}
