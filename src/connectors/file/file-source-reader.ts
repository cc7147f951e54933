/**
 * Reads the splits of one parallel instance of a file source: lists the input
 * path for the buckets it holds, then reads each file in chunks (one `await`
 * per chunk, never per record) and emits the records its format's decoder
 * finds, which keeps the byte offset and line number of the next record in
 * the split for checkpoints.
 */

import { open, type FileHandle } from "node:fs/promises";
import type { PollStatus, ReaderOutput, SourceReader } from "../../core/source.ts";
import type { OutputTag } from "../../core/output-tag.ts";
import type { Clock } from "../../util/clock.ts";
import { getLogger } from "../../util/logger.ts";
import { planDiscovery } from "./file-source-discovery.ts";
import { FileSourceParseError, FileSourcePathError } from "./file-source-errors.ts";
import type { InputPath } from "./file-source-glob.ts";
import { listInputFiles, type FileOrder } from "./file-source-listing.ts";
import { copySplit, type DiscoverySplit, type FileSourceSplit, type FileSplit } from "./file-source-split.ts";
import { MalformedRecord, NEED_MORE_BYTES, type RecordDecoder, type RecordFormat } from "./record-format.ts";

/** A malformed record sent to the dead-letter side output. */
export interface DeadLetter {
  /** Path of the input file. */
  readonly file: string;
  /** 1-based line number. */
  readonly line: number;
  /** The line as read. */
  readonly text: string;
  /** Why it could not be parsed. */
  readonly error: string;
}

/** What a reader needs besides its splits. */
export interface FileSourceReaderConfig<T> {
  /** The input path as the source was given it (for messages). */
  readonly path: string;
  readonly input: InputPath;
  readonly format: RecordFormat<T>;
  /** Listing interval of a continuous source; undefined for a bounded one. */
  readonly monitorIntervalMs: number | undefined;
  /** The order in which the files of a listing are read. */
  readonly fileOrder: FileOrder;
  /** Where malformed records go; undefined to fail the job on them. */
  readonly deadLetters: OutputTag<DeadLetter> | undefined;
  readonly chunkSize: number;
  readonly clock: Clock;
}

interface OpenFile<T> {
  readonly handle: FileHandle;
  readonly records: RecordDecoder<T>;
}

/**
 * The reader of a file source.
 *
 * @example
 * ```ts
 * const reader = FileSource.forLines("in/").createReader();
 * reader.addSplits(FileSource.forLines("in/").createSplits(1));
 * while ((await reader.pollNext(output, 100)) !== "end-of-input");
 * ```
 */
export class FileSourceReader<T> implements SourceReader<T, FileSourceSplit> {
  private readonly files: FileSplit[] = [];
  private buckets: DiscoverySplit[] = [];
  private finishedDeadLetters = 0;
  private current: OpenFile<T> | undefined;
  private nextScanAt = Number.NEGATIVE_INFINITY;
  private available: Promise<void> | undefined;
  /** Whether this reader said that the path matched no file. */
  private saidEmpty = false;
  /** Files at the end of `files` whose split outputs are not created yet. */
  private unregistered = 0;

  constructor(private readonly config: FileSourceReaderConfig<T>) {}

  addSplits(splits: FileSourceSplit[]): void {
    for (const s of splits) {
      const copy = copySplit(s);
      if (copy.kind === "file") {
        this.files.push(copy);
        this.unregistered++;
      }
      else if (copy.kind === "discovery") this.buckets.push(copy);
      else this.finishedDeadLetters += copy.deadLetters;
    }
  }

  pollNext(output: ReaderOutput<T>, maxRecords: number): PollStatus | Promise<PollStatus> {
    if (this.scanDue()) return this.scan().then(() => "more-available");
    const file = this.files[0];
    if (!file) {
      if (this.config.monitorIntervalMs === undefined) return this.buckets.length === 0 ? "end-of-input" : "nothing-available";
      // continuous, listed, nothing to read: do not hold back event time until a new file comes
      output.markIdle?.();
      return "nothing-available";
    }
    // each file is a split with its own watermark generator, registered as soon as it is queued:
    // a file behind in event time, or not started yet, holds the source back
    if (this.unregistered > 0) this.registerQueued(output);
    const out = output.createOutputForSplit(file.path);
    if (!this.current) return this.openFile(file).then(() => this.emit(file, out, output, maxRecords));
    return this.emit(file, out, output, maxRecords);
  }

