/**
 * The contract shared by the two checkpoint storages (jobmanager, filesystem).
 */
import type { CompletedCheckpoint, StateHandle } from "../types.ts";

/**
 * Where checkpoint state and metadata go. One instance lives in the
 * coordinator (addCompleted, discardAborted, latestCompleted, …) and one in
 * each task worker (writeState, readState), all created from the same
 * serializable `CheckpointStorageConfig` by `createCheckpointStorage`; they
 * share nothing in memory.
 */
export interface CheckpointStorage {
  /**
   * Task side: persist one operator subtask's serialized state for checkpoint
   * `checkpointId` and return the handle to acknowledge. Jobmanager: an
   * inline handle carrying the bytes, or `StateSizeLimitExceededError` over
   * the limit. Filesystem: `<dir>/chk-<id>/<safe-uid>-<subtask>.state`,
   * written atomically and durably.
   */
  writeState(checkpointId: number, operatorUid: string, subtaskIndex: number, bytes: Uint8Array): Promise<StateHandle>;

  /**
   * Task side, on restore: the bytes of `handle` (one of `checkpoint.states`),
   * after checking size and CRC; `CorruptCheckpointError` naming the file otherwise.
   */
  readState(checkpoint: CompletedCheckpoint, handle: StateHandle): Promise<Uint8Array>;

  /**
   * Coordinator side: make `checkpoint` durable and the latest, then apply
   * retention (keep the newest `retained` completed checkpoints, delete older
   * ones and leftovers of aborted or incomplete checkpoints older than it).
   * Returns the stored form (`directory` set by the filesystem storage).
   */
  addCompleted(checkpoint: CompletedCheckpoint): Promise<CompletedCheckpoint>;

  /** Coordinator side: delete what was written for an aborted checkpoint (best effort, never throws). */
  discardAborted(checkpointId: number): Promise<void>;

  /**
   * The newest completed checkpoint that fully verifies (metadata checksum,
   * size and CRC of every state). Corrupt ones are skipped with a warning
   * naming them and why; null if none. Throws `CheckpointVersionError` if a
   * checkpoint was written by a newer Weir.
   */
  latestCompleted(): Promise<CompletedCheckpoint | null>;

  /**
   * Highest checkpoint id present in storage in any form (complete, corrupt
   * or partial), 0 if none: a restarted job continues above it.
   */
  highestCheckpointId(): Promise<number>;

  /** Completed checkpoints currently retained, oldest first (metadata checked, state files not read). */
  listCompleted(): Promise<CompletedCheckpoint[]>;
}
