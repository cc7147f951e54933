/**
 * Sliding windows: windows of `size` ms starting every `slide` ms, so a record
 * belongs to `size / slide` windows (rounded up), on event or processing time.
 */
import { TimeWindowAssigner } from "./time-window-assigner.ts";

/** Windows of `size` ms every `slide` ms, shifted by `offset` ms (|offset| < slide). */
abstract class SlidingWindows extends TimeWindowAssigner {
  override toString(): string {
    return `${this.constructor.name}(${this.size}, ${this.slide})`;
  }
}

/**
 * Event-time sliding windows.
 *
 * @example
 * ```ts
 * // a 10 s average, updated every second
 * stream.keyBy((r) => r.sensor).window(SlidingEventTimeWindows.of(10_000, 1_000)).aggregate(average);
 * ```
 */
export class SlidingEventTimeWindows extends SlidingWindows {
  /** Windows of `size` ms every `slide` ms, shifted by `offset` ms (|offset| < slide). */
  static of(size: number, slide: number, offset = 0): SlidingEventTimeWindows {
    return new SlidingEventTimeWindows(true, size, slide, offset);
  }
}

/**
 * Processing-time sliding windows.
 *
 * @example
 * ```ts
 * stream.keyBy((r) => r.sensor).window(SlidingProcessingTimeWindows.of(10_000, 1_000)).sum("value");
 * ```
 */
export class SlidingProcessingTimeWindows extends SlidingWindows {
  /** Windows of `size` ms every `slide` ms, shifted by `offset` ms. */
  static of(size: number, slide: number, offset = 0): SlidingProcessingTimeWindows {
    return new SlidingProcessingTimeWindows(false, size, slide, offset);
  }
}
