/**
 * `env.fromReadable(input)`: the lines of a Node `Readable` of bytes or
 * strings (a file stream, a socket, a child process's output, `process.stdin`),
 * from a single reader. `\n` and `\r\n` end a line; a last line without a
 * newline counts; UTF-8 characters split across chunks are decoded whole.
 *
 * Backpressure: the stream is read in paused mode, one `read()` at a time
 * when the task asks for records, so it buffers at most its `highWaterMark`
 * and then stops pulling from its own source until the task catches up.
 *
 * Its position is the number of lines emitted. Given a function that creates
 * the stream, a restart creates it again and skips to the checkpointed line;
 * given the stream itself, it is read once, and a restart that needs it again
 * fails with `SourceNotReplayableError`. The source owns the stream: it
 * destroys it when the reader closes.
 */
import type { Readable } from "node:stream";
import type { PollStatus, ReaderOutput, Source, SourceReader } from "../../core/source.ts";
import { LineBuffer } from "../file/line-buffer.ts";
import { replayableOpener, type Replayable } from "./replayable-input.ts";

/** The number of lines emitted so far. */
export interface ReadableSplit {
  line: number;
}

/**
 * A source of the lines of a Node `Readable` (parallelism 1).
 *
 * @example
 * ```ts
 * import { createReadStream } from "node:fs";
 * import { ReadableLineSource, StreamExecutionEnvironment, WatermarkStrategy } from "weirjs";
 *
 * const env = StreamExecutionEnvironment.getExecutionEnvironment();
 * env.fromSource(new ReadableLineSource(() => createReadStream("access.log")), WatermarkStrategy.noWatermarks(), "log").setParallelism(1);
 * ```
 */
export class ReadableLineSource implements Source<string, ReadableSplit> {
  readonly boundedness = "bounded";
  private readonly open: (position: number) => { input: Readable; skip: number };

  constructor(input: Replayable<Readable>) {
    this.open = replayableOpener("fromReadable", "env.fromReadable(() => stream)", input);
  }

  createSplits(): ReadableSplit[] {
    return [{ line: 0 }];
  }

  createReader(): SourceReader<string, ReadableSplit> {
    return new ReadableLineReader(this.open);
  }
}

class ReadableLineReader implements SourceReader<string, ReadableSplit> {
  private split: ReadableSplit | undefined;
  private stream: Readable | undefined;
  private readonly lines = new LineBuffer(0);
  private skip = 0;
  private failure: Error | undefined;

  constructor(private readonly open: (position: number) => { input: Readable; skip: number }) {}

  addSplits(splits: ReadableSplit[]): void {
    const s = splits[0];
    if (!s) return;
    this.split = { ...s };
    const { input, skip } = this.open(s.line);
    this.skip = skip;
    this.stream = input;
    // kept for the stream's life: an 'error' without a listener would crash the process
    input.on("error", (e) => (this.failure ??= e));
  }

  pollNext(output: ReaderOutput<string>, maxRecords: number): PollStatus {
    const s = this.split;
    const stream = this.stream;
    if (!s || !stream) return "end-of-input";
    let n = 0;
    while (n < maxRecords) {
      const line = this.lines.nextLine();
      if (line !== undefined) {
        if (this.skip > 0) this.skip--;
        else {
          output.collect(line);
          s.line++;
          n++;
        }
        continue;
      }
      if (this.failure) throw new Error(`fromReadable: the stream failed after ${s.line} lines: ${this.failure.message}`, { cause: this.failure });
      if (this.lines.atEnd) {
        if (this.skip > 0) {
          throw new Error(
            `fromReadable: the stream created again after a restart ended after ${s.line - this.skip} lines, before the checkpointed line ${s.line}: the function must create the same stream every time`,
          );
        }
        this.split = undefined;
        return "end-of-input";
      }
      const chunk: unknown = stream.read();
      if (chunk === null) {
        if (stream.readableEnded) this.lines.markEnd();
        else if (stream.destroyed) this.failure ??= stream.errored ?? new Error("the stream was destroyed before its end");
        else return n > 0 ? "more-available" : "nothing-available";
      } else if (typeof chunk === "string") this.lines.append(Buffer.from(chunk));
      else if (chunk instanceof Uint8Array) this.lines.append(chunk);
      else throw new Error(`fromReadable: the stream gave a ${typeof chunk}; it must give bytes or strings (an object-mode stream of values: use fromAsyncIterable)`);
    }
    return "more-available";
  }

  isAvailable(): Promise<void> {
    const stream = this.stream;
    if (!stream || stream.readableLength > 0 || stream.readableEnded || stream.destroyed || this.failure) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        for (const event of ["readable", "end", "close", "error"]) stream.off(event, done);
        resolve();
      };
      for (const event of ["readable", "end", "close", "error"]) stream.on(event, done);
    });
  }

  snapshotState(): ReadableSplit[] {
    return this.split ? [{ ...this.split }] : [];
  }

  close(): void {
    this.stream?.destroy();
    this.stream = undefined;
  }
}
