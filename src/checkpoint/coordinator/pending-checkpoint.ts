/**
 * One checkpoint between its trigger and its completion or abort: which tasks
 * still have to acknowledge, what they acknowledged, and the promise handed to
 * whoever triggered it.
 */
import type { CompletedCheckpoint, OperatorSubtaskState, TaskAcknowledgement } from "../types.ts";
import type { TimerHandle } from "../../util/clock.ts";
import type { CompletedCheckpointStats, PendingCheckpointStats, SubtaskAckStats } from "./checkpoint-stats.ts";
import { sizesOf } from "./state-sizes.ts";

/**
 * Where a pending checkpoint is in its life:
 * `awaiting-acks` → `queued` (all acks in, waiting for its turn at the store) → `storing` → removed.
 */
export type PendingCheckpointPhase = "awaiting-acks" | "queued" | "storing";

/** The outcome of offering an acknowledgement to a pending checkpoint. */
export type AckOutcome = "accepted" | "duplicate" | "unknown-task";

/** A triggered checkpoint that has neither completed nor been aborted. */
export class PendingCheckpoint {
  /** Where it is in its life. */
  phase: PendingCheckpointPhase = "awaiting-acks";
  /** The expiry timer, cancelled once all acks are in. */
  timeout: TimerHandle | undefined;
  /** Runs once it is stored, before the next store operation and before the promise resolves (a savepoint's copy). Never rejects. */
  whileStored: ((stored: CompletedCheckpoint) => Promise<void>) | undefined;
  /** Settles when it completes (with the stored form) or is aborted. */
  readonly promise: Promise<CompletedCheckpoint>;
  private readonly acks = new Map<string, TaskAcknowledgement>();
  /** Coordinator time each acknowledgement arrived. */
  private readonly ackedAt = new Map<string, number>();
  private readonly remaining: Set<string>;
  private settle!: { resolve(c: CompletedCheckpoint): void; reject(e: Error): void };

  /**
   * @param id - the checkpoint id.
   * @param timestamp - coordinator time of the trigger.
   * @param savepoint - true for a savepoint.
   * @param tasks - every task that must acknowledge, in a stable order.
   */
  constructor(
    readonly id: number,
    readonly timestamp: number,
    readonly savepoint: boolean,
    private readonly tasks: readonly string[],
  ) {
    this.remaining = new Set(tasks);
    this.promise = new Promise<CompletedCheckpoint>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
  }

  /** Records `ack`, arrived at coordinator time `now`, unless its task is not expected or already acknowledged. */
  acknowledge(ack: TaskAcknowledgement, now: number): AckOutcome {
    if (this.acks.has(ack.taskId)) return "duplicate";
    if (!this.remaining.delete(ack.taskId)) return "unknown-task";
    this.acks.set(ack.taskId, ack);
    this.ackedAt.set(ack.taskId, now);
    return "accepted";
  }

  /** Every acknowledgement so far, in task order. */
  ackStats(): SubtaskAckStats[] {
    const out: SubtaskAckStats[] = [];
    for (const t of this.tasks) {
      const ack = this.acks.get(t);
      if (!ack) continue;
      out.push({ taskId: t, ackedAt: this.ackedAt.get(t)!, ...sizesOf(ack.states, this.id), alignmentMs: ack.alignmentMs, syncMs: ack.syncMs, asyncMs: ack.asyncMs });
    }
    return out;
  }

  /** The statistics of this checkpoint while it is in flight. */
  pendingStats(): PendingCheckpointStats {
    return { checkpointId: this.id, savepoint: this.savepoint, triggeredAt: this.timestamp, acks: this.ackStats(), subtasks: this.tasks.length };
  }

  /** True once every expected task has acknowledged. */
  get fullyAcknowledged(): boolean {
    return this.remaining.size === 0;
  }

  /** True if `taskId` has acknowledged. */
  hasAcknowledged(taskId: string): boolean {
    return this.acks.has(taskId);
  }

  /** Every acknowledged state, in task order then acknowledgement order. */
  states(): OperatorSubtaskState[] {
    return this.tasks.flatMap((t) => this.acks.get(t)?.states ?? []);
  }

  /** The statistics of this checkpoint, completed at `completedAt`. */
  completedStats(completedAt: number): CompletedCheckpointStats {
    let stateSize = 0;
    let checkpointedSize = 0;
    let maxAlignmentMs = 0;
    let maxSyncMs = 0;
    let maxAsyncMs = 0;
    for (const ack of this.acks.values()) {
      const sizes = sizesOf(ack.states, this.id);
      stateSize += sizes.stateSize;
      checkpointedSize += sizes.checkpointedSize;
      maxAlignmentMs = Math.max(maxAlignmentMs, ack.alignmentMs);
      maxSyncMs = Math.max(maxSyncMs, ack.syncMs);
      maxAsyncMs = Math.max(maxAsyncMs, ack.asyncMs);
    }
    return {
      checkpointId: this.id,
      savepoint: this.savepoint,
      triggeredAt: this.timestamp,
      completedAt,
      durationMs: completedAt - this.timestamp,
      stateSize,
      checkpointedSize,
      maxAlignmentMs,
      maxSyncMs,
      maxAsyncMs,
      acks: this.ackStats(),
      subtasks: this.tasks.length,
    };
  }

  /** Settles the promise with the stored checkpoint. */
  resolve(checkpoint: CompletedCheckpoint): void {
    this.timeout?.cancel();
    this.settle.resolve(checkpoint);
  }

  /** Settles the promise with `error` and cancels the expiry timer. */
  reject(error: Error): void {
    this.timeout?.cancel();
    this.settle.reject(error);
  }
}

