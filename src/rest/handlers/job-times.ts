/**
 * A job's start, end and duration in Flink's terms: start is when it was
 * launched (CREATED), end when it reached a terminal status (-1 before).
 */
import type { JobClient } from "../../deploy/job-client.ts";

/** Epoch ms of launch, of the end (-1 while running), the duration so far, and the last status change. */
export interface JobTimes {
  readonly start: number;
  readonly end: number;
  readonly duration: number;
  readonly lastModification: number;
}

const TERMINAL = ["FINISHED", "FAILED", "CANCELED"] as const;

/** The times of `job` at epoch ms `now`. */
export function jobTimes(job: JobClient, now: number): JobTimes {
  const timestamps = job.getStatusTimestamps();
  const start = timestamps.CREATED ?? now;
  const status = job.getJobStatus();
  const end = (TERMINAL as readonly string[]).includes(status) ? (timestamps[status] ?? now) : -1;
  const lastModification = Math.max(start, ...Object.values(timestamps).filter((t): t is number => t !== undefined));
  return { start, end, duration: (end === -1 ? now : end) - start, lastModification };
}
