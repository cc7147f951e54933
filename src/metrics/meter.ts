/**
 * Events per second over a time window (Flink's MeterView): events are counted
 * in a plain counter; the rate is computed only when a snapshot is taken, from
 * the counts seen at earlier snapshots within the window. Until the window is
 * full, the rate is over the time seen so far.
 *
 * @example
 * ```ts
 * const requests = group.meter("requests");
 * requests.markEvent();
 * requests.getRate(); // per second, as of the last snapshot
 * ```
 */
import { Counter } from "./counter.ts";

/** Default window of a meter (Flink's MeterView: 60 s). */
export const DEFAULT_METER_WINDOW_MS = 60_000;

/** Samples closer than this are not kept (snapshots may come every few ms). */
const MIN_SAMPLE_GAP_MS = 200;

export class Meter {
  /** Sample times (ms) and the counts at them, oldest first. */
  private readonly times: number[] = [];
  private readonly counts: number[] = [];
  private rate = 0;

  /**
   * @param counter the events; shared with a counter metric when both are reported (numRecordsIn and numRecordsInPerSecond)
   * @param windowMs the time span of the rate
   */
  constructor(
    readonly counter: Counter = new Counter(),
    private readonly windowMs = DEFAULT_METER_WINDOW_MS,
  ) {}

  markEvent(n = 1): void {
    this.counter.count += n;
  }

  getCount(): number {
    return this.counter.count;
  }

  /** The rate per second as of the last `update`. */
  getRate(): number {
    return this.rate;
  }

  /** Computes the rate at `nowMs` (called when a snapshot is taken). */
  update(nowMs: number): number {
    const count = this.counter.count;
    const times = this.times;
    // keep one sample at or before the window's start, so the rate spans the whole window
    while (times.length > 1 && times[1]! <= nowMs - this.windowMs) {
      times.shift();
      this.counts.shift();
    }
    if (times.length > 0 && nowMs > times[0]!) this.rate = ((count - this.counts[0]!) * 1000) / (nowMs - times[0]!);
    if (times.length === 0 || nowMs - times[times.length - 1]! >= MIN_SAMPLE_GAP_MS) {
      times.push(nowMs);
      this.counts.push(count);
    }
    return this.rate;
  }
}
