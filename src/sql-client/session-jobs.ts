/**
 * The jobs an interactive SQL session started with INSERT or `EXECUTE
 * STATEMENT SET`: they run in the background while the session goes on,
 * listed by `SHOW JOBS` and stopped by `STOP JOB` (Flink's SQL client).
 */
import type { JobClient } from "../deploy/job-client.ts";
import type { JobStatus } from "../runtime/execution/job-master.ts";

/** A job of the session. */
export interface SessionJob {
  readonly client: JobClient;
  readonly startTime: Date;
  /** Set when the job ended: its final status, or the reason it failed. */
  ended?: { status: JobStatus | "STOPPED"; error?: string };
  /** Set by `STOP JOB`, which reports the stop itself. */
  stopping?: boolean;
}

/**
 * @example
 * ```ts
 * const jobs = new SessionJobs();
 * jobs.add(client);
 * jobs.rows(); // [[id, name, "RUNNING", "2024-01-01T10:00:00.000Z"]]
 * ```
 */
export class SessionJobs {
  private readonly jobs = new Map<string, SessionJob>();

  /**
   * Adds a started job; `onEnd` hears how it ended (to tell the user), except
   * when `STOP JOB` ended it as asked (cancelled or stopped with a savepoint):
   * the stop reports that itself.
   */
  add(client: JobClient, onEnd?: (job: SessionJob) => void): SessionJob {
    const job: SessionJob = { client, startTime: new Date() };
    this.jobs.set(client.getJobId(), job);
    const ended = (e: SessionJob["ended"] & object) => {
      job.ended = e;
      if (!(job.stopping && (e.status === "STOPPED" || e.status === "CANCELED"))) onEnd?.(job);
    };
    client.getJobExecutionResult().then(
      (r) => ended({ status: r.savepointPath === null ? "FINISHED" : "STOPPED" }),
      (e: Error) => ended({ status: client.getJobStatus(), error: e.message.split("\n")[0] }),
    );
    return job;
  }

  /** The job of `id` (or of a unique prefix of it), or undefined. */
  get(id: string): SessionJob | undefined {
    const exact = this.jobs.get(id);
    if (exact) return exact;
    const matches = [...this.jobs.entries()].filter(([k]) => id.length > 0 && k.startsWith(id));
    return matches.length === 1 ? matches[0]![1] : undefined;
  }

  /** The status SHOW JOBS shows. */
  status(job: SessionJob): string {
    return job.ended?.status ?? job.client.getJobStatus();
  }

  /** Rows of SHOW JOBS: id, name, status, start time; oldest first. */
  rows(): [string, string, string, string][] {
    return [...this.jobs.values()].map((j) => [j.client.getJobId(), j.client.jobName, this.status(j), j.startTime.toISOString()]);
  }

  /** The jobs still running. */
  running(): SessionJob[] {
    return [...this.jobs.values()].filter((j) => !j.ended);
  }
}
