/**
 * The contract between a task's input gate and its barrier handler (DESIGN.md,
 * checkpoint step 3). The gate reads elements from its channels and hands every
 * barrier, cancel marker and end-of-input to the handler; the handler decides
 * which channels the gate may read and when the task snapshots.
 */

import type { CancelCheckpointMarker, CheckpointBarrier } from "../types.ts";

/** What a barrier handler asks of its task. Both are called synchronously from the handler's methods. */
export interface BarrierHandlerCallbacks {
  /**
   * Alignment (or counting) is done for `barrier`: the task snapshots now, then
   * forwards the barrier downstream. Called synchronously from `processBarrier`
   * or `processEndOfInput`; the handler has already left the alignment (every
   * channel is unblocked) when this runs.
   */
  triggerCheckpoint(barrier: CheckpointBarrier, alignmentMs: number): void;
  /**
   * Checkpoint `id` is aborted at this task (a newer barrier overtook it, or a
   * cancel marker arrived). The task forwards a cancel marker and declines to the
   * coordinator. Called at most once per id.
   */
  abortCheckpoint(id: number, reason: string): void;
}

/**
 * Per-task barrier handling: a pure state machine driven by the task's input
 * gate. Created by `createBarrierHandler`.
 */
export interface CheckpointBarrierHandler {
  /** Channel `channel` delivered `barrier`. */
  processBarrier(channel: number, barrier: CheckpointBarrier): void;
  /** Channel `channel` delivered a cancel marker (an upstream task declined `marker.id`). */
  processCancel(channel: number, marker: CancelCheckpointMarker): void;
  /** The channel delivered end-of-input: it will never deliver anything again. */
  processEndOfInput(channel: number): void;
  /** The gate must not read from this channel now (alignment). O(1): it is called per read. */
  isBlocked(channel: number): boolean;
  /** Id of the checkpoint being aligned/tracked, or -1. */
  pendingCheckpointId(): number;
  /** The task aborts `id` itself (e.g. its snapshot failed): clear any alignment for it and unblock. Does NOT call `abortCheckpoint`. */
  abortPending(id: number): void;
}
