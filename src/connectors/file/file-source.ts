/**
 * `FileSource`: reads text files (lines, JSON Lines or CSV records) from a
 * file, a directory or a glob, bounded or watching for new files, with
 * exactly-once positions: every checkpoint holds the byte offset of each
 * unfinished file's next record and the set of files already taken.
 */

import type { Boundedness, Source, SourceReader } from "../../core/source.ts";
import { OutputTag } from "../../core/output-tag.ts";
import { systemClock, type Clock } from "../../util/clock.ts";
import { csvFormat, type CsvOptions } from "./csv-format.ts";
import { parseInputPath, type InputPath } from "./file-source-glob.ts";
import type { FileOrder } from "./file-source-listing.ts";
import { FileSourceReader, type DeadLetter } from "./file-source-reader.ts";
import { initialSplits, splitIdOf, type FileSourceSplit } from "./file-source-split.ts";
import { jsonLinesFormat, linesFormat, type RecordFormat } from "./record-format.ts";

/** Options of every file source. */
export interface FileSourceOptions {
  /**
   * Watch the path: list it every `monitorIntervalMs` and read new files; the
   * source never ends. Without it the source reads the files present when it
   * starts and ends (bounded).
   */
  readonly monitorIntervalMs?: number;
  /** Bytes read per I/O call (default 64 KiB). */
  readonly chunkSize?: number;
  /** Time source for the monitor interval (default the system clock). */
  readonly clock?: Clock;
  /**
   * The order in which a reader takes the files it finds in one listing:
   * `"path"` (the default) or `"modification-time"` (oldest first), the order
   * in which the file sink finished its part files, also across restarts of the
   * writing job (whose part names start with a new run id). Each reader keeps
   * the order among its own files: read with parallelism 1 for one global order.
   */
  readonly fileOrder?: FileOrder;
}

/** Options of `FileSource.forRecords`. */
export interface FileRecordsOptions extends FileSourceOptions {
  /** `jsonl`: one JSON value per line; `csv`: one CSV record per line. */
  readonly format: "jsonl" | "csv";
  /** CSV settings (with `format: "csv"`). */
  readonly csv?: CsvOptions;
  /**
   * A malformed record fails the job with a `FileSourceParseError` (`"fail"`,
   * the default) or goes to the side output `FileSource.DEAD_LETTERS`.
   */
  readonly onMalformed?: "fail" | "dead-letter";
}

const DEFAULT_CHUNK = 64 * 1024;

/**
 * A source of the records of text files.
 *
 * @example
 * ```ts
 * const orders = env.fromSource(
 *   FileSource.forRecords<Order>("in/*.jsonl", { format: "jsonl", onMalformed: "dead-letter" }),
 *   WatermarkStrategy.noWatermarks(),
 *   "orders",
 * );
 * orders.getSideOutput(FileSource.DEAD_LETTERS).print("bad");
 * ```
 */
export class FileSource<T> implements Source<T, FileSourceSplit> {
  /** Side output of malformed records when `onMalformed: "dead-letter"`. */
  static readonly DEAD_LETTERS = new OutputTag<DeadLetter>("file-source-dead-letters");

  readonly boundedness: Boundedness;
  private readonly input: InputPath;
  private readonly chunkSize: number;

  private constructor(
    readonly path: string,
    private readonly format: RecordFormat<T>,
    private readonly options: FileSourceOptions,
    private readonly deadLetters: OutputTag<DeadLetter> | undefined,
  ) {
    if (!path) throw new RangeError("FileSource: the path must not be empty");
    const interval = options.monitorIntervalMs;
    if (interval !== undefined && !(Number.isFinite(interval) && interval > 0)) {
      throw new RangeError(`FileSource(${path}): monitorIntervalMs must be a positive number, got ${interval}`);
    }
    this.chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
    if (!Number.isSafeInteger(this.chunkSize) || this.chunkSize < 1) {
      throw new RangeError(`FileSource(${path}): chunkSize must be a positive integer, got ${options.chunkSize}`);
    }
    this.boundedness = interval === undefined ? "bounded" : "continuous";
    this.input = parseInputPath(path);
  }

  /**
   * Every line of the files at `path` (a file, a directory, or a glob such as
   * `in/**\/*.log`), without line terminators.
   *
   * @example
   * ```ts
   * env.fromSource(FileSource.forLines("in/"), WatermarkStrategy.noWatermarks(), "lines");
   * ```
   */
  static forLines(path: string, options: FileSourceOptions = {}): FileSource<string> {
    return new FileSource(path, linesFormat, options, undefined);
  }

  /**
   * The records of JSON Lines or CSV files at `path`.
   *
   * @example
   * ```ts
   * FileSource.forRecords<{ id: string; name: string }>("in/**\/*.csv", { format: "csv", csv: { delimiter: ";" } });
   * ```
   */
  static forRecords<T>(path: string, options: FileRecordsOptions): FileSource<T> {
    const format = options.format === "jsonl" ? jsonLinesFormat<T>() : options.format === "csv" ? csvFormat<T>(options.csv) : undefined;
    if (!format) throw new RangeError(`FileSource(${path}): unknown format '${options.format as string}'; available: jsonl, csv`);
    const onMalformed = options.onMalformed ?? "fail";
    if (onMalformed !== "fail" && onMalformed !== "dead-letter") {
      throw new RangeError(`FileSource(${path}): onMalformed must be "fail" or "dead-letter", got '${onMalformed as string}'`);
    }
    return new FileSource(path, format, options, onMalformed === "dead-letter" ? FileSource.DEAD_LETTERS : undefined);
  }

  /**
   * The records `format` finds in the files at `path` (see `record-format.ts`:
   * a format cuts the bytes into records and keeps the split's offset at
   * the next one, so restores are exact). A malformed record fails the job
   * with a `FileSourceParseError` naming the file and line, or goes to
   * `FileSource.DEAD_LETTERS` with `onMalformed: "dead-letter"`.
   *
   * @example
   * ```ts
   * FileSource.forFormat("in/", lineFormat(true, (line) => line.toUpperCase()), { monitorIntervalMs: 1_000 });
   * ```
   */
  static forFormat<T>(path: string, format: RecordFormat<T>, options: FileSourceOptions & Pick<FileRecordsOptions, "onMalformed"> = {}): FileSource<T> {
    const onMalformed = options.onMalformed ?? "fail";
    return new FileSource(path, format, options, onMalformed === "dead-letter" ? FileSource.DEAD_LETTERS : undefined);
  }

  /** One discovery bucket per reader: reader `i` takes the files with `hash(path) % parallelism === i`. */
  createSplits(parallelism: number): FileSourceSplit[] {
    return initialSplits(parallelism);
  }

  /** A file split's id is its path (the reader's split outputs use it). */
  splitId(split: FileSourceSplit): string {
    return splitIdOf(split);
  }

  createReader(): SourceReader<T, FileSourceSplit> {
    return new FileSourceReader<T>({
      path: this.path,
      input: this.input,
      format: this.format,
      monitorIntervalMs: this.options.monitorIntervalMs,
      fileOrder: this.options.fileOrder ?? "path",
      deadLetters: this.deadLetters,
      chunkSize: this.chunkSize,
      clock: this.options.clock ?? systemClock,
    });
  }
}
