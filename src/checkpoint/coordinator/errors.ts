/**
 * Typed errors of the checkpoint coordinator: why a checkpoint was aborted,
 * why one could not be triggered, and why the job must fail over.
 */

/**
 * Why a pending checkpoint was aborted.
 *
 * - `declined`: a task declined it (e.g. its state was too large for the storage).
 * - `expired`: it was not complete within `timeoutMs`.
 * - `store-failed`: every task acknowledged, but the completed-checkpoint store could not make it durable.
 * - `subsumed`: a newer checkpoint completed first.
 * - `shutdown`: the coordinator was shut down (e.g. job failover).
 * - `finished-tasks`: a task it was waiting for reached the end of its input.
 *
 * Only `declined`, `expired` and `store-failed` count as failures towards
 * `tolerableFailures`.
 */
export type CheckpointAbortReason = "declined" | "expired" | "store-failed" | "subsumed" | "shutdown" | "finished-tasks";

/** True for the abort reasons that are failures (and count towards the tolerable consecutive failures, except for savepoints). */
export function isFailureReason(reason: CheckpointAbortReason): boolean {
  return reason === "declined" || reason === "expired" || reason === "store-failed";
}

/**
 * A checkpoint was aborted before it completed. `triggerCheckpoint` rejects with it.
 *
 * @example
 * ```ts
 * try {
 *   await coordinator.triggerCheckpoint();
 * } catch (e) {
 *   if (e instanceof CheckpointAbortedError && e.reason === "expired") console.warn(e.message);
 * }
 * ```
 */
export class CheckpointAbortedError extends Error {
  override readonly name = "CheckpointAbortedError";

  /**
   * @param checkpointId - the aborted checkpoint.
   * @param reason - the kind of abort.
   * @param message - the full human-readable message (names the job, the checkpoint and, for a decline, the task).
   * @param cause - the underlying error, e.g. the store's rejection.
   */
  constructor(
    readonly checkpointId: number,
    readonly reason: CheckpointAbortReason,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/**
 * Why a checkpoint could not be triggered at all.
 *
 * - `finished-tasks`: some task has finished, so no barrier can pass through the whole graph any more.
 * - `shutdown`: the coordinator was shut down.
 */
export type CheckpointTriggerRejection = "finished-tasks" | "shutdown";

/** `triggerCheckpoint` was refused; no checkpoint id was used. */
export class CheckpointTriggerError extends Error {
  override readonly name = "CheckpointTriggerError";

  /**
   * @param reason - the kind of refusal.
   * @param message - the full human-readable message, naming the job.
   */
  constructor(
    readonly reason: CheckpointTriggerRejection,
    message: string,
  ) {
    super(message);
  }
}

/**
 * More consecutive checkpoints failed than `tolerableFailures` allows: the job
 * must fail over. Passed to the coordinator's `onFailure`; its message ends with
 * the last failure's message (e.g. the storage error that names the operator).
 */
export class TolerableCheckpointFailuresExceeded extends Error {
  override readonly name = "TolerableCheckpointFailuresExceeded";

  /**
   * @param jobName - the job whose checkpoints failed.
   * @param tolerableFailures - the configured number of tolerated consecutive failures.
   * @param consecutiveFailures - how many failed in a row.
   * @param lastFailure - the failure that exceeded the limit.
   */
  constructor(
    readonly jobName: string,
    readonly tolerableFailures: number,
    readonly consecutiveFailures: number,
    readonly lastFailure: CheckpointAbortedError,
  ) {
    super(
      `Job "${jobName}": ${consecutiveFailures} consecutive checkpoint failures exceed the tolerable ${tolerableFailures}; last failure: ${lastFailure.message}`,
      { cause: lastFailure },
    );
  }
}
