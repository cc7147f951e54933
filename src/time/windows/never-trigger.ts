/** The default trigger of global windows: never fires. */
import { Trigger, TriggerResult } from "./trigger.ts";
import type { Window } from "./window.ts";

/** Never fires (set another trigger with `.trigger(...)`). */
export class NeverTrigger extends Trigger<unknown, Window> {
  onElement(): TriggerResult {
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
  override onMerge(): void {}
}
