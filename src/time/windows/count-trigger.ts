/** Fires a window every `n` records. */
import { ReducingStateDescriptor } from "../../state/index.ts";
import { Trigger, TriggerResult, type OnMergeContext, type TriggerContext } from "./trigger.ts";
import type { Window } from "./window.ts";

/**
 * Fires once `n` records arrived in the window since it last fired (the count
 * is per key and window, checkpointed, and summed when sessions merge).
 *
 * @example
 * ```ts
 * stream.keyBy(k).window(GlobalWindows.create()).trigger(PurgingTrigger.of(CountTrigger.of(3))).sum("n");
 * ```
 */
export class CountTrigger extends Trigger<unknown, Window> {
  private readonly count = new ReducingStateDescriptor<number>("count", (a, b) => a + b);

  private constructor(private readonly n: number) {
    super();
  }

  /** Fires every `n` records. */
  static of(n: number): CountTrigger {
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`CountTrigger needs a whole count > 0, got ${n}`);
    return new CountTrigger(n);
  }

  onElement(_e: unknown, _ts: number, _w: Window, ctx: TriggerContext): TriggerResult {
    const count = ctx.getReducingState(this.count);
    count.add(1);
    if (count.get()! >= this.n) {
      count.clear();
      return TriggerResult.FIRE;
    }
    return TriggerResult.CONTINUE;
  }

  onEventTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  onProcessingTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }

  override canMerge(): boolean {
    return true;
  }

  override onMerge(_w: Window, ctx: OnMergeContext): void {
    ctx.mergePartitionedState(this.count);
  }

  override clear(_w: Window, ctx: TriggerContext): void {
    ctx.getReducingState(this.count).clear();
  }

  override toString(): string {
    return `CountTrigger(${this.n})`;
  }
}
