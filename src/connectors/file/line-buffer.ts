/**
 * Cuts the bytes of a file, read in chunks, into lines. Lines are decoded
 * from their complete bytes, so a UTF-8 character split across two chunks is
 * decoded whole, and positions are byte offsets in the file, never string
 * lengths. `\n` and `\r\n` end a line; a last line without a newline counts
 * once the end of the file has been reached.
 */

const LF = 10;
const CR = 13;
const EMPTY = Buffer.alloc(0);

/**
 * Unconsumed bytes of a file from a known offset.
 *
 * @example
 * ```ts
 * const lines = new LineBuffer(0);
 * lines.append(Buffer.from("a\r\nb"));
 * lines.nextLine(); // "a"  (lines.offset === 3)
 * lines.nextLine(); // undefined: "b" may go on in the next chunk
 * lines.markEnd();
 * lines.nextLine(); // "b"
 * ```
 */
export class LineBuffer {
  private buf: Buffer = EMPTY;
  private pos = 0;
  /** Where to look for the next newline (bytes before it have none). */
  private searchFrom = 0;
  private ended = false;

  /** @param offset byte offset in the file of the first byte to be appended */
  constructor(private start: number) {}

  /** Byte offset in the file of the next unconsumed byte (the start of the next line). */
  get offset(): number {
    return this.start + this.pos;
  }

  /** Byte offset in the file of the next byte to read and append. */
  get readPosition(): number {
    return this.start + this.buf.length;
  }

  /** Whether the end of the file has been reached and every line consumed. */
  get exhausted(): boolean {
    return this.ended && this.pos === this.buf.length;
  }

  /** Whether the end of the file has been reached. */
  get atEnd(): boolean {
    return this.ended;
  }

  /** Adds the next bytes of the file. */
  append(chunk: Uint8Array): void {
    const rest = this.buf.length - this.pos;
    this.start += this.pos;
    this.searchFrom -= this.pos;
    this.buf = rest === 0 ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : Buffer.concat([this.buf.subarray(this.pos), chunk]);
    this.pos = 0;
  }

  /** Records that the file has no more bytes: the unterminated rest becomes the last line. */
  markEnd(): void {
    this.ended = true;
  }

  /**
   * The next complete line without its terminator, and consumes it; or
   * `undefined` when more bytes are needed (or everything is consumed).
   * `encoding` decodes it (`latin1` keeps each byte as one character).
   */
  nextLine(encoding: BufferEncoding = "utf8"): string | undefined {
    const buf = this.buf;
    const lf = buf.indexOf(LF, Math.max(this.pos, this.searchFrom));
    let end: number;
    let next: number;
    if (lf >= 0) {
      end = lf > this.pos && buf[lf - 1] === CR ? lf - 1 : lf;
      next = lf + 1;
    } else if (this.ended && this.pos < buf.length) {
      end = buf[buf.length - 1] === CR ? buf.length - 1 : buf.length;
      next = buf.length;
    } else {
      this.searchFrom = buf.length;
      return undefined;
    }
    const line = buf.toString(encoding, this.pos, end);
    this.pos = next;
    this.searchFrom = next;
    return line;
  }
}
