/**
 * A source task's side of watermark alignment (Flink's FLIP-182): it reports
 * the source's watermark to the job master when it changed (at most once per
 * update interval), hears the lowest watermark of the source's alignment group
 * that the job master announces, and tells the task to pause reading while the
 * source's watermark is more than the allowed drift ahead of that.
 *
 * Until the first announcement the source reads (nothing is known to be
 * behind it). An idle source reports the maximum watermark, so it holds no
 * other source back; a finished one leaves its group (the job master drops it).
 */
import type { Clock } from "../../util/clock.ts";
import type { WatermarkAlignmentParams } from "../../time/watermark-strategy.ts";

/**
 * @example
 * ```ts
 * const a = new SourceAlignment({ group: "bids", maxAllowedDriftMs: 1_000, updateIntervalMs: 100 }, report, clock);
 * a.update(5_000);          // reports 5 000 to the job master
 * a.announce("bids", 3_000);
 * a.paused(5_000);          // true: 2 000 ms ahead of the group's lowest, 1 000 allowed
 * ```
 */
export class SourceAlignment {
  /** The group's lowest watermark as last announced (reads on until the first announcement). */
  private groupMin = Number.POSITIVE_INFINITY;
  private reported: number | undefined;
  private nextReportAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly params: WatermarkAlignmentParams,
    private readonly report: (group: string, watermark: number) => void,
    private readonly clock: Clock,
  ) {}

  /** The job master announced `minWatermark` as the lowest of `group`. */
  announce(group: string, minWatermark: number): void {
    if (group === this.params.group) this.groupMin = minWatermark;
  }

  /** Reports `watermark` (the source's current one) if it changed since the last report and a report is due. */
  update(watermark: number): void {
    if (watermark === this.reported) return;
    const now = this.clock.now();
    if (now < this.nextReportAt) return;
    this.reported = watermark;
    this.nextReportAt = now + this.params.updateIntervalMs;
    this.report(this.params.group, watermark);
  }

  /** Whether a source at `watermark` must stop reading: it is too far ahead of its group. */
  paused(watermark: number): boolean {
    return watermark > this.groupMin + this.params.maxAllowedDriftMs;
  }

  /** Milliseconds until `watermark`, not reported yet, may be (undefined: it was reported). */
  reportDueInMs(watermark: number): number | undefined {
    return watermark === this.reported ? undefined : Math.max(0, this.nextReportAt - this.clock.now());
  }
}
