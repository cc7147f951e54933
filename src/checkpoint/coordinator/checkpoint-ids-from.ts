/**
 * The checkpoint ids of a job without high availability: a counter in the
 * coordinator's memory, from the first id of the attempt (above everything
 * in checkpoint storage), always at hand.
 */
import type { CheckpointIdSource } from "./ports.ts";

/**
 * Ids `first`, `first + 1`, … taken one by one.
 *
 * @example
 * ```ts
 * const ids = checkpointIdsFrom(8);
 * ids.take(); // 8
 * ids.take(); // 9
 * ```
 */
export function checkpointIdsFrom(first: number): CheckpointIdSource {
  let next = first;
  return {
    take: () => next++,
    whenAvailable: async () => {},
  };
}
