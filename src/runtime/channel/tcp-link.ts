/**
 * Channels to a worker in another process (maybe on another host) over one
 * TCP connection: Flink's network shuffle. A `TcpLink` carries every channel
 * between this worker and its peer, both directions, as length-prefixed frames
 * (tcp-frames.ts), in the order they were sent:
 *
 * - Data batches are encoded by a `BatchEncoder` per channel and attempt
 *   (batch-codec.ts), as between threads; events (watermarks, barriers, end of
 *   input) are msgpack frames in the same stream, so they stay in order with
 *   the data of their channel.
 * - Credits: a producer starts an attempt with `capacity` credits per channel
 *   (`REMOTE_CHANNEL_CAPACITY`, as between threads) and spends one per message;
 *   the consumer grants one back for every message it takes (credit frames,
 *   summed per channel). A producer without credit sends nothing: it waits, and
 *   the credit frame wakes it. A consumer's task that sleeps is woken by the
 *   arrival of a message on its empty channel (`onAvailable`).
 * - Frames are collected in one buffer and written once per burst (when the
 *   thread's current run of microtasks ends: at the latest when a task yields
 *   to the event loop), with Nagle's algorithm off.
 * - Every frame says its attempt: the peer drops those of older attempts and
 *   keeps those of a newer one until it deploys it (`replayEarly`).
 *
 * Connections: the worker with the lower index connects to the higher one's
 * server (tcp-data-plane.ts), sends a hello (token, indices, generation) and
 * waits for the welcome; what is sent before the link is connected waits in
 * its buffer (credits bound it). A lost connection fails the channels of the
 * attempt that runs on the link, with an error that names the peer and its
 * address (their tasks fail and the job restarts); the connecting side dials
 * again (with a growing delay), so the next attempt runs over a new connection.
 * A newer connection from the same peer (it was started again) replaces the
 * old one.
 *
 * @example
 * ```ts
 * const link = new TcpLink({ self: 0, peer: 1, token });
 * link.connect("10.0.0.2", 40123);     // the lower index connects; the other side's server calls attach()
 * link.reset(0);
 * const out = link.output(5);
 * if (out.hasCredit()) out.send({ kind: "data", values: [1, 2, 3] });
 * ```
 */
import { connect, type Socket } from "node:net";
import { Packr } from "msgpackr";
import { Counter } from "../../metrics/counter.ts";
import { Fifo } from "../../util/fifo.ts";
import { getLogger } from "../../util/logger.ts";
import { Signal } from "../../util/signal.ts";
import type { ChannelEvent, ChannelMessage } from "../elements.ts";
import { BatchDecoder, BatchEncoder } from "./batch-codec.ts";
import { REMOTE_CHANNEL_CAPACITY, type InputChannel, type OutputChannel } from "./channel.ts";
import type { Link } from "./link.ts";
import { CHANNEL_HEADER, CREDIT, DATA, EVENT, FrameReader, FrameWriter, HELLO, helloBody, REFUSE, WELCOME } from "./tcp-frames.ts";

/** First and longest delay before the connecting side dials again. */
const RETRY_FIRST_MS = 50;
const RETRY_MAX_MS = 2_000;
/** Idle time before TCP keep-alive probes a connection (a peer host that vanished without closing it). */
const KEEP_ALIVE_MS = 10_000;

export interface TcpLinkOptions {
  /** This worker's index. */
  readonly self: number;
  /** The peer worker's index. */
  readonly peer: number;
  /** The secret of the job's links: a hello must carry it. */
  readonly token: string;
}

