import type { CancelCheckpointMarker, CheckpointBarrier } from "../types.ts";
import { AbortedAhead } from "./aborted-ahead.ts";
import { type BarrierAction, type BarrierDecision, type CheckpointBarrierHandler, NO_ACTION } from "./barrier-handler.ts";
import { BarrierProtocolError } from "./barrier-protocol-error.ts";
import type { InputChannels } from "./input-channels.ts";

/** One checkpoint whose barriers are being counted. */
interface TrackedCheckpoint {
  readonly id: number;
  /** First barrier of the checkpoint; absent when only cancel markers arrived. */
  barrier: CheckpointBarrier | undefined;
  /** 1 for each channel that delivered a barrier or cancel marker of this checkpoint. */
  readonly delivered: Uint8Array;
  /** Channels that delivered a marker or ended. */
  aligned: number;
  /** Aborted here by a cancel marker: counted to the end, never triggered. */
  aborted: boolean;
}

/**
 * At-least-once / at-most-once barrier handling (Flink's `CheckpointBarrierTracker`):
 * never blocks a channel, only counts. Checkpoint n triggers (alignmentMs 0) when
 * every channel that has not ended delivered barrier n. Several checkpoints may be
 * in flight; when n completes, older incomplete ones are aborted and forgotten,
 * and later barriers of forgotten ids are ignored. A cancel marker aborts its
 * checkpoint (once); its channel counts as delivered so the entry is forgotten
 * once every channel has sent its barrier or marker. A checkpoint the
 * coordinator aborted is forgotten at once, and never triggers.
 */
export class BarrierTracker implements CheckpointBarrierHandler {
  /** Checkpoints in flight, ascending by id. */
  private readonly pending: TrackedCheckpoint[] = [];
  /** Highest checkpoint id seen in a barrier or cancel marker. */
  private latestId = -1;
  /** Aborted by the coordinator before any of their barriers arrived. */
  private readonly abortedAhead = new AbortedAhead();

  constructor(private readonly channels: InputChannels) {}

  processBarrier(channel: number, barrier: CheckpointBarrier): BarrierDecision {
    this.channels.checkOpen(channel, `barrier ${barrier.id}`);
    const entry = this.entryFor(barrier.id);
    if (entry === undefined) return NO_ACTION; // stale: completed, aborted or forgotten
    entry.barrier ??= barrier;
    return this.deliver(entry, channel, `barrier ${barrier.id}`, []);
  }

  processCancel(channel: number, marker: CancelCheckpointMarker): BarrierDecision {
    this.channels.checkOpen(channel, `cancel marker ${marker.id}`);
    const entry = this.entryFor(marker.id);
    if (entry === undefined) return NO_ACTION;
    const actions: BarrierAction[] = [];
    if (!entry.aborted) {
      entry.aborted = true;
      actions.push({ kind: "abort", id: marker.id, reason: `cancel marker for checkpoint ${marker.id} arrived on input channel ${channel}` });
    }
    return this.deliver(entry, channel, `cancel marker ${marker.id}`, actions);
  }

  processEndOfInput(channel: number): BarrierDecision {
    this.channels.markEnded(channel);
    const snapshot = this.pending.slice();
    for (const entry of snapshot) if (entry.delivered[channel] === 0) entry.aligned++;
    const actions: BarrierAction[] = [];
    for (const entry of snapshot) {
      if (entry.aligned === this.channels.count && this.pending.includes(entry)) this.complete(entry, actions);
    }
    return actions;
  }

  isBlocked(_channel: number): boolean {
    return false;
  }

  pendingCheckpointId(): number {
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const entry = this.pending[i]!;
      if (!entry.aborted) return entry.id;
    }
    return -1;
  }

  checkpointAborted(id: number): void {
    const index = this.pending.findIndex((e) => e.id === id);
    if (index >= 0) this.pending.splice(index, 1);
    else if (id > this.latestId) this.abortedAhead.add(id);
  }

  /** The entry of checkpoint `id`, created if `id` is new; undefined if `id` is stale or was aborted by the coordinator. */
  private entryFor(id: number): TrackedCheckpoint | undefined {
    if (id <= this.latestId) return this.pending.find((e) => e.id === id);
    this.latestId = id;
    if (this.abortedAhead.reach(id)) return undefined;
    const entry: TrackedCheckpoint = {
      id,
      barrier: undefined,
      delivered: new Uint8Array(this.channels.count),
      aligned: this.channels.endedCount,
      aborted: false,
    };
    this.pending.push(entry);
    return entry;
  }

  private deliver(entry: TrackedCheckpoint, channel: number, element: string, actions: BarrierAction[]): BarrierDecision {
    if (entry.delivered[channel] === 1) {
      throw new BarrierProtocolError(channel, `${element} after a barrier or cancel marker of the same checkpoint on this channel`);
    }
    entry.delivered[channel] = 1;
    entry.aligned++;
    if (entry.aligned === this.channels.count) this.complete(entry, actions);
    return actions;
  }

  /** Every open channel delivered `entry`'s marker: forget it and every older one, trigger it unless aborted. */
  private complete(entry: TrackedCheckpoint, actions: BarrierAction[]): void {
    const removed = this.pending.splice(0, this.pending.indexOf(entry) + 1);
    removed.pop();
    for (const older of removed) {
      if (older.aborted) continue;
      older.aborted = true;
      actions.push({
        kind: "abort",
        id: older.id,
        reason: `barriers of newer checkpoint ${entry.id} arrived on every input channel before those of checkpoint ${older.id}`,
      });
    }
    if (!entry.aborted && entry.barrier !== undefined) actions.push({ kind: "trigger", barrier: entry.barrier, alignmentMs: 0 });
  }
}
