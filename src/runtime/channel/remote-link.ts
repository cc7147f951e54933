/**
 * Channels between subtasks in different threads. One `RemoteLink` joins two
 * threads and carries every channel that crosses between them, in order, per
 * direction:
 *
 * - Data batches are encoded by a `BatchEncoder` (batch-codec.ts: a compact
 *   form for records of a few shapes, msgpackr for the others; one encoder and
 *   decoder per channel and attempt) and written
 *   into a shared ring (`SharedRing`, one per direction): no message, no
 *   buffer transfer, and the reader finds them without waiting for its event
 *   loop. A batch that does not fit in the ring's free space, and every event
 *   (watermark, barrier, end of input), goes through the link's MessagePort
 *   instead. Every message of a direction has a sequence number, and the
 *   reader takes them in that order from whichever of the two holds the next.
 * - Credits are counters in shared memory: per channel, the consumer counts
 *   the batches it took and the producer reads that count, so a producer sees
 *   a freed slot at once, whatever its peer thread is doing.
 * - Wake-ups are the only messages of the steady state, and only for a task
 *   that sleeps: a consumer whose channel is empty raises the channel's
 *   consumer flag before it sleeps, and the producer that writes a batch of
 *   that channel into the ring clears it and posts a wake-up; a producer out
 *   of credit raises its channel's producer flag and the consumer that frees
 *   a slot posts one. Each side raises its flag, then looks again, so a
 *   wake-up is never lost. The flags are per channel, not per ring: several
 *   tasks of a thread read channels of the same ring and sleep independently,
 *   and the wake-up that one of them gets (its thread then takes what the
 *   ring holds) must not use up another's, whose batch is written later.
 *
 * A thread yields to its event loop only every few milliseconds, so a consumer
 * whose channel is empty takes what the ring and the port hold at once
 * (`pump`, with `receiveMessageOnPort`) before it concludes that nothing is there.
 */
