/**
 * The failure injection of the recovery suites: a map from a sequence number
 * to its event that, on the first attempt, throws once at `failAt` or later,
 * after a checkpoint completed (so the restart restores state, not nothing).
 */
import { RichFunction, type CheckpointListener } from "../../src/index.ts";

/** Maps `i` to `events[i]`; with `failAt` < 0 it never throws. */
export class FailOnce<E> extends RichFunction implements CheckpointListener {
  private completed = false;
  /** Shared by the parallel instances and attempts (each runs a shallow copy): whether a checkpoint completed. */
  private readonly gate = { checkpointed: false };
  constructor(
    private readonly events: readonly E[],
    private readonly failAt: number,
  ) {
    super();
  }

  /**
   * The `limit` of the source that feeds this map (`throttledSequence`, in-process jobs): numbers after `failAt`
   * wait until a checkpoint completed, so the failure happens however slow the machine (a bounded input could
   * otherwise end before its first checkpoint, and the run with it, without a failure).
   */
  readonly sourceLimit = (): number => (this.failAt < 0 || this.gate.checkpointed ? Number.POSITIVE_INFINITY : this.failAt + 1);

  map(i: number): E {
    if (this.failAt >= 0 && this.completed && i >= this.failAt && this.getRuntimeContext().getAttemptNumber() === 0)
      throw new Error(`injected failure at record ${i}`);
    return this.events[i]!;
  }
  notifyCheckpointComplete(): void {
    this.completed = true;
    this.gate.checkpointed = true;
  }
}
