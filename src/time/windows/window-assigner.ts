/**
 * Window assigners (Flink's WindowAssigner): put each record into zero or more
 * windows, name the default trigger, and say whether windows merge (sessions).
 */
import type { Trigger } from "./trigger.ts";
import type { Window } from "./window.ts";

/** What an assigner may ask about the operator. */
export interface WindowAssignerContext {
  /** Current processing time (ms) of the task. */
  currentProcessingTime(): number;
}

/**
 * Assigns records to windows.
 *
 * @example
 * ```ts
 * // every record into the 1 s window [ts - ts % 1000, … + 1000)
 * class MyTumbling extends WindowAssigner<unknown, TimeWindow> {
 *   assignWindows(_v: unknown, ts: number) { const s = ts - (ts % 1000); return [new TimeWindow(s, s + 1000)]; }
 *   getDefaultTrigger() { return EventTimeTrigger.create(); }
 *   isEventTime() { return true; }
 * }
 * ```
 */
export abstract class WindowAssigner<T, W extends Window> {
  /** The windows of a record with this timestamp (processing time for processing-time assigners). */
  abstract assignWindows(element: T, timestamp: number, context: WindowAssignerContext): W[];
  /** The trigger used unless `.trigger(...)` sets another. */
  abstract getDefaultTrigger(): Trigger<T, W>;
  /** True if windows are defined by event timestamps (lateness and watermarks apply). */
  abstract isEventTime(): boolean;
  /** Name shown in the operator's name. */
  toString(): string {
    return this.constructor.name;
  }
}

/** Called by {@link MergingWindowAssigner.mergeWindows} for each group of windows that become one. */
export type MergeCallback<W> = (toBeMerged: W[], mergeResult: W) => void;

/** An assigner whose windows merge when they overlap (session windows). */
export abstract class MergingWindowAssigner<T, W extends Window> extends WindowAssigner<T, W> {
  /** Reports every group (of two or more) of `windows` that merges into one window. */
  abstract mergeWindows(windows: readonly W[], callback: MergeCallback<W>): void;
}

/** True for assigners whose windows merge. */
export function isMergingAssigner<T, W extends Window>(a: WindowAssigner<T, W>): a is MergingWindowAssigner<T, W> {
  return a instanceof MergingWindowAssigner;
}

/** Rejects a size, slide or gap that is not a positive whole number of milliseconds. */
export function checkPositiveMs(what: string, ms: number): number {
  if (!Number.isInteger(ms) || ms <= 0) throw new RangeError(`${what} must be a whole number of milliseconds > 0, got ${ms}`);
  return ms;
}

/** Rejects an offset outside `[0, size)` (negative offsets count back from `size`, as in Flink: |offset| < size). */
export function checkOffset(offset: number, size: number): number {
  if (!Number.isInteger(offset) || Math.abs(offset) >= size)
    throw new RangeError(`window offset must be a whole number with |offset| < size (${size}), got ${offset}`);
  return offset;
}