export class TcpLink implements Link {
  private attempt = -1;
  private socket: Socket | null = null;
  /** The hello was answered: frames may go out. */
  private connected = false;
  private closed = false;
  private reader = new FrameReader();
  private readonly out = new FrameWriter();
  private flushScheduled = false;
  /** Credits owed to the peer's producers of the current attempt, by channel (sent with the next write). */
  private readonly owed = new Map<number, number>();
  private readonly inputs = new Map<number, TcpInputChannel>();
  private readonly outputs = new Map<number, TcpOutputChannel>();
  /** Frames of an attempt this worker has not deployed yet (copies). */
  private early: Buffer[] = [];
  /** The current attempt's channels failed (a lost connection): what else arrives or is sent for it is dropped. */
  private failed = false;
  /** The connecting side: where the peer listens. */
  private target: { host: string; port: number } | null = null;
  private generation = 0;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  /** The peer's address, for errors. */
  private address = "an address not known yet";
  /** Events only (small, rare): no record structures, so no state between frames. */
  private readonly events = new Packr({ useRecords: false, moreTypes: true });
  private readonly flushNow = () => this.flush();

  constructor(private readonly o: TcpLinkOptions) {}

  /** The connecting side (the lower index): connects to the peer's server, replacing the connection it has (the peer was started again). */
  connect(host: string, port: number): void {
    if (this.closed) return;
    this.target = { host, port };
    if (this.socket) this.lost(this.socket, `the connection was replaced: worker ${this.o.peer} listens at ${host}:${port} now`);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryMs = RETRY_FIRST_MS;
    this.dial();
  }

  /**
   * The accepting side: the peer was started again (a new thread or process in its place), so the connection this
   * link has, if any, is its previous one's, which closes when the old one's sockets do: maybe only after the next
   * attempt is deployed here, which would fail that attempt. It is dropped now, before the next attempt (the new
   * peer dials in). What runs here of the current attempt fails, as it would when that connection closed.
   */
  peerReplaced(): void {
    if (this.socket) this.lost(this.socket, `worker ${this.o.peer} was started again`);
  }

