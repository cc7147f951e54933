/**
 * One in-progress part file: records are buffered in memory and written in
 * chunks with synchronous calls; closing it durably flushes, fsyncs and closes.
 */
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";

/** Bytes buffered before a write to the file. */
const FLUSH_BYTES = 64 * 1024;

/** An open hidden part file of the current transaction. */
export class InProgressPartFile {
  /** Bytes appended so far (written or buffered). */
  bytes = 0;
  /** Clock time of the last append. */
  lastWriteAt: number;
  /** Clock time the part was opened. */
  readonly openedAt: number;
  private readonly fd: number;
  private chunks: string[] = [];
  private buffered = 0;

  /** Creates `path`, which must not exist. */
  constructor(readonly path: string, now: number) {
    this.fd = openSync(path, "wx");
    this.lastWriteAt = now;
    this.openedAt = now;
  }

  /** Appends `text` (buffered). */
  append(text: string, now: number): void {
    const size = Buffer.byteLength(text);
    this.chunks.push(text);
    this.buffered += size;
    this.bytes += size;
    this.lastWriteAt = now;
    if (this.buffered >= FLUSH_BYTES) this.flush();
  }

  /** Writes, fsyncs and closes: the content is durable (still under its hidden name). */
  closeDurably(): void {
    this.flush();
    fsyncSync(this.fd);
    closeSync(this.fd);
  }

  /** Closes without flushing (the file is about to be deleted). */
  discard(): void {
    closeSync(this.fd);
  }

  private flush(): void {
    if (this.buffered === 0) return;
    const data = Buffer.from(this.chunks.join(""));
    for (let off = 0; off < data.length; ) off += writeSync(this.fd, data, off);
    this.chunks = [];
    this.buffered = 0;
  }
}
