/**
 * Progress and summary of a job started by `weir run`: the live line on a
 * terminal, progress log lines elsewhere, the note that a job had already
 * finished, and the summary line at the end. The job is one of this process
 * (its job client) or one followed on a cluster through its REST API
 * (`weir run -m`).
 */
import type { JobClient } from "../deploy/job-client.ts";
import { currentLogSettings, getLogger } from "../util/logger.ts";
import { ProgressLine } from "./progress-line.ts";
import { progressLineText, progressLogText, snapshotFields, snapshotOf, summaryText, type JobSnapshot, type RunOutcome } from "./job-report.ts";

/** What the report reads of a job. */
export interface ReportedJob {
  readonly jobName: string;
  /** The job now. */
  snapshot(): JobSnapshot;
  /** Settles when the job ended (the progress stops then). */
  readonly ended: Promise<unknown>;
  /** The checkpoint or savepoint the job restored, if any. */
  restoredCheckpoint(): { readonly checkpointId: number; readonly savepoint: boolean; readonly directory?: string } | null;
}

/**
 * A job of this process, for {@link RunReport}.
 *
 * @example
 * ```ts
 * const report = new RunReport(localJob(client));
 * ```
 */
export function localJob(client: JobClient): ReportedJob {
  return {
    jobName: client.jobName,
    snapshot: () => snapshotOf(client),
    ended: client.getJobExecutionResult(),
    restoredCheckpoint: () => client.getRestoredCheckpoint(),
  };
}

/** Interval of the progress log lines when standard error is not a terminal. */
const PROGRESS_LOG_MS = 30_000;

/**
 * Progress and summary of the started job: a live line on a terminal (text
 * logs), else a progress log line every 30 s; the progress ends with the job,
 * before the job module goes on with its result.
 */
export class RunReport {
  private readonly startedAt = performance.now();
  private endedAt: number | undefined;
  private progress: ProgressLine | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly job: ReportedJob) {
    let prev = job.snapshot();
    if (process.stderr.isTTY && currentLogSettings().format === "text") {
      this.progress = new ProgressLine(process.stderr, () => {
        const cur = job.snapshot();
        const text = progressLineText(job.jobName, prev, cur);
        prev = cur;
        return text;
      });
      this.progress.guard(process.stderr);
      if (process.stdout.isTTY) this.progress.guard(process.stdout);
      this.progress.start();
    } else {
      this.timer = setInterval(() => {
        const cur = job.snapshot();
        getLogger().info(snapshotFields(cur), progressLogText(prev, cur));
        prev = cur;
      }, PROGRESS_LOG_MS);
      this.timer.unref();
    }
    const ended = () => {
      this.endedAt = performance.now();
      this.stopProgress();
    };
    job.ended.then(ended, ended);
  }

  stopProgress(): void {
    this.progress?.stop();
    this.progress = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * A finished job that resumed from a checkpoint, whose sources read nothing and
   * whose sinks wrote nothing: it had already finished (it restored its final
   * checkpoint). Says so.
   */
  noteAlreadyFinished(): void {
    const from = this.job.restoredCheckpoint();
    const s = this.job.snapshot();
    if (!from || s.restarts > 0 || s.recordsIn > 0 || s.recordsOut > 0) return;
    const what = `${from.savepoint ? "savepoint" : "checkpoint"} ${from.checkpointId}${from.directory ? ` from ${from.directory}` : ""}`;
    getLogger().info(
      { alreadyFinished: true, checkpointId: from.checkpointId },
      `job '${this.job.jobName}' already finished: restored ${what}, where its sources had read all their input; ` +
        "nothing left to process. Start over with --fresh",
    );
  }

  /** Logs the summary line (error level when the job failed). */
  summary(outcome: RunOutcome, exitCode: number): void {
    const s = this.job.snapshot();
    const durationMs = (this.endedAt ?? performance.now()) - this.startedAt;
    const fields = { summary: true, job: this.job.jobName, outcome, exitCode, durationMs: Math.round(durationMs), ...snapshotFields(s) };
    const text = summaryText(this.job.jobName, outcome, exitCode, durationMs, s);
    if (outcome === "failed") getLogger().error(fields, text);
    else getLogger().info(fields, text);
  }
}
