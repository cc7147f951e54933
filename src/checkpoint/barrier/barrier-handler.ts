/**
 * The contract between a task's input gate and its barrier handler (DESIGN.md,
 * checkpoint step 3). The gate reads elements from its channels and hands every
 * barrier, cancel marker and end-of-input to the handler; the handler decides
 * which channels the gate may read and returns what the task must do.
 */

import type { CancelCheckpointMarker, CheckpointBarrier } from "../types.ts";

/**
 * One thing the task must do after the handler saw an element:
 * - `trigger`: alignment (or counting) is done for `barrier`: snapshot now, then
 *   forward the barrier downstream. The handler has already left the alignment
 *   (every channel is unblocked).
 * - `abort`: checkpoint `id` is aborted at this task (a newer barrier overtook it,
 *   or a cancel marker arrived): forward a cancel marker and decline it to the
 *   coordinator. At most once per id.
 */
export type BarrierAction =
  | { readonly kind: "trigger"; readonly barrier: CheckpointBarrier; readonly alignmentMs: number }
  | { readonly kind: "abort"; readonly id: number; readonly reason: string };

/** What the task must do after one element, in order (aborts of older checkpoints come first); usually nothing. */
export type BarrierDecision = readonly BarrierAction[];

/** The decision "nothing to do". */
export const NO_ACTION: BarrierDecision = Object.freeze([]);

/**
 * Per-task barrier handling: a pure state machine driven by the task's input
 * gate. Created by `createBarrierHandler`.
 */
export interface CheckpointBarrierHandler {
  /** Channel `channel` delivered `barrier`. */
  processBarrier(channel: number, barrier: CheckpointBarrier): BarrierDecision;
  /** Channel `channel` delivered a cancel marker (an upstream task declined `marker.id`). */
  processCancel(channel: number, marker: CancelCheckpointMarker): BarrierDecision;
  /** The channel delivered end-of-input: it will never deliver anything again. */
  processEndOfInput(channel: number): BarrierDecision;
  /** The gate must not read from this channel now (alignment). O(1): it is called per read. */
  isBlocked(channel: number): boolean;
  /** Id of the checkpoint being aligned/tracked, or -1. */
  pendingCheckpointId(): number;
  /**
   * Checkpoint `id` was aborted elsewhere (the coordinator expired it, another
   * task declined it, …): release its alignment now, and ignore its barriers and
   * cancel markers that arrive later (they start no alignment and trigger no
   * snapshot). Nothing to forward or decline: the coordinator knows.
   */
  checkpointAborted(id: number): void;
}
