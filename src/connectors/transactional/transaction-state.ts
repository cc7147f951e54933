/**
 * What a two-phase-commit sink keeps in operator state, and the pure decisions
 * made on it: which pending transactions a notification commits, and which
 * restored records a subtask is responsible for after a (maybe rescaled) restore.
 */

/** A pre-committed transaction waiting for its checkpoint to complete. */
export interface PendingTransaction<TXN> {
  /** The checkpoint whose barrier pre-committed it. */
  readonly checkpointId: number;
  readonly txn: TXN;
}

/**
 * The state of one subtask of a two-phase-commit sink, stored as the single
 * element this subtask adds to a union list state (so after a rescale every new
 * subtask sees every old subtask's record).
 */
export interface TransactionStateRecord<TXN, CTX> {
  /** Subtask index of the writer that snapshotted this record. */
  readonly subtask: number;
  /** Pre-committed transactions not yet known to be committed, oldest first. */
  readonly pending: readonly PendingTransaction<TXN>[];
  /** The transaction that was open after the barrier (begun, nothing pre-committed). */
  readonly current: TXN | null;
  /** The sink's own per-subtask data (see `TwoPhaseCommitSink.initializeUserContext`). */
  readonly userContext: CTX;
}

/**
 * The checkpoint ids of `pending` that a notification for `completedId`
 * commits: every id ≤ `completedId` (a completed checkpoint subsumes older
 * ones, so skipped or late notifications lose nothing), ascending.
 *
 * @example
 * ```ts
 * idsToCommit([3, 1, 2, 5], 3); // [1, 2, 3]
 * ```
 */
export function idsToCommit(pending: Iterable<number>, completedId: number): number[] {
  return [...pending].filter((id) => id <= completedId).sort((a, b) => a - b);
}

/**
 * True when the old subtask `oldSubtask` is in the care of the new subtask
 * `subtask` out of `parallelism`: old index modulo the new parallelism. Every
 * old index has exactly one caretaker, and a subtask always cares for its own
 * index, so work on restored transactions is done once and leftovers of
 * subtask indexes that no longer exist are still handled.
 *
 * @example
 * ```ts
 * caresFor(0, 1, 3); // true: old subtask 3 of a larger job, new parallelism 3
 * ```
 */
export function caresFor(subtask: number, parallelism: number, oldSubtask: number): boolean {
  return oldSubtask % parallelism === subtask;
}
