/**
 * The edges of the checkpoint coordinator: the tasks (reached through a
 * gateway the runtime implements), the completed-checkpoint store (which the
 * checkpoint storage implements) and where checkpoint ids come from.
 */
import type { CheckpointBarrier, CompletedCheckpoint } from "../types.ts";

/** How the coordinator talks to tasks (the runtime implements it; calls are fire-and-forget). */
export interface CoordinatorGateway {
  /** Asks source task `taskId` to snapshot its position and emit `barrier`. */
  triggerSource(taskId: string, barrier: CheckpointBarrier): void;
  /** Checkpoint `checkpointId` is durable: the task may commit (two-phase-commit sinks). */
  notifyComplete(taskId: string, checkpointId: number): void;
  /** Checkpoint `checkpointId` was aborted: the task may abort what it prepared for it. */
  notifyAborted(taskId: string, checkpointId: number, reason: string): void;
}

/** Where completed checkpoints go (the storage implements it). */
export interface CompletedCheckpointStore {
  /** Makes the checkpoint durable (e.g. writes _metadata atomically) and starts retention (which may run after it resolves); resolves with the stored form. Rejects if it could not be stored. */
  addCompleted(checkpoint: CompletedCheckpoint): Promise<CompletedCheckpoint>;
  /** Deletes whatever tasks wrote for an aborted checkpoint. Best effort. */
  discardAborted(checkpointId: number): Promise<void>;
}

/**
 * Where the coordinator takes its checkpoint ids (Flink's `CheckpointIDCounter`):
 * each id is taken before its barrier is triggered, ids are strictly increasing
 * and none is handed out twice. A plain counter (`checkpointIdsFrom`) without
 * high availability; blocks reserved in etcd ahead of use under it
 * (`ReservedCheckpointIds`), so that no id is used before a new leader would skip it.
 */
export interface CheckpointIdSource {
  /** Takes the next id now; undefined when none is at hand yet (a reservation is under way): ask again later. */
  take(): number | undefined;
  /** Resolves once `take` returns an id; rejects when the ids could not be reserved (a fenced or failed reservation). */
  whenAvailable(): Promise<void>;
}
