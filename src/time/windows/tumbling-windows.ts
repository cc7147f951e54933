/**
 * Tumbling windows: fixed-size, non-overlapping windows aligned to the epoch
 * (plus an optional offset), on event time or processing time.
 */
import { TimeWindowAssigner } from "./time-window-assigner.ts";

/** Windows of `size` ms (shifted by `offset`): a time `t` falls in `[t - (t - offset) % size, … + size)`. */
abstract class TumblingWindows extends TimeWindowAssigner {
  override toString(): string {
    return `${this.constructor.name}(${this.size})`;
  }
}

/**
 * Event-time tumbling windows: a record goes to the window of its timestamp.
 *
 * @example
 * ```ts
 * stream.keyBy((e) => e.user).window(TumblingEventTimeWindows.of(60_000)).sum("clicks");
 * ```
 */
export class TumblingEventTimeWindows extends TumblingWindows {
  /** Windows of `size` ms, shifted by `offset` ms (e.g. a time zone). */
  static of(size: number, offset = 0): TumblingEventTimeWindows {
    return new TumblingEventTimeWindows(true, size, size, offset);
  }
}

/**
 * Processing-time tumbling windows: a record goes to the window that contains
 * the task's processing time when it arrives.
 *
 * @example
 * ```ts
 * stream.keyBy((e) => e.user).window(TumblingProcessingTimeWindows.of(1_000)).reduce((a, b) => a + b);
 * ```
 */
export class TumblingProcessingTimeWindows extends TumblingWindows {
  /** Windows of `size` ms, shifted by `offset` ms. */
  static of(size: number, offset = 0): TumblingProcessingTimeWindows {
    return new TumblingProcessingTimeWindows(false, size, size, offset);
  }
}
