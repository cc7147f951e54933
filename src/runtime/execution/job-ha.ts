/**
 * What a job master needs from a high-availability store (a cluster's job
 * manager under `high-availability.type: etcd`, docs/high-availability.md):
 * a checkpoint is complete only once committed there, the id counter lives
 * there (every id is reserved in it before its checkpoint is triggered), a
 * run restores what is committed there — never what the checkpoint storage
 * alone holds — and what it no longer holds may be deleted from storage.
 */
import type { CompletedCheckpoint } from "../../checkpoint/types.ts";

/**
 * The high-availability side of one job's checkpoints.
 *
 * @example
 * ```ts
 * const ha: JobHa = {
 *   latest: async () => null,                   // nothing committed yet: the job's own origin
 *   reserve: async (from, count) => from,       // ids from … from + count - 1 are the job's: the counter is past them
 *   commit: async (checkpoint) => {},           // rejects: the checkpoint is not complete
 *   committedIds: async () => [],               // what storage must keep below the newest committed checkpoint
 * };
 * const ids = await ReservedCheckpointIds.start({ from: 1, blockSize: 16, reserve: ha.reserve, onReserveFailed: log });
 * ```
 */
export interface JobHa {
  /** The newest committed checkpoint (its metadata read from storage), or null. */
  latest(): Promise<CompletedCheckpoint | null>;
  /**
   * Reserves `count` consecutive checkpoint ids, none below `from`, in the counter (raised past the last):
   * resolves with the first. Rejects when the counter could not be raised (a `FencingError`: the leadership is
   * over, and the leader steps down); then none of them may be used.
   */
  reserve(from: number, count: number): Promise<number>;
  /**
   * Commits `checkpoint` (its metadata is in storage, its id was reserved); the checkpoint is complete once
   * this resolves, failed when it rejects.
   */
  commit(checkpoint: CompletedCheckpoint): Promise<void>;
  /**
   * The ids of the checkpoints committed now, oldest first: after a commit of checkpoint N, storage may delete
   * every checkpoint below N not among them (`CheckpointStorage.retainOnly`). Rejects when this leadership is over
   * (a newer leader cleans up).
   */
  committedIds(): Promise<number[]>;
}
