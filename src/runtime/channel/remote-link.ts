/**
 * Channels between subtasks in different threads. One `RemoteLink` wraps the
 * MessagePort between two threads and multiplexes every channel that crosses
 * between them. Data batches are encoded with msgpackr (records mode,
 * sequential structures, one encoder/decoder pair per channel and attempt) into
 * one transferred buffer per batch; events travel as small cloned objects in
 * the same ordered port; credits flow back the other way.
 */
import type { MessagePort } from "node:worker_threads";
import { Packr, Unpackr } from "msgpackr";
import type { ChannelMessage } from "../elements.ts";
import { DEFAULT_CHANNEL_CAPACITY, type InputChannel, type OutputChannel } from "./channel.ts";
import { Signal } from "../../util/signal.ts";
import { Fifo } from "../../util/fifo.ts";

type LinkMessage =
  | { t: "d"; a: number; c: number; b: Uint8Array; ts?: true }
  | { t: "e"; a: number; c: number; e: ChannelMessage }
  | { t: "c"; a: number; c: number; n: number };

/**
 * Fresh options for each encoder or decoder: msgpackr keeps its record-structure
 * table in the options object it is given, so a shared object would make every
 * channel of the thread share (and corrupt) one table.
 */
const codecOptions = () => ({ sequential: true, useRecords: true, moreTypes: true });

/** Both directions of the channels between this thread and one other thread. */
export class RemoteLink {
  private attempt = -1;
  private readonly inputs = new Map<number, RemoteInputChannel>();
  private readonly outputs = new Map<number, RemoteOutputChannel>();
  /** Messages of an attempt this thread has not deployed yet (the peer was faster). */
  private early: LinkMessage[] = [];

  constructor(private readonly port: MessagePort) {
    port.on("message", (m: LinkMessage) => this.receive(m));
  }

  /** Forgets every channel of the previous attempt; messages of older attempts are dropped. */
  reset(attempt: number): void {
    this.attempt = attempt;
    this.inputs.clear();
    for (const o of this.outputs.values()) o.close();
    this.outputs.clear();
  }

  /** Delivers the messages of the current attempt that arrived before `reset`; call after creating its channels. */
  replayEarly(): void {
    const early = this.early;
    this.early = [];
    for (const m of early) if (m.a >= this.attempt) this.receive(m);
  }

  /** The consumer end of channel `id` (this thread consumes). */
  input(id: number, capacity = DEFAULT_CHANNEL_CAPACITY): InputChannel {
    const ch = new RemoteInputChannel(this, id, capacity);
    this.inputs.set(id, ch);
    return ch;
  }

  /** The producer end of channel `id` (this thread produces). */
  output(id: number, capacity = DEFAULT_CHANNEL_CAPACITY): OutputChannel {
    const ch = new RemoteOutputChannel(this, id, capacity);
    this.outputs.set(id, ch);
    return ch;
  }

  /** @internal */
  post(m: LinkMessage, transfer?: ArrayBuffer[]): void {
    this.port.postMessage(m, transfer);
  }

  /** @internal */
  currentAttempt(): number {
    return this.attempt;
  }

  close(): void {
    this.port.close();
  }

  private receive(m: LinkMessage): void {
    if (m.a > this.attempt) {
      this.early.push(m);
      return;
    }
    if (m.a !== this.attempt) return;
    if (m.t === "c") this.outputs.get(m.c)?.grant(m.n);
    else this.inputs.get(m.c)?.arrive(m);
  }
}

class RemoteOutputChannel implements OutputChannel {
  private credits: number;
  private readonly creditSignal = new Signal();
  private readonly packr = new Packr(codecOptions());
  private closed = false;

  constructor(private readonly link: RemoteLink, private readonly id: number, capacity: number) {
    this.credits = capacity;
  }

  hasCredit(): boolean {
    return this.credits > 0 || this.closed;
  }

  whenCredit(): Promise<void> {
    return this.hasCredit() ? Promise.resolve() : this.creditSignal.wait();
  }

  send(message: ChannelMessage): void {
    if (this.closed) return;
    this.credits--;
    const a = this.link.currentAttempt();
    if (message.kind === "data") {
      const t = message.timestamps;
      const bytes = new Uint8Array(this.packr.pack(t ? [message.values, t] : message.values));
      this.link.post(t ? { t: "d", a, c: this.id, b: bytes, ts: true } : { t: "d", a, c: this.id, b: bytes }, [bytes.buffer as ArrayBuffer]);
    } else {
      this.link.post({ t: "e", a, c: this.id, e: message });
    }
  }

  grant(n: number): void {
    this.credits += n;
    this.creditSignal.notify();
  }

  close(): void {
    this.closed = true;
    this.creditSignal.notify();
  }
}

class RemoteInputChannel implements InputChannel {
  private readonly queue = new Fifo<ChannelMessage>();
  private readonly unpackr = new Unpackr(codecOptions());
  onAvailable: (() => void) | null = null;

  constructor(private readonly link: RemoteLink, private readonly id: number, readonly capacity: number) {}

  arrive(m: LinkMessage): void {
    let message: ChannelMessage;
    if (m.t !== "d") message = (m as { e: ChannelMessage }).e;
    else if (m.ts) {
      const [values, timestamps] = this.unpackr.unpack(m.b) as [unknown[], number[]];
      message = { kind: "data", values, timestamps };
    } else message = { kind: "data", values: this.unpackr.unpack(m.b) as unknown[] };
    const wasEmpty = this.queue.size === 0;
    this.queue.push(message);
    if (wasEmpty) this.onAvailable?.();
  }

  poll(): ChannelMessage | undefined {
    const m = this.queue.shift();
    if (!m) return undefined;
    this.link.post({ t: "c", a: this.link.currentAttempt(), c: this.id, n: 1 });
    return m;
  }

  hasMessage(): boolean {
    return this.queue.size > 0;
  }

  queued(): number {
    return this.queue.size;
  }
}
