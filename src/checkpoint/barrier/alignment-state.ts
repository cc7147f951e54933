/**
 * The states of the aligned (exactly-once) barrier handler.
 *
 * ```
 *            newer barrier n                    every open channel delivered n
 * Waiting ─────────────────────▶ Aligning(n) ───────────────────────────────▶ Waiting (trigger n)
 *                                  │  newer barrier m  ─▶ Aligning(m) (abort n)
 *                                  │  cancel n / newer cancel ─▶ Waiting (abort n)
 *                                  │  checkpointAborted(n) (coordinator) ─▶ Waiting (no action)
 * ```
 */

import type { CheckpointBarrier } from "../types.ts";

/** No alignment in progress: every channel may be read. */
export interface WaitingForBarrier {
  readonly kind: "waiting";
}

/** Aligning checkpoint `barrier.id`: the channels that delivered its barrier are blocked. */
export interface Aligning {
  readonly kind: "aligning";
  /** The first barrier of the checkpoint that arrived. */
  readonly barrier: CheckpointBarrier;
  /** Clock time when the first barrier arrived. */
  readonly startedAt: number;
  /** 1 for each channel that delivered the barrier, which the gate must not read. */
  readonly blocked: Uint8Array;
  /** Channels that delivered the barrier or ended; the alignment completes when it reaches the channel count. */
  aligned: number;
}

/** State of the aligned barrier handler. */
export type AlignmentState = WaitingForBarrier | Aligning;

/** The single waiting state. */
export const WAITING: WaitingForBarrier = Object.freeze({ kind: "waiting" });

/**
 * A fresh alignment for `barrier` with no channel blocked yet; channels that
 * already ended count as aligned.
 */
export function startAlignment(
  barrier: CheckpointBarrier,
  startedAt: number,
  channelCount: number,
  endedCount: number,
): Aligning {
  return { kind: "aligning", barrier, startedAt, blocked: new Uint8Array(channelCount), aligned: endedCount };
}
