/**
 * The consumer side of a task: its input channels, read round-robin, skipping
 * channels that the barrier handler blocks (alignment) and channels that have
 * ended. Wakes the task when a message arrives.
 */
import type { CheckpointBarrierHandler } from "../../checkpoint/barrier/index.ts";
import type { ChannelMessage } from "../elements.ts";
import type { InputChannel } from "./channel.ts";

export class InputGate {
  private readonly ended: boolean[];
  private endedCount = 0;
  private readonly dataEnded: boolean[];
  private dataEndedCount = 0;
  private cursor = 0;
  private handler: CheckpointBarrierHandler | null = null;

  /** @param onAvailable called when a message arrives on an empty channel */
  constructor(readonly channels: readonly InputChannel[], onAvailable: () => void) {
    this.ended = channels.map(() => false);
    this.dataEnded = channels.map(() => false);
    for (const c of channels) c.onAvailable = onAvailable;
  }

  /** The handler consulted for blocked channels. */
  setBarrierHandler(handler: CheckpointBarrierHandler): void {
    this.handler = handler;
  }

  /** The next message of a readable channel, with the channel's index, or undefined. */
  next(): { channel: number; message: ChannelMessage } | undefined {
    const n = this.channels.length;
    for (let k = 0; k < n; k++) {
      const i = (this.cursor + k) % n;
      if (this.ended[i] || this.handler?.isBlocked(i)) continue;
      const message = this.channels[i]!.poll();
      if (message) {
        this.cursor = (i + 1) % n;
        return { channel: i, message };
      }
    }
    return undefined;
  }

  /** True if `next()` would return a message. */
  hasMessage(): boolean {
    for (let i = 0; i < this.channels.length; i++)
      if (!this.ended[i] && !this.handler?.isBlocked(i) && this.channels[i]!.hasMessage()) return true;
    return false;
  }

  /** Records that channel `i` delivered end of data (it stays open for barriers). */
  markEndOfData(i: number): void {
    if (!this.dataEnded[i]) {
      this.dataEnded[i] = true;
      this.dataEndedCount++;
    }
  }

  /** True when every channel delivered end of data. */
  allEndOfData(): boolean {
    return this.dataEndedCount === this.channels.length;
  }

  /** Records that channel `i` delivered end of input. */
  markEnded(i: number): void {
    if (!this.ended[i]) {
      this.ended[i] = true;
      this.endedCount++;
    }
  }

  /** True when every channel delivered end of input. */
  allEnded(): boolean {
    return this.endedCount === this.channels.length;
  }

  /** Messages queued over all channels (backpressure metric). */
  queued(): number {
    let q = 0;
    for (const c of this.channels) q += c.queued();
    return q;
  }
}
