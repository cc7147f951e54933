import type { Clock } from "../../util/clock.ts";
import type { CancelCheckpointMarker, CheckpointBarrier } from "../types.ts";
import { AbortedAhead } from "./aborted-ahead.ts";
import { type BarrierAction, type BarrierDecision, type CheckpointBarrierHandler, NO_ACTION } from "./barrier-handler.ts";
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
 * being aligned (completed, aborted, overtaken) are ignored. A checkpoint the
 * coordinator aborted releases its alignment at once, and its barriers that
 * arrive later are ignored.
 */
export class AlignedBarrierHandler implements CheckpointBarrierHandler {
  private state: AlignmentState = WAITING;
  /** Highest checkpoint id seen in a barrier or cancel marker: every id up to it is aligning, completed or aborted. */
  private lastSeenId = -1;
  /** Aborted by the coordinator before any of their barriers arrived. */
  private readonly abortedAhead = new AbortedAhead();

  constructor(
    private readonly channels: InputChannels,
    private readonly clock: Clock,
  ) {}

  processBarrier(channel: number, barrier: CheckpointBarrier): BarrierDecision {
    this.checkReadable(channel, `barrier ${barrier.id}`);
    const state = this.state;
    if (barrier.id > this.lastSeenId) {
      const actions: BarrierAction[] = [];
      if (state.kind === "aligning") {
        actions.push(this.abortAlignment(state, `barrier of newer checkpoint ${barrier.id} arrived on input channel ${channel} before the alignment completed`));
      }
      this.lastSeenId = barrier.id;
      if (this.abortedAhead.reach(barrier.id)) return actions;
      const next = startAlignment(barrier, this.clock.now(), this.channels.count, this.channels.endedCount);
      this.state = next;
      this.align(next, channel, actions);
      return actions;
    }
    if (state.kind === "aligning" && state.barrier.id === barrier.id) {
      const actions: BarrierAction[] = [];
      this.align(state, channel, actions);
      return actions;
    }
    return NO_ACTION; // a stale barrier (completed, aborted or overtaken checkpoint)
  }

  processCancel(channel: number, marker: CancelCheckpointMarker): BarrierDecision {
    this.checkReadable(channel, `cancel marker ${marker.id}`);
    const state = this.state;
    const reason = `cancel marker for checkpoint ${marker.id} arrived on input channel ${channel}`;
    if (state.kind === "aligning" && state.barrier.id === marker.id) return [this.abortAlignment(state, reason)];
    if (marker.id <= this.lastSeenId) return NO_ACTION; // already completed or aborted here
    const actions: BarrierAction[] = [];
    if (state.kind === "aligning") {
      actions.push(this.abortAlignment(state, `cancel marker of newer checkpoint ${marker.id} arrived on input channel ${channel} before the alignment completed`));
    }
    this.lastSeenId = marker.id;
    if (!this.abortedAhead.reach(marker.id)) actions.push({ kind: "abort", id: marker.id, reason });
    return actions;
  }

  processEndOfInput(channel: number): BarrierDecision {
    this.checkReadable(channel, "end-of-input");
    this.channels.markEnded(channel);
    const state = this.state;
    if (state.kind !== "aligning") return NO_ACTION;
    state.aligned++;
    const actions: BarrierAction[] = [];
    this.completeIfAligned(state, actions);
    return actions;
  }

  isBlocked(channel: number): boolean {
    const state = this.state;
    return state.kind === "aligning" && state.blocked[channel] === 1;
  }

  pendingCheckpointId(): number {
    return this.state.kind === "aligning" ? this.state.barrier.id : -1;
  }

  checkpointAborted(id: number): void {
    if (this.state.kind === "aligning" && this.state.barrier.id === id) this.state = WAITING;
    else if (id > this.lastSeenId) this.abortedAhead.add(id);
  }

  private align(state: Aligning, channel: number, actions: BarrierAction[]): void {
    state.blocked[channel] = 1;
    state.aligned++;
    this.completeIfAligned(state, actions);
  }

  private completeIfAligned(state: Aligning, actions: BarrierAction[]): void {
    if (state.aligned < this.channels.count) return;
    this.state = WAITING;
    actions.push({ kind: "trigger", barrier: state.barrier, alignmentMs: this.clock.now() - state.startedAt });
  }

  private abortAlignment(state: Aligning, reason: string): BarrierAction {
    this.state = WAITING;
    return { kind: "abort", id: state.barrier.id, reason };
  }

  /** A blocked channel must not be read, so nothing may arrive from it. */
  private checkReadable(channel: number, element: string): void {
    this.channels.checkOpen(channel, element);
    if (this.isBlocked(channel)) {
      throw new BarrierProtocolError(channel, `${element} read from a channel blocked for the alignment of checkpoint ${this.pendingCheckpointId()}`);
    }
  }
}
