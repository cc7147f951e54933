/**
 * A channel between two subtasks of the same thread: a bounded queue of
 * message objects. No encoding; the consumer sees the producer's batch object.
 */
import type { ChannelMessage } from "../elements.ts";
import { DEFAULT_CHANNEL_CAPACITY, type InputChannel, type OutputChannel } from "./channel.ts";
import { Signal } from "../../util/signal.ts";
import { Fifo } from "../../util/fifo.ts";

export class LocalChannel implements InputChannel, OutputChannel {
  private readonly queue = new Fifo<ChannelMessage>();
  private readonly creditSignal = new Signal();
  private closed = false;
  onAvailable: (() => void) | null = null;

  constructor(private readonly capacity = DEFAULT_CHANNEL_CAPACITY) {}

  hasCredit(): boolean {
    return this.closed || this.queue.size < this.capacity;
  }

  whenCredit(): Promise<void> {
    return this.hasCredit() ? Promise.resolve() : this.creditSignal.wait();
  }

  send(message: ChannelMessage): void {
    if (this.closed) return;
    const wasEmpty = this.queue.size === 0;
    this.queue.push(message);
    if (wasEmpty) this.onAvailable?.();
  }

  poll(): ChannelMessage | undefined {
    const m = this.queue.shift();
    if (m) this.creditSignal.notify();
    return m;
  }

  hasMessage(): boolean {
    return this.queue.size > 0;
  }

  queued(): number {
    return this.queue.size;
  }

  close(): void {
    this.closed = true;
    this.queue.clear();
    this.creditSignal.notify();
  }
}
