/**
 * Triggers (Flink's Trigger): decide when a window's contents are emitted
 * (FIRE) and when they are discarded (PURGE), on each record, on event-time
 * and processing-time timers, and when session windows merge.
 */
import type { ReducingState, ReducingStateDescriptor, ValueState, ValueStateDescriptor } from "../../state/index.ts";
import type { Window } from "./window.ts";

/** What a trigger decides for its window. */
export const TriggerResult = {
  /** Do nothing. */
  CONTINUE: "CONTINUE",
  /** Emit the window's result; keep its contents. */
  FIRE: "FIRE",
  /** Discard the window's contents without emitting. */
  PURGE: "PURGE",
  /** Emit, then discard the contents. */
  FIRE_AND_PURGE: "FIRE_AND_PURGE",
} as const;

/** One of {@link TriggerResult}'s values. */
export type TriggerResult = (typeof TriggerResult)[keyof typeof TriggerResult];

/** True for FIRE and FIRE_AND_PURGE. */
export function isFire(r: TriggerResult): boolean {
  return r === "FIRE" || r === "FIRE_AND_PURGE";
}

/** True for PURGE and FIRE_AND_PURGE. */
export function isPurge(r: TriggerResult): boolean {
  return r === "PURGE" || r === "FIRE_AND_PURGE";
}

/**
 * State scoped to the current key and window (Flink's partitioned state of a
 * trigger or of a ProcessWindowFunction's `windowState()`).
 */
export interface WindowStateStore {
  /** A value per key and window. */
  getPartitionedState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T>;
  /** A reducing value per key and window (mergeable when session windows merge). */
  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T>;
}

/** What a trigger may do for the current key and window. */
export interface TriggerContext extends WindowStateStore {
  getCurrentProcessingTime(): number;
  getCurrentWatermark(): number;
  /** Calls `onEventTime` when the watermark reaches `time` (for this key and window). */
  registerEventTimeTimer(time: number): void;
  /** Calls `onProcessingTime` when processing time reaches `time`. */
  registerProcessingTimeTimer(time: number): void;
  deleteEventTimeTimer(time: number): void;
  deleteProcessingTimeTimer(time: number): void;
}

/** The context of {@link Trigger.onMerge}: also merges the merged windows' reducing state into the new window. */
export interface OnMergeContext extends TriggerContext {
  mergePartitionedState<T>(descriptor: ReducingStateDescriptor<T>): void;
}

/**
 * Decides when a window fires. Subclass it for custom triggers; keep state in
 * `ctx.getPartitionedState(...)` / `ctx.getReducingState(...)` (checkpointed,
 * per key and window) and clean up in `clear`.
 *
 * @example
 * ```ts
 * // fire on every record whose value exceeds 100, and at the end of the window
 * class Alert extends Trigger<{ v: number }, TimeWindow> {
 *   onElement(e: { v: number }, _ts: number, w: TimeWindow, ctx: TriggerContext) {
 *     ctx.registerEventTimeTimer(w.maxTimestamp());
 *     return e.v > 100 ? TriggerResult.FIRE : TriggerResult.CONTINUE;
 *   }
 *   onEventTime(t: number, w: TimeWindow) { return t === w.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE; }
 *   onProcessingTime() { return TriggerResult.CONTINUE; }
 *   clear(w: TimeWindow, ctx: TriggerContext) { ctx.deleteEventTimeTimer(w.maxTimestamp()); }
 * }
 * ```
 */
export abstract class Trigger<T, W extends Window> {
  /** Called for every record added to `window`. */
  abstract onElement(element: T, timestamp: number, window: W, ctx: TriggerContext): TriggerResult;
  /** An event-time timer of this key and window fired. */
  abstract onEventTime(time: number, window: W, ctx: TriggerContext): TriggerResult;
  /** A processing-time timer of this key and window fired. */
  abstract onProcessingTime(time: number, window: W, ctx: TriggerContext): TriggerResult;
  /** True if the trigger supports merging windows (session windows). */
  canMerge(): boolean {
    return false;
  }
  /** Windows merged into `window`: re-register timers and merge state. */
  onMerge(window: W, _ctx: OnMergeContext): void {
    throw new Error(`trigger ${this.toString()} does not support merging windows (${String(window)})`);
  }
  /** The window is removed: delete its timers and state. */
  clear(_window: W, _ctx: TriggerContext): void {}
  toString(): string {
    return this.constructor.name;
  }
}
