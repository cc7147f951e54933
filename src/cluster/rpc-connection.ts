/**
 * The job manager's RPC with its task managers: length-prefixed msgpack
 * frames over one TCP connection (a 4-byte big-endian length, then the
 * message). Each connection has its own encoder and decoder with a fresh
 * options object (msgpackr keeps state in it); maps, not records, so that
 * either end can start and stop without shared structure state.
 */
import type { Socket } from "node:net";
import { Packr, Unpackr } from "msgpackr";

/** Largest frame accepted (a job bundle travels in one). */
const MAX_FRAME = 256 * 1024 * 1024;

/**
 * @example
 * ```ts
 * const rpc = new RpcConnection<Out, In>(socket);
 * rpc.onMessage((m) => console.log(m));
 * rpc.send({ type: "heartbeat" });
 * ```
 */
export class RpcConnection<Out, In> {
  private readonly packr = new Packr({ useRecords: false, moreTypes: true });
  private readonly unpackr = new Unpackr({ useRecords: false, moreTypes: true });
  private pending: Buffer = Buffer.alloc(0);
  private handler: ((m: In) => void) | undefined;
  private closed = false;
  private readonly closeHandlers: ((error?: Error) => void)[] = [];

  constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    socket.on("error", (e) => this.end(e));
    socket.on("close", () => this.end());
  }

  /** Sets the receiver of every message (one receiver). */
  onMessage(handler: (m: In) => void): void {
    this.handler = handler;
  }

  /** Called once when the connection closes (an error, the peer, or `close()`). */
  onClose(handler: (error?: Error) => void): void {
    if (this.closed) handler();
    else this.closeHandlers.push(handler);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends a message; dropped once the connection is closed. */
  send(m: Out): void {
    if (this.closed) return;
    const body = this.packr.pack(m);
    const header = Buffer.allocUnsafe(4);
    header.writeUInt32BE(body.length, 0);
    this.socket.write(Buffer.concat([header, body]));
  }

  /** Closes the connection (at once: a peer that is gone must not delay it). */
  close(): void {
    this.socket.destroy();
    this.end();
  }

  private receive(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 4) {
      const length = this.pending.readUInt32BE(0);
      if (length > MAX_FRAME) {
        this.socket.destroy();
        this.end(new Error(`RPC frame of ${length} bytes is larger than ${MAX_FRAME}`));
        return;
      }
      if (this.pending.length < 4 + length) return;
      const body = this.pending.subarray(4, 4 + length);
      this.pending = this.pending.subarray(4 + length);
      let message: In;
      try {
        message = this.unpackr.unpack(body) as In;
      } catch (e) {
        this.socket.destroy();
        this.end(e as Error);
        return;
      }
      if (this.closed) return;
      this.handler?.(message);
    }
  }

  private end(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    for (const h of this.closeHandlers.splice(0)) h(error);
  }
}
