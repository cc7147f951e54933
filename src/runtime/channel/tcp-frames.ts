/**
 * The frames of a `TcpLink` connection: each is a uint32 length (little-endian)
 * and that many bytes, whose first says what the frame is.
 *
 * - `HELLO` (the connecting worker, first): magic `WEIR`, protocol version,
 *   the connecting worker's index, the index it wants to reach, the link's
 *   generation (its count of connections to that peer), then the token.
 * - `WELCOME` / `REFUSE` (the accepting worker's answer; a refusal has its reason).
 * - `DATA`, `EVENT`, `CREDIT`: attempt (int32) and plan channel (uint32), then
 *   an encoded batch (batch-codec.ts), an event (msgpack), or a credit count (uint32).
 *
 * @example
 * ```ts
 * const out = new FrameWriter();
 * out.channelFrame(DATA, attempt, channel, encoder.encode(values, undefined));
 * socket.write(out.take()!);
 * // at the other end
 * reader.push(chunk);
 * for (let f = reader.next(); f; f = reader.next()) handle(f);
 * ```
 */

export const HELLO = 1;
export const WELCOME = 2;
export const REFUSE = 3;
export const DATA = 4;
export const EVENT = 5;
export const CREDIT = 6;

/** Bytes of a channel frame's header after the length: type, attempt, channel. */
export const CHANNEL_HEADER = 9;
/** Largest frame a link accepts (a batch larger than this cannot cross). */
export const MAX_FRAME_BYTES = 512 * 2 ** 20;
/** Largest frame before the hello was accepted. */
export const MAX_HELLO_BYTES = 4096;
const MAGIC = 0x52494557; // "WEIR" little-endian
const VERSION = 1;

/** Frames waiting to be written, in one buffer (one socket write per burst). */
export class FrameWriter {
  private buf = Buffer.allocUnsafe(1 << 16);
  private pos = 0;

  /** Bytes waiting. */
  get size(): number {
    return this.pos;
  }

  /** Appends a frame of `type` for `channel` of `attempt` with `payload` (copied). */
  channelFrame(type: number, attempt: number, channel: number, payload: Uint8Array): void {
    const at = this.header(CHANNEL_HEADER + payload.length, type);
    this.buf.writeInt32LE(attempt, at + 1);
    this.buf.writeUInt32LE(channel, at + 5);
    this.buf.set(payload, at + CHANNEL_HEADER);
  }

  /** Appends a credit frame: the consumer took `count` messages of `channel`. */
  credit(attempt: number, channel: number, count: number): void {
    const at = this.header(CHANNEL_HEADER + 4, CREDIT);
    this.buf.writeInt32LE(attempt, at + 1);
    this.buf.writeUInt32LE(channel, at + 5);
    this.buf.writeUInt32LE(count, at + CHANNEL_HEADER);
  }

  /** Appends a frame of `type` with `body` after the type byte (hello, welcome, refuse). */
  control(type: number, body: Uint8Array = new Uint8Array(0)): void {
    const at = this.header(1 + body.length, type);
    this.buf.set(body, at + 1);
  }

  /** The frames written so far (the caller owns them), or undefined if none; starts a new buffer. */
  take(): Buffer | undefined {
    if (this.pos === 0) return undefined;
    const out = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafe(Math.max(1 << 16, Math.min(this.buf.length, 1 << 20)));
    this.pos = 0;
    return out;
  }

  /** Drops the frames written so far. */
  clear(): void {
    this.pos = 0;
  }

  /** Writes the length and type of a frame of `length` bytes; returns the offset of its type byte. */
  private header(length: number, type: number): number {
    if (length > MAX_FRAME_BYTES) throw new Error(`tcp link: a frame of ${length} bytes is larger than the limit of ${MAX_FRAME_BYTES}`);
    const need = this.pos + 4 + length;
    if (need > this.buf.length) {
      const grown = Buffer.allocUnsafe(2 ** Math.ceil(Math.log2(need)));
      this.buf.copy(grown, 0, 0, this.pos);
      this.buf = grown;
    }
    this.buf.writeUInt32LE(length, this.pos);
    this.buf[this.pos + 4] = type;
    const at = this.pos + 4;
    this.pos = need;
    return at;
  }
}

/** Cuts the bytes of a connection into frames. */
export class FrameReader {
  private parts: Buffer[] = [];
  private total = 0;

  /** @param maxFrame longest frame accepted (`next` throws on a longer one) */
  constructor(public maxFrame = MAX_FRAME_BYTES) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.parts.push(chunk);
    this.total += chunk.length;
  }

  /**
   * The next whole frame (type byte first, without the length), or undefined.
   * The bytes stay valid (a view of what was received).
   */
  next(): Buffer | undefined {
    if (this.total < 4) return undefined;
    let first = this.parts[0]!;
    if (first.length < 4) first = this.merge();
    const length = first.readUInt32LE(0);
    if (length === 0 || length > this.maxFrame) throw new Error(`a frame of ${length} bytes (at most ${this.maxFrame} expected)`);
    if (this.total < 4 + length) return undefined;
    if (first.length < 4 + length) first = this.merge();
    const frame = first.subarray(4, 4 + length);
    const rest = first.subarray(4 + length);
    if (rest.length > 0) this.parts[0] = rest;
    else this.parts.shift();
    this.total -= 4 + length;
    return frame;
  }

  /** Joins the parts received so far into one buffer. */
  private merge(): Buffer {
    const one = Buffer.concat(this.parts, this.total);
    this.parts = [one];
    return one;
  }
}

/** What a hello says. */
export interface Hello {
  readonly from: number;
  readonly to: number;
  readonly generation: number;
  readonly token: string;
}

/** The body of a hello frame (after the type byte). */
export function helloBody(h: Hello): Buffer {
  const token = Buffer.from(h.token, "utf8");
  const b = Buffer.allocUnsafe(17 + token.length);
  b.writeUInt32LE(MAGIC, 0);
  b[4] = VERSION;
  b.writeUInt32LE(h.from, 5);
  b.writeUInt32LE(h.to, 9);
  b.writeUInt32LE(h.generation >>> 0, 13);
  token.copy(b, 17);
  return b;
}

/** Reads a hello frame (type byte first); a string says why it is not one. */
export function parseHello(frame: Buffer): Hello | string {
  if (frame[0] !== HELLO || frame.length < 18) return "the first frame is not a hello";
  if (frame.readUInt32LE(1) !== MAGIC) return "the first frame is not a Weir hello";
  if (frame[5] !== VERSION) return `link protocol ${frame[5]} is not ${VERSION}`;
  return { from: frame.readUInt32LE(6), to: frame.readUInt32LE(10), generation: frame.readUInt32LE(14), token: frame.toString("utf8", 18) };
}
