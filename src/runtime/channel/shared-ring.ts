/**
 * A single-producer single-consumer queue of byte entries in a
 * SharedArrayBuffer: one thread writes, another reads, with no message and no
 * copy through the event loop. Each entry carries a few integer fields and a
 * payload. Positions count bytes written and read (as unsigned 32-bit values
 * that wrap); the writer publishes an entry by storing the write position,
 * the reader frees it by storing the read position, both with `Atomics`, so
 * each side sees the other's entries and free space as soon as they exist.
 *
 * The ring also holds a count of the messages the writer sent another way
 * (see `RemoteLink`), so that the reader knows when to look there. Wake-ups
 * are not the ring's concern: a ring carries the entries of many channels,
 * whose readers sleep and wake one by one (`RemoteLink` keeps a flag per channel).
 *
 * @example
 * ```ts
 * const ring = new SharedRing(SharedRing.allocate(1 << 16));
 * ring.write(1, 7, 0, 0, new Uint8Array([1, 2, 3])); // true: it fitted
 * const e = ring.peek()!; // { seq: 1, channel: 7, attempt: 0, kind: 0, payload: Uint8Array [1, 2, 3] }
 * ring.consume();
 * ```
 */

/** Control words before the data: write position, read position, messages sent another way. */
const WRITE = 0;
const READ = 1;
const ASIDE = 2;
const CONTROL_BYTES = 12;
/** Entry header in int32 words: payload length (or WRAP), seq, channel, attempt, kind. */
const HEADER_WORDS = 5;
const HEADER_BYTES = HEADER_WORDS * 4;
/** Length of the marker that sends the reader back to the start of the data. */
const WRAP = -1;

/** One entry as the reader sees it; `payload` is a view into the ring, valid until `consume()`. */
export interface RingEntry {
  readonly seq: number;
  readonly channel: number;
  readonly attempt: number;
  readonly kind: number;
  readonly payload: Uint8Array;
}

export class SharedRing {
  private readonly control: Int32Array;
  private readonly words: Int32Array;
  private readonly bytes: Uint8Array;
  private readonly size: number;

  /** A buffer for a ring of `dataBytes` bytes of entries (a power of two, at least 64). */
  static allocate(dataBytes: number): SharedArrayBuffer {
    if (!(dataBytes >= 64 && (dataBytes & (dataBytes - 1)) === 0 && dataBytes <= 2 ** 30))
      throw new RangeError(`SharedRing: ${dataBytes} bytes is not a power of two from 64 to 2^30`);
    return new SharedArrayBuffer(CONTROL_BYTES + dataBytes);
  }

  constructor(buffer: SharedArrayBuffer) {
    this.size = buffer.byteLength - CONTROL_BYTES;
    this.control = new Int32Array(buffer, 0, CONTROL_BYTES / 4);
    this.words = new Int32Array(buffer, CONTROL_BYTES, this.size / 4);
    this.bytes = new Uint8Array(buffer, CONTROL_BYTES, this.size);
  }

  /**
   * Writer: appends an entry if it fits in the free space; false (and nothing
   * written) if not. `payload.length` bytes are copied.
   */
  write(seq: number, channel: number, attempt: number, kind: number, payload: Uint8Array): boolean {
    const w = Atomics.load(this.control, WRITE) >>> 0;
    const used = (w - (Atomics.load(this.control, READ) >>> 0)) >>> 0;
    const at = w & (this.size - 1);
    const need = HEADER_BYTES + align4(payload.length);
    const untilEnd = this.size - at;
    const skip = need > untilEnd ? untilEnd : 0;
    if (used + skip + need > this.size) return false;
    let i = at;
    if (skip > 0) {
      this.words[i >> 2] = WRAP;
      i = 0;
    }
    const h = i >> 2;
    this.words[h] = payload.length;
    this.words[h + 1] = seq;
    this.words[h + 2] = channel;
    this.words[h + 3] = attempt;
    this.words[h + 4] = kind;
    this.bytes.set(payload, i + HEADER_BYTES);
    Atomics.store(this.control, WRITE, (w + skip + need) | 0);
    return true;
  }

  /** Reader: the oldest entry not consumed yet, or undefined if there is none. */
  peek(): RingEntry | undefined {
    let r = Atomics.load(this.control, READ) >>> 0;
    const w = Atomics.load(this.control, WRITE) >>> 0;
    if (r === w) return undefined;
    let at = r & (this.size - 1);
    if (this.words[at >> 2] === WRAP) {
      r = (r + this.size - at) >>> 0;
      Atomics.store(this.control, READ, r | 0);
      if (r === w) return undefined;
      at = 0;
    }
    const h = at >> 2;
    const length = this.words[h]!;
    return {
      seq: this.words[h + 1]!,
      channel: this.words[h + 2]!,
      attempt: this.words[h + 3]!,
      kind: this.words[h + 4]!,
      payload: this.bytes.subarray(at + HEADER_BYTES, at + HEADER_BYTES + length),
    };
  }

  /** Reader: frees the entry `peek()` returned. */
  consume(): void {
    const r = Atomics.load(this.control, READ) >>> 0;
    const at = r & (this.size - 1);
    const length = this.words[at >> 2]!;
    Atomics.store(this.control, READ, (r + HEADER_BYTES + align4(length)) | 0);
  }

  /** True if an entry is waiting. */
  hasEntry(): boolean {
    return Atomics.load(this.control, READ) !== Atomics.load(this.control, WRITE);
  }

  /** Writer: counts a message sent another way (after sending it). */
  noteAside(): void {
    Atomics.add(this.control, ASIDE, 1);
  }

  /** Reader: messages the writer sent another way so far (an int32 count that wraps). */
  aside(): number {
    return Atomics.load(this.control, ASIDE);
  }
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