  /**
   * The accepting side: the server accepted a hello from the peer on `socket`; `reader` holds what followed it.
   * A connection the link had is replaced (the peer was started again or dialled again).
   */
  attach(socket: Socket, reader: FrameReader, generation: number): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    if (this.socket) this.lost(this.socket, `worker ${this.o.peer} connected again`);
    this.socket = socket;
    this.reader = reader;
    this.address = `${socket.remoteAddress}:${socket.remotePort} (connection ${generation})`;
    this.watch(socket);
    this.connectedLog();
    const welcome = new FrameWriter();
    welcome.control(WELCOME);
    socket.write(welcome.take()!);
    this.connected = true;
    this.read(socket);
    this.schedule();
  }

  reset(attempt: number): void {
    this.attempt = attempt;
    this.failed = false;
    this.owed.clear();
    this.inputs.clear();
    for (const o of this.outputs.values()) o.close();
    this.outputs.clear();
  }

  replayEarly(): void {
    const early = this.early;
    this.early = [];
    for (const f of early) this.frame(f);
  }

  input(id: number): InputChannel {
    const ch = new TcpInputChannel(this, id);
    this.inputs.set(id, ch);
    return ch;
  }

  output(id: number, capacity = REMOTE_CHANNEL_CAPACITY): OutputChannel {
    const ch = new TcpOutputChannel(this, id, capacity);
    this.outputs.set(id, ch);
    return ch;
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.socket?.destroy();
    this.socket = null;
    this.connected = false;
  }

  /** @internal Queues an encoded batch of channel `c` (copied). */
  sendData(c: number, bytes: Uint8Array): void {
    if (this.failed) return;
    this.out.channelFrame(DATA, this.attempt, c, bytes);
    this.schedule();
  }

  /** @internal Queues an event of channel `c`. */
  sendEvent(c: number, e: ChannelEvent): void {
    if (this.failed) return;
    this.out.channelFrame(EVENT, this.attempt, c, this.events.pack(e));
    this.schedule();
  }

  /** @internal The consumer took a message of channel `c`: one credit back to its producer. */
  credit(c: number): void {
    if (this.failed) return;
    this.owed.set(c, (this.owed.get(c) ?? 0) + 1);
    this.schedule();
  }

  private dial(): void {
    const { host, port } = this.target!;
    const generation = ++this.generation;
    this.address = `${host}:${port} (connection ${generation})`;
    const socket = connect({ host, port });
    this.socket = socket;
    this.connected = false;
    this.reader = new FrameReader();
    this.watch(socket);
    socket.on("connect", () => {
      const hello = new FrameWriter();
      hello.control(HELLO, helloBody({ from: this.o.self, to: this.o.peer, generation, token: this.o.token }));
      socket.write(hello.take()!);
    });
  }

  private watch(socket: Socket): void {
    socket.setNoDelay(true);
    socket.setKeepAlive(true, KEEP_ALIVE_MS);
    socket.on("data", (chunk: Buffer) => {
      if (socket !== this.socket) return;
      this.reader.push(chunk);
      this.read(socket);
    });
    socket.on("error", (e) => this.lost(socket, e.message));
    socket.on("close", () => this.lost(socket, `worker ${this.o.peer} closed the connection`));
  }

  /** Handles the whole frames received on `socket`. */
  private read(socket: Socket): void {
    try {
      for (let f = this.reader.next(); f !== undefined && socket === this.socket; f = this.reader.next()) {
        if (this.connected) this.frame(f);
        else if (f[0] === WELCOME) {
          this.connected = true;
          this.retryMs = RETRY_FIRST_MS;
          this.connectedLog();
          this.schedule();
        } else if (f[0] === REFUSE) {
          const reason = `worker ${this.o.peer} at ${this.address} refused the connection of worker ${this.o.self}: ${f.toString("utf8", 1)}`;
          getLogger().warn({ component: "tcp-link", peer: this.o.peer }, reason);
          this.fail(new Error(reason));
          this.lost(socket, reason);
        } else throw new Error(`frame type ${f[0]} before the welcome`);
      }
    } catch (e) {
      this.lost(socket, `protocol error: ${(e as Error).message}`);
    }
  }

  private connectedLog(): void {
    getLogger().debug({ component: "tcp-link", worker: this.o.self, peer: this.o.peer }, `worker ${this.o.self}: TCP link to worker ${this.o.peer} at ${this.address} connected`);
  }

  /** A channel frame of the established connection (or one kept for a later attempt). */
  private frame(f: Buffer): void {
    const type = f[0];
    if (type !== DATA && type !== EVENT && type !== CREDIT) throw new Error(`unknown frame type ${type}`);
    const a = f.readInt32LE(1);
    if (a < this.attempt) return;
    if (a > this.attempt) {
      this.early.push(Buffer.from(f));
      return;
    }
    if (this.failed) return;
    const c = f.readUInt32LE(5);
    if (type === CREDIT) this.outputs.get(c)?.grant(f.readUInt32LE(CHANNEL_HEADER));
    else {
      const ch = this.inputs.get(c);
      if (!ch) return;
      if (type === DATA) ch.arrive(ch.decode(f.subarray(CHANNEL_HEADER)));
      else ch.arrive(this.events.unpack(f.subarray(CHANNEL_HEADER)) as ChannelEvent);
    }
  }

  /**
   * `socket` closed or failed. If it was connected and the current attempt has channels here,
   * they fail (what was on the way is lost). The connecting side dials again.
   */
  private lost(socket: Socket, why: string): void {
    if (socket !== this.socket) return;
    const wasConnected = this.connected;
    this.socket = null;
    this.connected = false;
    socket.destroy();
    if (wasConnected) {
      if (this.inputs.size + this.outputs.size > 0)
        this.fail(new Error(`worker ${this.o.self} lost its connection to worker ${this.o.peer} at ${this.address} in attempt ${this.attempt}: ${why}`));
      this.out.clear();
      this.owed.clear();
    }
    if (this.target && !this.closed) {
      if (!wasConnected && this.retryMs === RETRY_FIRST_MS)
        getLogger().warn({ component: "tcp-link", worker: this.o.self, peer: this.o.peer }, `worker ${this.o.self} cannot reach worker ${this.o.peer} at ${this.address}: ${why}; trying again`);
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (!this.socket && !this.closed) this.dial();
      }, this.retryMs);
      this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
    }
  }

  /** The current attempt's channels fail with `error`: their tasks see it at their next poll or send. */
  private fail(error: Error): void {
    if (this.failed || this.inputs.size + this.outputs.size === 0) return;
    this.failed = true;
    this.out.clear();
    this.owed.clear();
    for (const i of this.inputs.values()) i.fail(error);
    for (const o of this.outputs.values()) o.fail(error);
  }

  private schedule(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    process.nextTick(this.flushNow);
  }

  /** Writes the frames and credits collected since the last write, once connected. */
  private flush(): void {
    this.flushScheduled = false;
    if (!this.connected) return;
    for (const [c, n] of this.owed) this.out.credit(this.attempt, c, n);
    this.owed.clear();
    const bytes = this.out.take();
    if (bytes) this.socket!.write(bytes);
  }
}

