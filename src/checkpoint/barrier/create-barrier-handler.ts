import type { Clock } from "../../util/clock.ts";
import type { CheckpointingMode } from "../types.ts";
import { AlignedBarrierHandler } from "./aligned-barrier-handler.ts";
import type { BarrierHandlerCallbacks, CheckpointBarrierHandler } from "./barrier-handler.ts";
import { BarrierTracker } from "./barrier-tracker.ts";
import { InputChannels } from "./input-channels.ts";

/**
 * The barrier handler of a task for the job's checkpointing mode: aligned
 * (blocking) for `exactly-once`, a non-blocking tracker for `at-least-once` and
 * `at-most-once`. The input gate calls it for every barrier, cancel marker and
 * end-of-input it reads, and skips channels for which `isBlocked` is true.
 *
 * @param mode - the job's processing guarantee.
 * @param numChannels - number of input channels of the task (≥ 1).
 * @param callbacks - how the handler asks the task to snapshot or abort.
 * @param clock - measures alignment time.
 * @throws RangeError if `numChannels` is not an integer ≥ 1.
 *
 * @example
 * ```ts
 * const handler = createBarrierHandler("exactly-once", 2, {
 *   triggerCheckpoint: (barrier, alignmentMs) => task.snapshotAndForward(barrier, alignmentMs),
 *   abortCheckpoint: (id, reason) => task.decline(id, reason),
 * }, systemClock);
 * handler.processBarrier(0, { kind: "barrier", id: 1, timestamp: 0 });
 * handler.isBlocked(0); // true: channel 0 waits for barrier 1 on channel 1
 * handler.processBarrier(1, { kind: "barrier", id: 1, timestamp: 0 }); // triggers checkpoint 1
 * ```
 */
export function createBarrierHandler(
  mode: CheckpointingMode,
  numChannels: number,
  callbacks: BarrierHandlerCallbacks,
  clock: Clock,
): CheckpointBarrierHandler {
  const channels = new InputChannels(numChannels);
  switch (mode) {
    case "exactly-once":
      return new AlignedBarrierHandler(channels, callbacks, clock);
    case "at-least-once":
    case "at-most-once":
      return new BarrierTracker(channels, callbacks);
  }
}
