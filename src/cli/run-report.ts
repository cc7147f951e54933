/**
 * Progress and summary of a job started by `weir run`: the live line on a
 * terminal, progress log lines elsewhere, the note that a job had already
 * finished, and the summary line at the end.
 */
import type { JobClient } from "../deploy/job-client.ts";
import { currentLogSettings, getLogger } from "../util/logger.ts";
import { ProgressLine } from "./progress-line.ts";
import { progressLineText, progressLogText, snapshotFields, snapshotOf, summaryText, type RunOutcome } from "./job-report.ts";

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

  constructor(private readonly client: JobClient) {
    let prev = snapshotOf(client);
    if (process.stderr.isTTY && currentLogSettings().format === "text") {
      this.progress = new ProgressLine(process.stderr, () => {
        const cur = snapshotOf(client);
        const text = progressLineText(client.jobName, prev, cur);
        prev = cur;
        return text;
      });
      this.progress.guard(process.stderr);
      if (process.stdout.isTTY) this.progress.guard(process.stdout);
      this.progress.start();
    } else {
      this.timer = setInterval(() => {
        const cur = snapshotOf(client);
        getLogger().info(snapshotFields(cur), progressLogText(prev, cur));
        prev = cur;
      }, PROGRESS_LOG_MS);
      this.timer.unref();
    }
    const ended = () => {
      this.endedAt = performance.now();
      this.stopProgress();
    };
    client.getJobExecutionResult().then(ended, ended);
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
    const from = this.client.getRestoredCheckpoint();
    const s = snapshotOf(this.client);
    if (!from || s.restarts > 0 || s.recordsIn > 0 || s.recordsOut > 0) return;
    const what = `${from.savepoint ? "savepoint" : "checkpoint"} ${from.checkpointId}${from.directory ? ` from ${from.directory}` : ""}`;
    getLogger().info(
      { alreadyFinished: true, checkpointId: from.checkpointId },
      `job '${this.client.jobName}' already finished: restored ${what}, where its sources had read all their input; ` +
        "nothing left to process. Start over with --fresh",
    );
  }

  /** Logs the summary line (error level when the job failed). */
  summary(outcome: RunOutcome, exitCode: number): void {
    const s = snapshotOf(this.client);
    const durationMs = (this.endedAt ?? performance.now()) - this.startedAt;
    const fields = { summary: true, job: this.client.jobName, outcome, exitCode, durationMs: Math.round(durationMs), ...snapshotFields(s) };
    const text = summaryText(this.client.jobName, outcome, exitCode, durationMs, s);
    if (outcome === "failed") getLogger().error(fields, text);
    else getLogger().info(fields, text);
  }
}
