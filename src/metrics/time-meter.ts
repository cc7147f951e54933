/**
 * Milliseconds per second spent in a state (idle, backpressured): the task
 * marks when the state starts and ends; the time of a state still going on
 * counts up to the snapshot. The rate is capped at 1000 ms/s.
 *
 * @example
 * ```ts
 * const idle = new TimeMeter();
 * idle.start(performance.now());
 * await nothingToDo;
 * idle.stop(performance.now());
 * ```
 */
import { Meter } from "./meter.ts";
import { Counter } from "./counter.ts";

/** Window of time meters: like Flink's busy/idle/backpressure gauges, they show the last few seconds. */
export const TIME_METER_WINDOW_MS = 5_000;

export class TimeMeter extends Meter {
  /** Start of the state going on, or -1. */
  private since = -1;

  constructor(windowMs = TIME_METER_WINDOW_MS) {
    super(new Counter(), windowMs);
  }

  /** The state starts at `nowMs` (no-op while it goes on). */
  start(nowMs: number): void {
    if (this.since < 0) this.since = nowMs;
  }

  /** The state ends at `nowMs`. */
  stop(nowMs: number): void {
    if (this.since < 0) return;
    this.counter.count += nowMs - this.since;
    this.since = -1;
  }

  override update(nowMs: number): number {
    if (this.since >= 0) {
      this.counter.count += nowMs - this.since;
      this.since = nowMs;
    }
    return Math.min(1000, super.update(nowMs));
  }

  override getRate(): number {
    return Math.min(1000, super.getRate());
  }
}
