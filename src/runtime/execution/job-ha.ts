/**
 * What a job master needs from a high-availability store (a cluster's job
 * manager under `high-availability.type: etcd`, docs/high-availability.md):
 * a checkpoint is complete only once committed there, the id counter lives
 * there, and a run restores what is committed there — never what the
 * checkpoint storage alone holds.
 */
import type { CompletedCheckpoint } from "../../checkpoint/types.ts";

/**
 * The high-availability side of one job's checkpoints.
 *
 * @example
 * ```ts
 * const ha: JobHa = {
 *   latest: async () => null,                 // nothing committed yet: the job's own origin
 *   reserveFrom: async (next) => next,        // the first id of an attempt, raised in the counter
 *   commit: async (checkpoint) => {},         // rejects: the checkpoint is not complete
 * };
 * ```
 */
export interface JobHa {
  /** The newest committed checkpoint (its metadata read from storage), or null. */
  latest(): Promise<CompletedCheckpoint | null>;
  /** Raises the id counter so no id below `next` is used again; resolves with the first id the attempt uses (≥ `next`). */
  reserveFrom(next: number): Promise<number>;
  /** Commits `checkpoint` (its metadata is in storage); the checkpoint is complete once this resolves, failed when it rejects. */
  commit(checkpoint: CompletedCheckpoint): Promise<void>;
}
