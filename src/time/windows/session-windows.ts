/**
 * Session windows: a record opens the window `[ts, ts + gap)`; windows of one
 * key that overlap merge into one session (with their state and timers), so a
 * session ends after `gap` ms without records. On event or processing time.
 */
import { EventTimeTrigger } from "./event-time-trigger.ts";
import { ProcessingTimeTrigger } from "./processing-time-trigger.ts";
import type { Trigger } from "./trigger.ts";
import { TimeWindow } from "./window.ts";
import { checkPositiveMs, type MergeCallback, MergingWindowAssigner, type WindowAssignerContext } from "./window-assigner.ts";

/** The gap of a record's session (ms, > 0), for dynamic gaps. */
export type SessionGapExtractor<T> = (element: T) => number;

/**
 * Merges overlapping (or touching) time windows: reports each group of two or
 * more with the window covering it (Flink's `TimeWindow.mergeWindows`).
 */
export function mergeTimeWindows(windows: readonly TimeWindow[], callback: MergeCallback<TimeWindow>): void {
  const sorted = [...windows].sort((a, b) => a.start - b.start || a.end - b.end);
  let current: { cover: TimeWindow; members: TimeWindow[] } | null = null;
  const groups: { cover: TimeWindow; members: TimeWindow[] }[] = [];
  for (const w of sorted) {
    if (current && current.cover.intersects(w)) {
      current.cover = current.cover.cover(w);
      current.members.push(w);
    } else {
      current = { cover: w, members: [w] };
      groups.push(current);
    }
  }
  for (const g of groups) if (g.members.length > 1) callback(g.members, g.cover);
}

function gapOf<T>(gap: number | SessionGapExtractor<T>, element: T): number {
  if (typeof gap === "number") return gap;
  const g = gap(element);
  if (!(Number.isFinite(g) && g > 0)) throw new RangeError(`a dynamic session gap must be > 0 ms, got ${g} for ${JSON.stringify(element)}`);
  return g;
}

/**
 * Event-time session windows.
 *
 * @example
 * ```ts
 * clicks.keyBy((c) => c.user).window(EventTimeSessionWindows.withGap(30 * 60_000)).process(new SessionSummary());
 * ```
 */
export class EventTimeSessionWindows<T = unknown> extends MergingWindowAssigner<T, TimeWindow> {
  private constructor(private readonly gap: number | SessionGapExtractor<T>) {
    super();
  }

  /** Sessions that end after `gap` ms without records. */
  static withGap(gap: number): EventTimeSessionWindows {
    return new EventTimeSessionWindows(checkPositiveMs("session gap", gap));
  }

  /** Sessions whose gap is computed per record. */
  static withDynamicGap<T>(extractor: SessionGapExtractor<T>): EventTimeSessionWindows<T> {
    return new EventTimeSessionWindows<T>(extractor);
  }

  assignWindows(element: T, timestamp: number): TimeWindow[] {
    return [new TimeWindow(timestamp, timestamp + gapOf(this.gap, element))];
  }

  mergeWindows(windows: readonly TimeWindow[], callback: MergeCallback<TimeWindow>): void {
    mergeTimeWindows(windows, callback);
  }

  getDefaultTrigger(): Trigger<T, TimeWindow> {
    return EventTimeTrigger.create();
  }

  isEventTime(): boolean {
    return true;
  }

  override toString(): string {
    return `EventTimeSessionWindows(${typeof this.gap === "number" ? this.gap : "dynamic"})`;
  }
}

/**
 * Processing-time session windows.
 *
 * @example
 * ```ts
 * stream.keyBy((e) => e.user).window(ProcessingTimeSessionWindows.withGap(5_000)).reduce(merge);
 * ```
 */
export class ProcessingTimeSessionWindows<T = unknown> extends MergingWindowAssigner<T, TimeWindow> {
  private constructor(private readonly gap: number | SessionGapExtractor<T>) {
    super();
  }

  /** Sessions that end after `gap` ms of processing time without records. */
  static withGap(gap: number): ProcessingTimeSessionWindows {
    return new ProcessingTimeSessionWindows(checkPositiveMs("session gap", gap));
  }

  /** Sessions whose gap is computed per record. */
  static withDynamicGap<T>(extractor: SessionGapExtractor<T>): ProcessingTimeSessionWindows<T> {
    return new ProcessingTimeSessionWindows<T>(extractor);
  }

  assignWindows(element: T, _timestamp: number, context: WindowAssignerContext): TimeWindow[] {
    const now = context.currentProcessingTime();
    return [new TimeWindow(now, now + gapOf(this.gap, element))];
  }

  mergeWindows(windows: readonly TimeWindow[], callback: MergeCallback<TimeWindow>): void {
    mergeTimeWindows(windows, callback);
  }

  getDefaultTrigger(): Trigger<T, TimeWindow> {
    return ProcessingTimeTrigger.create();
  }

  isEventTime(): boolean {
    return false;
  }

  override toString(): string {
    return `ProcessingTimeSessionWindows(${typeof this.gap === "number" ? this.gap : "dynamic"})`;
  }
}
