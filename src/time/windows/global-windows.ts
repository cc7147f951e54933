/**
 * The global window assigner: every record of a key goes to one window that
 * never ends; it needs a trigger (e.g. `CountTrigger`) to fire at all.
 */
import { NeverTrigger } from "./never-trigger.ts";
import type { Trigger } from "./trigger.ts";
import { GlobalWindow } from "./window.ts";
import { WindowAssigner } from "./window-assigner.ts";

/**
 * @example
 * ```ts
 * // every 100 records of a key
 * stream.keyBy((r) => r.key).window(GlobalWindows.create()).trigger(PurgingTrigger.of(CountTrigger.of(100))).sum("n");
 * ```
 */
export class GlobalWindows extends WindowAssigner<unknown, GlobalWindow> {
  private constructor() {
    super();
  }

  /** The assigner (its default trigger never fires). */
  static create(): GlobalWindows {
    return new GlobalWindows();
  }

  assignWindows(): GlobalWindow[] {
    return [GlobalWindow.get()];
  }

  getDefaultTrigger(): Trigger<unknown, GlobalWindow> {
    return new NeverTrigger();
  }

  isEventTime(): boolean {
    return false;
  }

  override toString(): string {
    return "GlobalWindows()";
  }
}
