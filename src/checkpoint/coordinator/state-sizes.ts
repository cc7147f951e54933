/**
 * The two sizes of a checkpoint's state (as Flink reports them): every byte
 * it references, and the bytes it wrote. They differ with incremental
 * checkpoints, whose subtask states reference the shared files of their
 * chains, most of them written by earlier checkpoints.
 */
import type { OperatorSubtaskState } from "../types.ts";

/** Sizes of some subtask states of one checkpoint, in bytes. */
export interface StateSizes {
  /** Every file the states reference: their handles and all shared chain files (what a restore reads). */
  readonly stateSize: number;
  /** What checkpoint `checkpointId` wrote: the handles and the shared files it added. */
  readonly checkpointedSize: number;
}

/**
 * The {@link StateSizes} of `states`, acknowledged for checkpoint `checkpointId`.
 *
 * @example
 * ```ts
 * const { stateSize, checkpointedSize } = sizesOf(completed.states, completed.checkpointId);
 * // a delta of 1 % of 10 MB: checkpointedSize ≈ 100 kB, stateSize ≈ 10.1 MB
 * ```
 */
export function sizesOf(states: readonly OperatorSubtaskState[], checkpointId: number): StateSizes {
  let stateSize = 0;
  let checkpointedSize = 0;
  for (const s of states) {
    stateSize += s.handle.size;
    checkpointedSize += s.handle.size;
    for (const ref of s.shared ?? []) {
      stateSize += ref.size;
      if (ref.checkpointId === checkpointId) checkpointedSize += ref.size;
    }
  }
  return { stateSize, checkpointedSize };
}
