/**
 * The failure injection of the recovery suites: a map from a sequence number
 * to its event that, on the first attempt, throws once at `failAt` or later,
 * after a checkpoint completed (so the restart restores state, not nothing).
 */
import { RichFunction, type CheckpointListener } from "../../src/index.ts";

/** Maps `i` to `events[i]`; with `failAt` < 0 it never throws. */
export class FailOnce<E> extends RichFunction implements CheckpointListener {
  private completed = false;
  constructor(
    private readonly events: readonly E[],
    private readonly failAt: number,
  ) {
    super();
  }
  map(i: number): E {
    if (this.failAt >= 0 && this.completed && i >= this.failAt && this.getRuntimeContext().getAttemptNumber() === 0)
      throw new Error(`injected failure at record ${i}`);
    return this.events[i]!;
  }
  notifyCheckpointComplete(): void {
    this.completed = true;
  }
}
