/**
 * The contract shared by the two checkpoint storages (jobmanager, filesystem).
 */
import type { CompletedCheckpoint, SharedStateRef, StateHandle } from "../types.ts";
import type { CorruptCheckpointError } from "./errors.ts";

/** A completed checkpoint that does not verify, as `latestCompleted` found it. */
export interface DamagedCheckpoint {
  readonly checkpointId: number;
  /** Where the checkpoint is: its directory, or "in memory". */
  readonly location: string;
  /** The damaged file (or inline state) and what is wrong with it. */
  readonly error: CorruptCheckpointError;
}

/** What `latestCompleted` found. */
export interface LatestCompleted {
  /** The newest completed checkpoint that fully verifies, or null if none. */
  readonly checkpoint: CompletedCheckpoint | null;
  /** Completed checkpoints newer than `checkpoint` that do not verify, newest first. */
  readonly damaged: readonly DamagedCheckpoint[];
}

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
   * True if the storage keeps shared (incremental) state files: filesystem.
   * False for jobmanager, whose checkpoints live in the coordinator's memory
   * and are lost with it: with it the state backends write full snapshots
   * (`handle` only) and never call `writeSharedState`.
   */
  readonly supportsSharedState: boolean;

  /**
   * Task side: persist one immutable file of an incremental chain (a base or
   * a delta) written by checkpoint `checkpointId`, and return the ref that
   * this and later checkpoints put in `OperatorSubtaskState.shared`.
   * Filesystem: `<dir>/shared/<safe-uid>-<subtask>-<checkpointId>-<random>.state`,
   * written atomically and durably (temp file, fsync, rename, directory
   * fsync). Jobmanager: throws (check `supportsSharedState`).
   *
   * Contract with the backends: a subtask's chain only grows (each snapshot
   * = the previous snapshot's chain + new deltas, in snapshot order, aborted
   * checkpoints' deltas included) or restarts from a new base; a checkpoint
   * is acknowledged only once every file of its chain is written. Cleanup
   * relies on it (a file below the newest completed checkpoint's id that this
   * checkpoint does not reference is never needed again).
   */
  writeSharedState(checkpointId: number, operatorUid: string, subtaskIndex: number, bytes: Uint8Array): Promise<SharedStateRef>;

  /**
   * Task side, on restore: the bytes of the shared file `ref` of `checkpoint`
   * (a checkpoint of any storage, or a savepoint), after checking size and
   * CRC; `CorruptCheckpointError` naming the absolute file path and the
   * reason otherwise (the caller adds the operator).
   */
  readSharedState(checkpoint: CompletedCheckpoint, ref: SharedStateRef): Promise<Uint8Array>;

  /**
   * True if new checkpoints of this storage may keep referencing the shared
   * files of `checkpoint` (restored from) as they are: it is a checkpoint in
   * this storage's own directory. False for a savepoint, a checkpoint of
   * another directory or job, and always for jobmanager: then the backend's
   * first checkpoint after restore writes a new base.
   */
  sharedStateReusable(checkpoint: CompletedCheckpoint): boolean;

  /**
   * Coordinator side: make `checkpoint` durable and the latest, then start
   * retention, which runs after this resolves (filesystem: in the background,
   * one cleanup at a time, see `settled`): keep the newest `retained` completed
   * checkpoints, delete older ones and leftovers of aborted or incomplete
   * checkpoints older than it, then shared files that no remaining checkpoint
   * references and that an older checkpoint than it wrote; nothing with
   * `retained: null`, see `retainOnly`. Returns the stored form (`directory`
   * set by the filesystem storage).
   */
  addCompleted(checkpoint: CompletedCheckpoint): Promise<CompletedCheckpoint>;

  /**
   * Resolves once the retention that `addCompleted` started has ended (never
   * rejects: a failed deletion is logged and found again by the next
   * cleanup). `latestCompleted`, `listCompleted`, `highestCheckpointId` and
   * `retainOnly` await it first; the job awaits it before it ends.
   */
  settled(): Promise<void>;

  /**
   * Coordinator side, when a high-availability store decides what is retained
   * (the storage's own retention is off, `retained: null`): after checkpoint
   * `committed` was committed there, deletes every checkpoint below it whose id
   * is not in `keep` (the ids the store still holds) — subsumed ones, and
   * orphans whose commit failed or never came — complete or not, then the
   * shared files that no checkpoint left references and that a checkpoint below
   * `committed` wrote (the same mark and sweep as retention). Ids from
   * `committed` on (it, and those in flight) are left alone. Best effort: a
   * failed deletion is logged and found again by the next call.
   */
  retainOnly(keep: readonly number[], committed: number): Promise<void>;

  /**
   * Coordinator side: delete what was written for an aborted checkpoint (best
   * effort, never throws). Never shared files: a later checkpoint's chain may
   * include them; the cleanup after the next completed checkpoint decides.
   */
  discardAborted(checkpointId: number): Promise<void>;

  /**
   * The newest completed checkpoint with an id of at least `minId` (default 1)
   * that fully verifies (metadata checksum, size and CRC of every state and
   * of every shared file it references), and
   * the damaged ones newer than it, each naming the bad file and why. A
   * partial checkpoint (no metadata) is neither. The caller decides whether
   * to fall back past damaged ones. Throws `CheckpointVersionError` if a
   * checkpoint was written by a newer Weir.
   */
  latestCompleted(minId?: number): Promise<LatestCompleted>;

  /**
   * Highest checkpoint id present in storage in any form (complete, corrupt
   * or partial), 0 if none: a restarted job continues above it.
   */
  highestCheckpointId(): Promise<number>;

  /** Completed checkpoints currently retained, oldest first (metadata checked, state files not read). */
  listCompleted(): Promise<CompletedCheckpoint[]>;

  /**
   * Coordinator side, when a job starts and before any task runs: throws
   * `CheckpointDirectoryError` when checkpoints could not be written (the
   * directory is a file, or is not writable), so the job fails at once with a
   * clear message instead of declining every checkpoint.
   */
  checkWritable(): Promise<void>;
}
