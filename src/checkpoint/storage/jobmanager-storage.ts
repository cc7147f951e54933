/**
 * The `jobmanager` checkpoint storage: state travels inline in the
 * acknowledgements and completed checkpoints live in the coordinator's memory.
 * Everything is lost with the process, so a restarted job starts from scratch:
 * for tests and small jobs that need no recovery across restarts. It keeps
 * no shared (incremental) state files: with it the state backends write full
 * snapshots.
 */
import { crc32 } from "../../util/crc32.ts";
import type { CompletedCheckpoint, SharedStateRef, StateHandle } from "../types.ts";
import type { CheckpointStorage, DamagedCheckpoint, LatestCompleted } from "./checkpoint-storage.ts";
import { StateSizeLimitExceededError } from "./errors.ts";
import { checkpointsToDelete } from "./retention.ts";
import { checkpointStateProblem, readVerifiedSharedState, readVerifiedState } from "./state-verification.ts";

/** Default largest serialized state of one operator subtask: 5 MiB. */
export const DEFAULT_MAX_STATE_SIZE = 5 * 1024 * 1024;

/**
 * In-memory checkpoint storage. Task-side instances (in worker threads) share
 * nothing with the coordinator's: `writeState` returns an inline handle that
 * carries a copy of the bytes, and the coordinator keeps the completed
 * checkpoints it is given in `addCompleted`.
 *
 * @example
 * ```ts
 * const storage = new JobManagerCheckpointStorage({ maxStateSize: 1 << 20, retained: 1 });
 * const handle = await storage.writeState(1, "counts", 0, bytes);
 * ```
 */
export class JobManagerCheckpointStorage implements CheckpointStorage {
  private readonly maxStateSize: number;
  /** Null: completed checkpoints go only when `retainOnly` says. */
  private readonly retained: number | null;
  /** Completed checkpoints, oldest first. */
  private completed: CompletedCheckpoint[] = [];
  private highestId = 0;
  /** No shared state files: the backends write full snapshots. */
  readonly supportsSharedState = false;

  constructor(options: { maxStateSize: number; retained: number | null }) {
    this.maxStateSize = options.maxStateSize;
    this.retained = options.retained;
  }

  async writeState(_checkpointId: number, operatorUid: string, subtaskIndex: number, bytes: Uint8Array): Promise<StateHandle> {
    if (bytes.length > this.maxStateSize) {
      throw new StateSizeLimitExceededError(operatorUid, subtaskIndex, bytes.length, this.maxStateSize);
    }
    return { kind: "inline", data: bytes.slice(), size: bytes.length, crc: crc32(bytes) };
  }

  readState(checkpoint: CompletedCheckpoint, handle: StateHandle): Promise<Uint8Array> {
    return readVerifiedState(checkpoint, handle);
  }

  async writeSharedState(checkpointId: number, operatorUid: string, subtaskIndex: number, _bytes: Uint8Array): Promise<SharedStateRef> {
    throw new Error(
      `jobmanager checkpoint storage keeps no shared state files (incremental checkpoint ${checkpointId} of operator '${operatorUid}', ` +
        `subtask ${subtaskIndex}): check supportsSharedState and write a full snapshot, or use filesystem checkpoint storage`,
    );
  }

  /** Reads a shared file of a checkpoint restored from elsewhere (a filesystem checkpoint or a savepoint). */
  readSharedState(checkpoint: CompletedCheckpoint, ref: SharedStateRef): Promise<Uint8Array> {
    return readVerifiedSharedState(checkpoint, ref);
  }

  sharedStateReusable(_checkpoint: CompletedCheckpoint): boolean {
    return false;
  }

  async addCompleted(checkpoint: CompletedCheckpoint): Promise<CompletedCheckpoint> {
    this.highestId = Math.max(this.highestId, checkpoint.checkpointId);
    const all = [...this.completed.filter((c) => c.checkpointId !== checkpoint.checkpointId), checkpoint];
    const drop = new Set(this.retained === null ? [] : checkpointsToDelete(all.map((c) => ({ id: c.checkpointId, complete: true })), this.retained));
    this.completed = all.filter((c) => !drop.has(c.checkpointId)).sort((a, b) => a.checkpointId - b.checkpointId);
    return checkpoint;
  }

  /** Retention is done within `addCompleted` (in memory): nothing runs after it. */
  async settled(): Promise<void> {}

  async retainOnly(keep: readonly number[], committed: number): Promise<void> {
    this.completed = this.completed.filter((c) => c.checkpointId >= committed || keep.includes(c.checkpointId));
  }

  async discardAborted(checkpointId: number): Promise<void> {
    // Inline state lives only in the aborted acknowledgements: nothing to delete.
    this.highestId = Math.max(this.highestId, checkpointId);
  }

  async latestCompleted(minId = 1): Promise<LatestCompleted> {
    const damaged: DamagedCheckpoint[] = [];
    for (const checkpoint of this.completed.filter((c) => c.checkpointId >= minId).reverse()) {
      const problem = await checkpointStateProblem(checkpoint);
      if (!problem) return { checkpoint, damaged };
      damaged.push({ checkpointId: checkpoint.checkpointId, location: "in memory", error: problem });
    }
    return { checkpoint: null, damaged };
  }

  /** In memory: always writable. */
  async checkWritable(): Promise<void> {}

  async highestCheckpointId(): Promise<number> {
    return this.highestId;
  }

  async listCompleted(): Promise<CompletedCheckpoint[]> {
    return [...this.completed];
  }
}
