/**
 * Checkpoint statistics of one coordinator: counts, the last completed
 * checkpoint and a bounded history, enough for a progress line, a benchmark
 * (duration and alignment percentiles, see `percentile`) and a dashboard.
 */
import type { CheckpointAbortReason } from "./errors.ts";

/** Entries kept per history list (completed, failed). */
export const STATS_HISTORY_LIMIT = 100;

/** One subtask's acknowledgement of a checkpoint, as the coordinator received it. */
export interface SubtaskAckStats {
  /** `vertexId#subtaskIndex`. */
  readonly taskId: string;
  /** Coordinator time the acknowledgement arrived. */
  readonly ackedAt: number;
  /** Bytes of every file the subtask's state references: its own handles and the shared files of its incremental chains. */
  readonly stateSize: number;
  /** Bytes this checkpoint wrote for the subtask (shared files written by earlier checkpoints not counted). */
  readonly checkpointedSize: number;
  readonly alignmentMs: number;
  readonly syncMs: number;
  readonly asyncMs: number;
}

/** Statistics of one completed checkpoint. */
export interface CompletedCheckpointStats {
  readonly checkpointId: number;
  readonly savepoint: boolean;
  /** Coordinator time of the trigger. */
  readonly triggeredAt: number;
  /** Coordinator time the store made it durable. */
  readonly completedAt: number;
  /** `completedAt - triggeredAt`: end-to-end duration, including storing the metadata. */
  readonly durationMs: number;
  /**
   * Bytes of every file the checkpoint references: the state handles and the
   * shared files of incremental chains, whichever checkpoint wrote them
   * (Flink's full checkpoint size).
   */
  readonly stateSize: number;
  /** Bytes this checkpoint wrote: its handles and the shared files it added (equals `stateSize` without incremental checkpoints). */
  readonly checkpointedSize: number;
  /** Longest barrier alignment of any task, in ms. */
  readonly maxAlignmentMs: number;
  /** Longest synchronous snapshot part of any task, in ms. */
  readonly maxSyncMs: number;
  /** Longest asynchronous snapshot part of any task, in ms. */
  readonly maxAsyncMs: number;
  /** Every subtask's acknowledgement, in task order. */
  readonly acks: readonly SubtaskAckStats[];
  /** How many subtasks had to acknowledge. */
  readonly subtasks: number;
  /** Where the store keeps it (its directory), if it is on disk. */
  readonly location?: string;
}

/** Statistics of one aborted checkpoint. */
export interface FailedCheckpointStats {
  readonly checkpointId: number;
  readonly savepoint: boolean;
  readonly triggeredAt: number;
  /** Coordinator time of the abort. */
  readonly failedAt: number;
  readonly reason: CheckpointAbortReason;
  /** The full message, e.g. the decline reason of the task. */
  readonly message: string;
  /** True for a failure (declined, expired, store-failed); false for an abort that is not one (subsumed, shutdown, finished-tasks). */
  readonly isFailure: boolean;
  /** The acknowledgements that had arrived before the abort, in task order. */
  readonly acks: readonly SubtaskAckStats[];
  /** How many subtasks had to acknowledge. */
  readonly subtasks: number;
}

/** A checkpoint in flight: triggered, neither completed nor aborted. */
export interface PendingCheckpointStats {
  readonly checkpointId: number;
  readonly savepoint: boolean;
  readonly triggeredAt: number;
  /** The acknowledgements so far, in task order. */
  readonly acks: readonly SubtaskAckStats[];
  /** How many subtasks have to acknowledge. */
  readonly subtasks: number;
}

/**
 * A snapshot of a coordinator's checkpoint statistics (`coordinator.stats()`).
 * `triggered = completed + failed + aborted + inProgress`.
 *
 * @example
 * ```ts
 * const s = coordinator.stats();
 * const line = `checkpoints ${s.counts.completed}/${s.counts.triggered}` +
 *   (s.lastCompleted ? `, last #${s.lastCompleted.checkpointId} in ${s.lastCompleted.durationMs} ms` : "");
 * ```
 */
export interface CheckpointStats {
  readonly counts: {
    readonly triggered: number;
    readonly completed: number;
    /** Aborted as a failure (declined, expired, store-failed). */
    readonly failed: number;
    /** Aborted without counting as a failure (subsumed, shutdown, finished-tasks). */
    readonly aborted: number;
    readonly inProgress: number;
  };
  /** Consecutive counted failures since the last completion. */
  readonly consecutiveFailures: number;
  readonly lastCompleted?: CompletedCheckpointStats;
  /** The last `STATS_HISTORY_LIMIT` entries of each kind, oldest first. */
  readonly history: {
    readonly completed: readonly CompletedCheckpointStats[];
    /** Every aborted checkpoint, failure or not. */
    readonly failed: readonly FailedCheckpointStats[];
  };
  /** Checkpoints in flight, oldest first. */
  readonly pending: readonly PendingCheckpointStats[];
}

/** Accumulates checkpoint statistics; `snapshot` returns an immutable copy. */
export class CheckpointStatsTracker {
  private triggered = 0;
  private completed = 0;
  private failed = 0;
  private aborted = 0;
  private lastCompleted: CompletedCheckpointStats | undefined;
  private readonly completedHistory: CompletedCheckpointStats[] = [];
  private readonly failedHistory: FailedCheckpointStats[] = [];

  /** A checkpoint was triggered. */
  recordTriggered(): void {
    this.triggered++;
  }

  /** A checkpoint completed. */
  recordCompleted(entry: CompletedCheckpointStats): void {
    this.completed++;
    this.lastCompleted = entry;
    pushBounded(this.completedHistory, entry);
  }

  /** Completed checkpoint `checkpointId` is now at `location` (a savepoint, once written to its folder). */
  relocate(checkpointId: number, location: string): void {
    const i = this.completedHistory.findIndex((c) => c.checkpointId === checkpointId);
    if (i !== -1) this.completedHistory[i] = { ...this.completedHistory[i]!, location };
    if (this.lastCompleted?.checkpointId === checkpointId) this.lastCompleted = { ...this.lastCompleted, location };
  }

  /** A checkpoint was aborted. */
  recordFailed(entry: FailedCheckpointStats): void {
    if (entry.isFailure) this.failed++;
    else this.aborted++;
    pushBounded(this.failedHistory, entry);
  }

  /** The current statistics, given the facts the tracker does not own. */
  snapshot(inProgress: number, consecutiveFailures: number, pending: readonly PendingCheckpointStats[] = []): CheckpointStats {
    return {
      counts: {
        triggered: this.triggered,
        completed: this.completed,
        failed: this.failed,
        aborted: this.aborted,
        inProgress,
      },
      consecutiveFailures,
      ...(this.lastCompleted ? { lastCompleted: this.lastCompleted } : {}),
      history: { completed: [...this.completedHistory], failed: [...this.failedHistory] },
      pending,
    };
  }
}

function pushBounded<T>(list: T[], entry: T): void {
  list.push(entry);
  if (list.length > STATS_HISTORY_LIMIT) list.splice(0, list.length - STATS_HISTORY_LIMIT);
}
