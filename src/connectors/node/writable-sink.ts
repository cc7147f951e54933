/**
 * A sink that writes one line per record to a Node `Writable` (a file
 * stream, a socket, `process.stdout`). Not transactional: at-least-once.
 * Before every checkpoint barrier passes it, everything written so far has
 * been handed to the stream (its write callbacks ran), so a completed
 * checkpoint never covers a record that is not in the stream; after a
 * failure, the records since that checkpoint are written again.
 *
 * Backpressure: lines are collected and written in chunks (at the latest when
 * the thread yields, every few milliseconds); when the stream's buffer is full
 * (`write` returned false) the task stops taking input until it emits 'drain'.
 */
import type { Writable } from "node:stream";
import type { Sink, SinkContext, SinkWriter } from "../../core/sink.ts";
import { formatRecord } from "../builtin/print-sink.ts";

/** Options of a {@link WritableSink}. */
export interface WritableSinkOptions<T> {
  /** The line of a record, without newline (default: as `print()` shows it). */
  readonly format?: (record: T) => string;
  /**
   * End the stream when the job has written everything (default true; never
   * `process.stdout` or `process.stderr`). The stream of a failed or
   * cancelled attempt is ended too, after what was written to it.
   */
  readonly end?: boolean;
}

/** Text collected before it is written to the stream at once. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Writes each record as a line to the stream that `open` creates, once per
 * parallel subtask and attempt (it gets the sink's context: the subtask index,
 * the attempt). At-least-once: open files in append mode (`flags: "a"`).
 *
 * @example
 * ```ts
 * import { createWriteStream } from "node:fs";
 * import { WritableSink, type DataStream } from "weirjs";
 *
 * interface Order { id: number; amount: number }
 * declare const stream: DataStream<Order>;
 * stream.sinkTo(new WritableSink(() => process.stdout, { format: (o: Order) => `${o.id};${o.amount}` }));
 * stream.sinkTo(new WritableSink((ctx) => createWriteStream(`out-${ctx.subtaskIndex}.log`, { flags: "a" })));
 * ```
 */
export class WritableSink<T> implements Sink<T> {
  constructor(
    private readonly open: (context: SinkContext) => Writable,
    private readonly options: WritableSinkOptions<T> = {},
  ) {}

  createWriter(context: SinkContext): SinkWriter<T> {
    const stream = this.open(context);
    const owned = (this.options.end ?? true) && stream !== process.stdout && stream !== process.stderr;
    return new WritableWriter(stream, this.options.format ?? formatRecord, owned);
  }
}

class WritableWriter<T> implements SinkWriter<T> {
  private lines: string[] = [];
  private chars = 0;
  private scheduled: NodeJS.Immediate | undefined;
  /** Writes whose callback has not run yet. */
  private pending = 0;
  private idle: (() => void)[] = [];
  private error: Error | undefined;
  private ended = false;

  constructor(
    private readonly stream: Writable,
    private readonly format: (record: T) => string,
    private readonly owned: boolean,
  ) {
    // for the stream's life: an 'error' without a listener would crash the process
    stream.on("error", (e) => this.fail(e));
  }

  write(value: T): void {
    this.check();
    const line = this.format(value) + "\n";
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= CHUNK_CHARS) this.writeOut();
    else
      this.scheduled ??= setImmediate(() => {
        this.scheduled = undefined;
        if (!this.ended) this.writeOut();
      });
  }

  blocked(): Promise<void> | undefined {
    this.check();
    const s = this.stream;
    if (!s.writableNeedDrain) return undefined;
    return new Promise((resolve) => {
      const done = () => {
        for (const event of ["drain", "close", "error"]) s.off(event, done);
        resolve();
      };
      for (const event of ["drain", "close", "error"]) s.on(event, done);
    });
  }

  /** At a checkpoint barrier: writes what is collected and waits until the stream took everything. */
  async flush(): Promise<void> {
    this.writeOut();
    if (this.pending > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    this.check();
  }

  /** End of input: flushes, then ends the stream if the sink owns it (the job ends once it is finished). */
  async finish(): Promise<void> {
    await this.flush();
    if (!this.owned) return;
    this.ended = true;
    await new Promise<void>((resolve) => this.stream.end(resolve));
    this.check();
  }

  /** After a failure or cancellation too: what was collected still goes out (at-least-once), then the end. */
  close(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.ended || this.error || this.stream.destroyed) return;
    this.writeOut();
    if (this.owned) {
      this.ended = true;
      this.stream.end();
    }
  }

  private writeOut(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.join("");
    this.lines = [];
    this.chars = 0;
    this.pending++;
    this.stream.write(text, (e) => {
      if (e) this.fail(e);
      if (--this.pending === 0) for (const resolve of this.idle.splice(0)) resolve();
    });
  }

  private fail(e: Error): void {
    this.error ??= e;
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private check(): void {
    if (this.error) throw new Error(`WritableSink: the stream failed: ${this.error.message}`, { cause: this.error });
  }
}