  isAvailable(): Promise<void> {
    const { clock, monitorIntervalMs = 0 } = this.config;
    // a reader without buckets (after scaling up) only wakes at the interval
    const delay = this.buckets.length > 0 ? this.nextScanAt - clock.now() : monitorIntervalMs;
    this.available ??= new Promise<void>((resolve) => {
      clock.setTimeout(() => {
        this.available = undefined;
        resolve();
      }, delay);
    });
    return this.available;
  }

  snapshotState(): FileSourceSplit[] {
    const state: FileSourceSplit[] = [...this.files.map(copySplit), ...this.buckets.map(copySplit)];
    if (this.finishedDeadLetters > 0) state.push({ kind: "tally", deadLetters: this.finishedDeadLetters });
    return state;
  }

  async close(): Promise<void> {
    const c = this.current;
    this.current = undefined;
    await c?.handle.close();
  }

  /** Registers the watermark outputs of the files queued since the last poll. */
  private registerQueued(output: ReaderOutput<T>): void {
    for (let i = this.files.length - this.unregistered; i < this.files.length; i++) output.createOutputForSplit(this.files[i]!.path);
    this.unregistered = 0;
  }

  private scanDue(): boolean {
    if (this.buckets.length === 0) return false;
    if (this.config.monitorIntervalMs === undefined) return true; // bounded: held buckets are unscanned
    return this.config.clock.now() >= this.nextScanAt;
  }

  private async scan(): Promise<void> {
    const listed = await listInputFiles(this.config.input, this.config.fileOrder);
    if (listed.length === 0) this.sayEmpty();
    const plan = planDiscovery(listed, this.buckets);
    this.files.push(...plan.newSplits);
    this.unregistered += plan.newSplits.length;
    const interval = this.config.monitorIntervalMs;
    if (interval === undefined) this.buckets = [];
    else {
      this.buckets = plan.buckets;
      this.nextScanAt = this.config.clock.now() + interval;
    }
  }

  /**
   * Once, from the reader holding bucket 0 (every reader lists the whole
   * path): a bounded source that matched no file reads nothing, which is most
   * likely a mistake (warning); a watching one waits for files (note).
   */
  private sayEmpty(): void {
    if (this.saidEmpty || !this.buckets.some((b) => b.bucket === 0)) return;
    this.saidEmpty = true;
    const { path, input, monitorIntervalMs } = this.config;
    const what = input.match ? `no file matches '${path}'` : `no file in '${path}'`;
    if (monitorIntervalMs === undefined) getLogger().warn(`file source: ${what}: it reads 0 records`);
    else getLogger().info(`file source: ${what} yet: it waits for files, listing the path every ${monitorIntervalMs} ms`);
  }

  private async openFile(file: FileSplit): Promise<void> {
    try {
      this.current = { handle: await open(file.path, "r"), records: this.config.format.open(file) };
    } catch (e) {
      throw new FileSourcePathError(file.path, (e as Error).message, { cause: e });
    }
  }

  private async readChunk(file: FileSplit, c: OpenFile<T>): Promise<void> {
    const chunk = Buffer.allocUnsafe(this.config.chunkSize);
    let bytesRead: number;
    try {
      ({ bytesRead } = await c.handle.read(chunk, 0, chunk.length, c.records.readPosition));
    } catch (e) {
      throw new FileSourcePathError(file.path, (e as Error).message, { cause: e });
    }
    if (bytesRead === 0) c.records.markEnd();
    else c.records.append(chunk.subarray(0, bytesRead));
  }

  private async finishFile(file: FileSplit, c: OpenFile<T>, reader: ReaderOutput<T>): Promise<PollStatus> {
    this.current = undefined;
    this.files.shift();
    this.finishedDeadLetters += file.deadLetters;
    reader.releaseOutputForSplit(file.path);
    await c.handle.close();
    return "more-available";
  }

  /** Emits records of the open file from buffered bytes; awaits only to read a chunk or close the file. */
  private emit(file: FileSplit, output: ReaderOutput<T>, reader: ReaderOutput<T>, max: number): PollStatus | Promise<PollStatus> {
    const c = this.current!;
    const deadLetters = this.config.deadLetters;
    let n = 0;
    while (n < max) {
      const item = c.records.next(file);
      if (item === NEED_MORE_BYTES) {
        if (c.records.exhausted) return this.finishFile(file, c, reader);
        if (n > 0) return "more-available";
        return this.readChunk(file, c).then(() => this.emit(file, output, reader, max));
      }
      n++;
      if (!(item instanceof MalformedRecord)) {
        output.collect(item);
        continue;
      }
      if (!deadLetters) throw new FileSourceParseError(file.path, item.line, item.reason, item.text);
      file.deadLetters++;
      output.collectSide(deadLetters, { file: file.path, line: item.line, text: item.text, error: item.reason });
    }
    return "more-available";
  }
}