import { Counter } from "../../metrics/counter.ts";
import { receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import type { ChannelEvent, ChannelMessage } from "../elements.ts";
import { REMOTE_CHANNEL_CAPACITY, type InputChannel, type OutputChannel } from "./channel.ts";
import type { Link } from "./link.ts";
import { SharedRing } from "./shared-ring.ts";
import { BatchDecoder, BatchEncoder } from "./batch-codec.ts";
import { Signal } from "../../util/signal.ts";
import { Fifo } from "../../util/fifo.ts";

/** What crosses the port. `s`: sequence number of the message in its direction (data and events only). */
type PortMessage =
  | { t: "d"; s: number; a: number; c: number; b: Uint8Array }
  | { t: "e"; s: number; a: number; c: number; e: ChannelEvent }
  /** Wakes the producer of channel `c`, asleep for lack of credit. */
  | { t: "w"; a: number; c: number }
  /** Wakes the reader of the sender's ring: a consumer of a channel the sender just wrote a batch of sleeps. */
  | { t: "r" };

/** Kind of the ring's entries: an encoded batch (it says itself whether it has timestamps). */
const DATA = 0;

/** Bytes of entries in each direction's ring; a batch that does not fit goes through the port. */
export const RING_BYTES = 1 << 20;

/**
 * Int32 slots per channel in the shared credits: batches taken by the consumer, producer asleep
 * (1, waiting for credit) or not (0), consumer asleep (1, waiting for a batch) or not (0).
 */
const SLOTS = 3;
const TAKEN = 0;
const PRODUCER_ASLEEP = 1;
const CONSUMER_ASLEEP = 2;

/** What each end of a link holds: the port to the other thread and the shared memory of both. */
export interface LinkEnd {
  readonly port: MessagePort;
  /** Credit counters ({@link SLOTS} per plan channel), the same buffer at both ends. */
  readonly credits: SharedArrayBuffer;
  /** The ring this end writes (the other end reads it). */
  readonly outRing: SharedArrayBuffer;
  /** The ring this end reads. */
  readonly inRing: SharedArrayBuffer;
}

/**
 * The shared memory of a link whose channel ids are below `channels` (the
 * plan's channel count), and the ports: `[end of thread a, end of thread b]`.
 */
export function createLinkEnds(channels: number, port1: MessagePort, port2: MessagePort, ringBytes = RING_BYTES): [LinkEnd, LinkEnd] {
  const credits = new SharedArrayBuffer(Math.max(1, channels) * SLOTS * Int32Array.BYTES_PER_ELEMENT);
  const ab = SharedRing.allocate(ringBytes);
  const ba = SharedRing.allocate(ringBytes);
  return [
    { port: port1, credits, outRing: ab, inRing: ba },
    { port: port2, credits, outRing: ba, inRing: ab },
  ];
}

/** Both directions of the channels between this thread and one other thread. */
export class RemoteLink implements Link {
  private attempt = -1;
  private readonly port: MessagePort;
  /** @internal The shared credit counters (see {@link SLOTS}). */
  readonly counters: Int32Array;
  private readonly out: SharedRing;
  private readonly in: SharedRing;
  private sendSeq = 0;
  private receiveSeq = 0;
  /** Data and events taken from the port so far (compared with the writer's count in the ring). */
  private takenAside = 0;
  /** Data and events that came through the port, in sequence order, not taken yet. */
  private readonly fromPort = new Fifo<Extract<PortMessage, { s: number }>>();
  /** Where a ring entry's payload is copied for decoding (grown as needed). */
  private scratch = new Uint8Array(1 << 16);
  private readonly inputs = new Map<number, RemoteInputChannel>();
  private readonly outputs = new Map<number, RemoteOutputChannel>();
  /** Producer wake-ups of an attempt this thread has not deployed yet (the peer was faster). */
  private early: Extract<PortMessage, { t: "w" }>[] = [];

  constructor(end: LinkEnd) {
    this.port = end.port;
    this.counters = new Int32Array(end.credits);
    this.out = new SharedRing(end.outRing);
    this.in = new SharedRing(end.inRing);
    this.port.on("message", (m: PortMessage) => {
      this.receive(m);
      this.drain();
    });
  }

  /** Forgets every channel of the previous attempt; its messages still on the way are dropped. */
  reset(attempt: number): void {
    this.attempt = attempt;
    this.inputs.clear();
    for (const o of this.outputs.values()) o.close();
    this.outputs.clear();
  }

  /** Delivers what arrived for the current attempt before `reset`; call after creating its channels. */
  replayEarly(): void {
    const early = this.early;
    this.early = [];
    for (const m of early) this.receive(m);
    this.pump();
  }

  /** The consumer end of channel `id` (this thread consumes). */
  input(id: number): InputChannel {
    const ch = new RemoteInputChannel(this, id);
    this.inputs.set(id, ch);
    return ch;
  }

  /** The producer end of channel `id` (this thread produces). */
  output(id: number, capacity = REMOTE_CHANNEL_CAPACITY): OutputChannel {
    const ch = new RemoteOutputChannel(this, id, capacity);
    this.outputs.set(id, ch);
    return ch;
  }

  /** @internal Sends an encoded batch of channel `c`: into the ring if it fits, else through the port. */
  sendData(c: number, bytes: Uint8Array): void {
    const s = this.sendSeq;
    this.sendSeq = (s + 1) | 0;
    const a = this.attempt;
    if (this.out.write(s, c, a, DATA, bytes)) {
      if (takeFlag(this.counters, c * SLOTS + CONSUMER_ASLEEP)) this.port.postMessage({ t: "r" } satisfies PortMessage);
      return;
    }
    const b = new Uint8Array(bytes);
    this.port.postMessage({ t: "d", s, a, c, b } satisfies PortMessage, [b.buffer]);
    this.out.noteAside();
  }

  /** @internal Sends an event of channel `c` (through the port, in sequence with the data). */
  sendEvent(c: number, e: ChannelEvent): void {
    const s = this.sendSeq;
    this.sendSeq = (s + 1) | 0;
    this.port.postMessage({ t: "e", s, a: this.attempt, c, e } satisfies PortMessage);
    this.out.noteAside();
  }

  /** @internal Wakes the producer of channel `c` in the other thread. */
  wakeProducer(c: number): void {
    this.port.postMessage({ t: "w", a: this.attempt, c } satisfies PortMessage);
  }

  /**
   * @internal Takes every batch and event that already arrived, from the ring and the port,
   * without waiting for the event loop. The port is read only when the other thread sent
   * something through it (wake-ups alone wait for the event loop: they are for a sleeping task).
   */
  pump(): void {
    if (this.in.aside() !== this.takenAside)
      for (let r = receiveMessageOnPort(this.port); r !== undefined; r = receiveMessageOnPort(this.port)) this.receive(r.message as PortMessage);
    this.drain();
  }

  /** @internal Asks the other thread to wake this one when it writes a batch of channel `c` (its consumer may go to sleep). */
  sleep(c: number): void {
    Atomics.store(this.counters, c * SLOTS + CONSUMER_ASLEEP, 1);
    // Look again after raising the flag: an entry written before the writer saw it gets no wake-up.
    if (this.in.hasEntry()) this.pump();
  }

  close(): void {
    this.port.close();
  }

  /** Handles a port message: wake-ups at once, data and events queued for `drain` (in sequence order). */
  private receive(m: PortMessage): void {
    switch (m.t) {
      case "w":
        if (m.a > this.attempt) this.early.push(m);
        else if (m.a === this.attempt) this.outputs.get(m.c)?.wake();
        return;
      case "r":
        return;
      default:
        this.takenAside = (this.takenAside + 1) | 0;
        this.fromPort.push(m);
    }
  }

  /**
   * Delivers data and events in sequence order, from the ring or the port,
   * until the next one has not arrived or belongs to an attempt this thread
   * has not deployed yet; those of older attempts are dropped.
   */
  private drain(): void {
    for (;;) {
      const seq = this.receiveSeq;
      const p = this.fromPort.peek();
      if (p !== undefined && p.s === seq) {
        if (p.a > this.attempt) return;
        this.fromPort.shift();
        if (p.a === this.attempt) {
          const ch = this.inputs.get(p.c);
          if (p.t === "e") ch?.arrive(p.e);
          else if (ch) ch.arrive(ch.decode(p.b, p.b.length));
        }
      } else {
        const e = this.in.peek();
        if (e === undefined) return;
        if (e.seq !== seq) {
          // The next message went through the port; it was posted before this entry was written, so it is there.
          const r = receiveMessageOnPort(this.port);
          if (r === undefined) throw new Error(`remote link: message ${seq} is neither in the ring nor in the port`);
          this.receive(r.message as PortMessage);
          continue;
        }
        if (e.attempt > this.attempt) return;
        if (e.attempt === this.attempt) {
          const ch = this.inputs.get(e.channel);
          if (ch) {
            const n = e.payload.length;
            if (n > this.scratch.length) this.scratch = new Uint8Array(2 ** Math.ceil(Math.log2(n)));
            this.scratch.set(e.payload);
            this.in.consume();
            ch.arrive(ch.decode(this.scratch, n));
          } else this.in.consume();
        } else this.in.consume();
      }
      this.receiveSeq = (seq + 1) | 0;
    }
  }
}

class RemoteOutputChannel implements OutputChannel {
  /** Its encoder refuses what is not plain data (batch-codec.ts). */
  readonly refusesNonPlainData = true;
  private readonly creditSignal = new Signal();
  private readonly encoder = new BatchEncoder();
  private closed = false;
  private bytes = new Counter();
  /** Batches sent, and the consumer's count when this channel was created (both wrap as int32). */
  private sent = 0;
  private readonly base: number;
  private readonly taken: number;
  private readonly producerAsleep: number;

  constructor(private readonly link: RemoteLink, private readonly id: number, private readonly capacity: number) {
    this.taken = id * SLOTS + TAKEN;
    this.producerAsleep = id * SLOTS + PRODUCER_ASLEEP;
    this.base = Atomics.load(link.counters, this.taken);
    Atomics.store(link.counters, this.producerAsleep, 0);
  }

  hasCredit(): boolean {
    if (this.closed) return true;
    const takenSince = (Atomics.load(this.link.counters, this.taken) - this.base) | 0;
    return ((this.sent - takenSince) | 0) < this.capacity;
  }

  whenCredit(): Promise<void> {
    if (this.hasCredit()) return Promise.resolve();
    // Raise the flag, then look again: the consumer takes a batch and then reads the flag, so one of the two sees the other.
    Atomics.store(this.link.counters, this.producerAsleep, 1);
    if (this.hasCredit()) {
      Atomics.store(this.link.counters, this.producerAsleep, 0);
      return Promise.resolve();
    }
    return this.creditSignal.wait();
  }

  send(message: ChannelMessage): void {
    if (this.closed) return;
    if (message.kind === "data") {
      // the encoder's buffer is reused by the next batch (sendData copies the bytes before that)
      const bytes = this.encoder.encode(message.values, message.timestamps);
      this.sent = (this.sent + 1) | 0;
      this.bytes.count += bytes.length;
      this.link.sendData(this.id, bytes);
    } else {
      this.sent = (this.sent + 1) | 0;
      this.link.sendEvent(this.id, message);
    }
  }

  countBytes(counter: Counter): void {
    this.bytes = counter;
  }

  wake(): void {
    this.creditSignal.notify();
  }

  close(): void {
    this.closed = true;
    this.creditSignal.notify();
  }
}

class RemoteInputChannel implements InputChannel {
  private readonly queue = new Fifo<ChannelMessage>();
  private readonly decoder = new BatchDecoder();
  private bytes = new Counter();
  private readonly taken: number;
  private readonly producerAsleep: number;
  onAvailable: (() => void) | null = null;

  constructor(private readonly link: RemoteLink, private readonly id: number) {
    this.taken = id * SLOTS + TAKEN;
    this.producerAsleep = id * SLOTS + PRODUCER_ASLEEP;
  }

  /** Decodes the first `length` bytes of `bytes` (a batch of this channel). */
  decode(bytes: Uint8Array, length: number): ChannelMessage {
    this.bytes.count += length;
    const { values, timestamps } = this.decoder.decode(bytes, length);
    return timestamps ? { kind: "data", values, timestamps } : { kind: "data", values };
  }

  arrive(message: ChannelMessage): void {
    const wasEmpty = this.queue.size === 0;
    this.queue.push(message);
    if (wasEmpty) this.onAvailable?.();
  }

  poll(): ChannelMessage | undefined {
    if (this.queue.size === 0) this.link.pump();
    const m = this.queue.shift();
    if (!m) return undefined;
    const counters = this.link.counters;
    Atomics.add(counters, this.taken, 1);
    if (takeFlag(counters, this.producerAsleep)) this.link.wakeProducer(this.id);
    return m;
  }

  /** Called before the task sleeps: if nothing has arrived, it also asks the producer's thread for a wake-up. */
  hasMessage(): boolean {
    if (this.queue.size === 0) {
      this.link.pump();
      if (this.queue.size === 0) this.link.sleep(this.id);
    }
    return this.queue.size > 0;
  }

  queued(): number {
    return this.queue.size;
  }

  countBytes(counter: Counter): void {
    this.bytes = counter;
  }
}

/** Clears the flag at `slot` of `counters`; true if it was raised (the caller must then wake who raised it). */
function takeFlag(counters: Int32Array, slot: number): boolean {
  return Atomics.load(counters, slot) === 1 && Atomics.compareExchange(counters, slot, 1, 0) === 1;
}
