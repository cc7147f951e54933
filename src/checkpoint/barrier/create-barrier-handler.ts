import type { Clock } from "../../util/clock.ts";
import type { CheckpointingMode } from "../types.ts";
import { AlignedBarrierHandler } from "./aligned-barrier-handler.ts";
import type { CheckpointBarrierHandler } from "./barrier-handler.ts";
import { BarrierTracker } from "./barrier-tracker.ts";
import { InputChannels } from "./input-channels.ts";

/**
 * The barrier handler of a task for the job's checkpointing mode: aligned
 * (blocking) for `exactly-once`, a non-blocking tracker for `at-least-once` and
 * `at-most-once`. The input gate calls it for every barrier, cancel marker and
 * end-of-input it reads, and skips channels for which `isBlocked` is true; the
 * task carries out the decision each call returns.
 *
 * @param mode - the job's processing guarantee.
 * @param numChannels - number of input channels of the task (≥ 1).
 * @param clock - measures alignment time.
 * @throws RangeError if `numChannels` is not an integer ≥ 1.
 *
 * @example
 * ```ts
 * const handler = createBarrierHandler("exactly-once", 2, systemClock);
 * handler.processBarrier(0, { kind: "barrier", id: 1, timestamp: 0 }); // [] (nothing to do yet)
 * handler.isBlocked(0); // true: channel 0 waits for barrier 1 on channel 1
 * handler.processBarrier(1, { kind: "barrier", id: 1, timestamp: 0 }); // [{ kind: "trigger", barrier, alignmentMs }]
 * handler.checkpointAborted(2); // the coordinator aborted 2: its barriers will be ignored
 * ```
 */
export function createBarrierHandler(mode: CheckpointingMode, numChannels: number, clock: Clock): CheckpointBarrierHandler {
  const channels = new InputChannels(numChannels);
  switch (mode) {
    case "exactly-once":
      return new AlignedBarrierHandler(channels, clock);
    case "at-least-once":
    case "at-most-once":
      return new BarrierTracker(channels);
  }
}