class TcpOutputChannel implements OutputChannel {
  /** Its encoder refuses what is not plain data (batch-codec.ts). */
  readonly refusesNonPlainData = true;
  private readonly creditSignal = new Signal();
  private readonly encoder = new BatchEncoder();
  private bytes = new Counter();
  private closed = false;
  private failure: Error | null = null;

  constructor(private readonly link: TcpLink, private readonly id: number, private credits: number) {}

  /** True also when the link failed: `send` then throws its error. */
  hasCredit(): boolean {
    return this.closed || this.failure !== null || this.credits > 0;
  }

  whenCredit(): Promise<void> {
    return this.hasCredit() ? Promise.resolve() : this.creditSignal.wait();
  }

  send(message: ChannelMessage): void {
    if (this.closed) return;
    if (this.failure) throw this.failure;
    if (message.kind === "data") {
      const bytes = this.encoder.encode(message.values, message.timestamps);
      this.credits--;
      this.bytes.count += bytes.length;
      this.link.sendData(this.id, bytes);
    } else {
      this.credits--;
      this.link.sendEvent(this.id, message);
    }
  }

  countBytes(counter: Counter): void {
    this.bytes = counter;
  }

  grant(n: number): void {
    this.credits += n;
    this.creditSignal.notify();
  }

  fail(error: Error): void {
    this.failure = error;
    this.creditSignal.notify();
  }

  close(): void {
    this.closed = true;
    this.creditSignal.notify();
  }
}

class TcpInputChannel implements InputChannel {
  private readonly queue = new Fifo<ChannelMessage>();
  private readonly decoder = new BatchDecoder();
  private bytes = new Counter();
  private failure: Error | null = null;
  onAvailable: (() => void) | null = null;

  constructor(private readonly link: TcpLink, private readonly id: number) {}

  decode(b: Buffer): ChannelMessage {
    this.bytes.count += b.length;
    const { values, timestamps } = this.decoder.decode(b, b.length);
    return timestamps ? { kind: "data", values, timestamps } : { kind: "data", values };
  }

  arrive(message: ChannelMessage): void {
    const wasEmpty = this.queue.size === 0;
    this.queue.push(message);
    if (wasEmpty) this.onAvailable?.();
  }

  /** @throws the link's error once it failed */
  poll(): ChannelMessage | undefined {
    if (this.failure) throw this.failure;
    const m = this.queue.shift();
    if (m) this.link.credit(this.id);
    return m;
  }

  /** True also when the link failed (so the task polls, and fails). */
  hasMessage(): boolean {
    return this.queue.size > 0 || this.failure !== null;
  }

  queued(): number {
    return this.queue.size;
  }

  countBytes(counter: Counter): void {
    this.bytes = counter;
  }

  fail(error: Error): void {
    this.failure = error;
    this.queue.clear();
    this.onAvailable?.();
  }
}
