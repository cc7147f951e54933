/**
 * Counts consecutive failed checkpoints against `tolerableFailures` (Flink's
 * `CheckpointFailureManager`). Pure bookkeeping: no I/O, no time.
 */
import { CheckpointAbortedError, TolerableCheckpointFailuresExceeded } from "./errors.ts";

/**
 * Tracks consecutive checkpoint failures of one job.
 *
 * @example
 * ```ts
 * const counter = new TolerableFailureCounter("wc", 1);
 * counter.recordFailure(err1); // undefined: 1 failure is tolerated
 * counter.recordFailure(err2); // TolerableCheckpointFailuresExceeded
 * ```
 */
export class TolerableFailureCounter {
  private consecutive = 0;

  /**
   * @param jobName - named in the error message.
   * @param tolerableFailures - consecutive failures tolerated; one more fails the job.
   */
  constructor(
    private readonly jobName: string,
    private readonly tolerableFailures: number,
  ) {}

  /** Consecutive failures since the last success (or the last exceeded limit). */
  get consecutiveFailures(): number {
    return this.consecutive;
  }

  /**
   * Records a failure. Returns the error to fail the job with when the limit is
   * exceeded (and starts counting afresh), otherwise undefined.
   */
  recordFailure(failure: CheckpointAbortedError): TolerableCheckpointFailuresExceeded | undefined {
    this.consecutive++;
    if (this.consecutive <= Math.max(0, this.tolerableFailures)) return undefined;
    const error = new TolerableCheckpointFailuresExceeded(this.jobName, this.tolerableFailures, this.consecutive, failure);
    this.consecutive = 0;
    return error;
  }

  /** A checkpoint completed: the failures are no longer consecutive. */
  recordSuccess(): void {
    this.consecutive = 0;
  }
}
