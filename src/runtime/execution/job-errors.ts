/** How a job ends when it does not finish. */

/** Thrown by `run()` (and the job client's result) when the job failed for good. */
export class JobFailedError extends Error {
  override name = "JobFailedError";
}

/** Thrown by `run()` (and the job client's result) when the job was cancelled. */
export class JobCancelledError extends Error {
  override name = "JobCancelledError";
}
