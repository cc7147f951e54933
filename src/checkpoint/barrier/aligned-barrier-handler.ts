import type { Clock } from "../../util/clock.ts";
import type { CancelCheckpointMarker, CheckpointBarrier } from "../types.ts";
import type { BarrierHandlerCallbacks, CheckpointBarrierHandler } from "./barrier-handler.ts";
import { BarrierProtocolError } from "./barrier-protocol-error.ts";
import type { InputChannels } from "./input-channels.ts";
import { type Aligning, type AlignmentState, WAITING, startAlignment } from "./alignment-state.ts";

/**
 * Exactly-once barrier handling (Flink's aligned `SingleCheckpointBarrierHandler`):
 * a channel that delivered barrier n is blocked until n arrived on every channel
 * that has not ended; then the task snapshots and every channel is unblocked.
 * Records behind barrier n on any channel are therefore never part of the
 * snapshot of n, and every record before it is.
 *
 * One alignment at a time: a newer barrier or cancel marker aborts the alignment
 * in progress; barriers of ids at or below the newest seen id that are not
 * being aligned (completed, aborted, overtaken) are ignored.
 */
export class AlignedBarrierHandler implements CheckpointBarrierHandler {
  private state: AlignmentState = WAITING;
  /** Highest checkpoint id seen in a barrier or cancel marker: every id up to it is aligning, completed or aborted. */
  private lastSeenId = -1;

  constructor(
    private readonly channels: InputChannels,
    private readonly callbacks: BarrierHandlerCallbacks,
    private readonly clock: Clock,
  ) {}

  processBarrier(channel: number, barrier: CheckpointBarrier): void {
    this.checkReadable(channel, `barrier ${barrier.id}`);
    const state = this.state;
    if (barrier.id > this.lastSeenId) {
      if (state.kind === "aligning") {
        this.abortAlignment(state, `barrier of newer checkpoint ${barrier.id} arrived on input channel ${channel} before the alignment completed`);
      }
      this.lastSeenId = barrier.id;
      const next = startAlignment(barrier, this.clock.now(), this.channels.count, this.channels.endedCount);
      this.state = next;
      this.align(next, channel);
    } else if (state.kind === "aligning" && state.barrier.id === barrier.id) {
      this.align(state, channel);
    }
    // Otherwise a stale barrier (completed, aborted or overtaken checkpoint): ignored.
  }

  processCancel(channel: number, marker: CancelCheckpointMarker): void {
    this.checkReadable(channel, `cancel marker ${marker.id}`);
    const state = this.state;
    const reason = `cancel marker for checkpoint ${marker.id} arrived on input channel ${channel}`;
    if (state.kind === "aligning" && state.barrier.id === marker.id) {
      this.abortAlignment(state, reason);
    } else if (marker.id > this.lastSeenId) {
      if (state.kind === "aligning") {
        this.abortAlignment(state, `cancel marker of newer checkpoint ${marker.id} arrived on input channel ${channel} before the alignment completed`);
      }
      this.lastSeenId = marker.id;
      this.callbacks.abortCheckpoint(marker.id, reason);
    }
    // Otherwise the checkpoint already completed or was aborted here: ignored.
  }

  processEndOfInput(channel: number): void {
    this.checkReadable(channel, "end-of-input");
    this.channels.markEnded(channel);
    const state = this.state;
    if (state.kind === "aligning") {
      state.aligned++;
      this.completeIfAligned(state);
    }
  }

  isBlocked(channel: number): boolean {
    const state = this.state;
    return state.kind === "aligning" && state.blocked[channel] === 1;
  }

  pendingCheckpointId(): number {
    return this.state.kind === "aligning" ? this.state.barrier.id : -1;
  }

  abortPending(id: number): void {
    if (this.state.kind === "aligning" && this.state.barrier.id === id) this.state = WAITING;
  }

  private align(state: Aligning, channel: number): void {
    state.blocked[channel] = 1;
    state.aligned++;
    this.completeIfAligned(state);
  }

  private completeIfAligned(state: Aligning): void {
    if (state.aligned < this.channels.count) return;
    this.state = WAITING;
    this.callbacks.triggerCheckpoint(state.barrier, this.clock.now() - state.startedAt);
  }

  private abortAlignment(state: Aligning, reason: string): void {
    this.state = WAITING;
    this.callbacks.abortCheckpoint(state.barrier.id, reason);
  }

  /** A blocked channel must not be read, so nothing may arrive from it. */
  private checkReadable(channel: number, element: string): void {
    this.channels.checkOpen(channel, element);
    if (this.isBlocked(channel)) {
      throw new BarrierProtocolError(channel, `${element} read from a channel blocked for the alignment of checkpoint ${this.pendingCheckpointId()}`);
    }
  }
}
