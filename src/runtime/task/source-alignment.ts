/**
 * A source task's side of watermark alignment (Flink's FLIP-182): it reports
 * the source's watermark to the job master when it changed (at most once per
 * update interval), hears the lowest watermarks of the source's alignment
 * group that the job master announces, and tells the task to pause reading
 * while the source's watermark is more than the allowed drift ahead of the
 * lowest of the group's other subtasks. Not of all of them: the subtask that
 * holds the lowest would otherwise pause behind its own report, which is older
 * than its watermark.
 *
 * A source without a watermark yet reads (and reports nothing); once it has
 * one it waits for the first announcement, which comes when every subtask of
 * the group has a watermark (the job master knows them all from the start).
 * An idle source reports the maximum watermark, so it holds no other source
 * back (give a source whose splits may stay empty `withIdleness`); a finished
 * one leaves its group (the job master drops it).
 */
import type { Clock } from "../../util/clock.ts";
import type { WatermarkAlignmentParams } from "../../time/watermark-strategy.ts";

/** What the job master announces of an alignment group: its lowest watermark, the subtask that reported it, and the lowest of the others. */
export interface GroupLowest {
  readonly lowest: number;
  /** The task id of the subtask at `lowest` ("" when the group is empty). */
  readonly lowestTask: string;
  /** The lowest watermark of the other subtasks (+Infinity when there is none). */
  readonly second: number;
}

/**
 * @example
 * ```ts
 * const a = new SourceAlignment({ group: "bids", maxAllowedDriftMs: 1_000, updateIntervalMs: 100 }, "src#1", report, clock);
 * a.update(5_000);  // reports 5 000 to the job master
 * a.announce("bids", { lowest: 3_000, lowestTask: "src#0", second: 5_000 });
 * a.paused(5_000);  // true: 2 000 ms ahead of src#0, 1 000 allowed
 * ```
 */
export class SourceAlignment {
  /** The lowest watermark of the group's other subtasks, as last announced (none yet: waits at its first watermark). */
  private othersLowest = Number.NEGATIVE_INFINITY;
  private reported: number | undefined;
  private nextReportAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly params: WatermarkAlignmentParams,
    private readonly taskId: string,
    private readonly report: (group: string, watermark: number) => void,
    private readonly clock: Clock,
  ) {}

  /** The job master announced the lowest watermarks of `group`. */
  announce(group: string, lowest: GroupLowest): void {
    if (group === this.params.group) this.othersLowest = lowest.lowestTask === this.taskId ? lowest.second : lowest.lowest;
  }

  /** Reports `watermark` (the source's current one) if it changed since the last report and a report is due. */
  update(watermark: number): void {
    if (watermark === this.reported || watermark === Number.NEGATIVE_INFINITY) return;
    const now = this.clock.now();
    if (now < this.nextReportAt) return;
    this.reported = watermark;
    this.nextReportAt = now + this.params.updateIntervalMs;
    this.report(this.params.group, watermark);
  }

  /** Whether a source at `watermark` must stop reading: it is too far ahead of its group. */
  paused(watermark: number): boolean {
    return watermark > this.othersLowest + this.params.maxAllowedDriftMs;
  }

  /** Milliseconds until `watermark`, not reported yet, may be (undefined: it was reported, or there is none). */
  reportDueInMs(watermark: number): number | undefined {
    return watermark === this.reported || watermark === Number.NEGATIVE_INFINITY ? undefined : Math.max(0, this.nextReportAt - this.clock.now());
  }
}
