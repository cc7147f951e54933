/**
 * The source SPI (after Flink's FLIP-27): a source divides its input into
 * splits; each parallel reader reads the splits assigned to it and can report
 * its position in them, which the engine stores in every checkpoint and hands
 * back on restore so reading resumes exactly there.
 *
 * File, PostgreSQL and Kafka sources implement this interface; `fromSequence`
 * and `fromElements` are the built-in examples.
 */

import type { OutputTag } from "./output-tag.ts";

/** Whether a source ends. */
export type Boundedness = "bounded" | "continuous";

/** Result of one `pollNext` call. */
export type PollStatus =
  /** Records may be available right away: call again. */
  | "more-available"
  /** Nothing now: wait for `isAvailable()` (or a short while) before polling again. */
  | "nothing-available"
  /** Every split is finished and no more will come. */
  | "end-of-input";

/** How a split's watermark behaves before its first record. */
export interface SplitOutputOptions {
  /**
   * The split is read from now on (a Kafka partition), not queued behind others (a file): its watermark
   * generator gets periodic emits from registration, so with `withIdleness` a split that has no records
   * goes idle after the timeout instead of holding event time at its start (as Flink's split outputs).
   * Default false: a queued split holds the watermark until its first record.
   */
  readonly activeFromStart?: boolean;
}

/** Where a reader emits records. */
export interface ReaderOutput<T> {
  collect(value: T, timestamp?: number): void;
  /** Emits to a side output (e.g. dead letters), read with `getSideOutput(tag)`. */
  collectSide<S>(tag: OutputTag<S>, value: S): void;
  /**
   * An output for the records of one split, with a watermark generator of its own:
   * the source's watermark is then the minimum over its active splits, so a split that
   * is behind in event time holds it back (Flink's per-split watermarks). Call it as soon
   * as a split is assigned or found, before reading it: a registered split that has not
   * emitted yet holds the watermark at its start, so reading a later-in-time split first
   * never makes a queued one's records late. The same id returns the same output.
   */
  createOutputForSplit(splitId: string, options?: SplitOutputOptions): ReaderOutput<T>;
  /**
   * The split is finished: its generator makes a last periodic emit, and it no longer
   * holds back the watermark (its final watermark stands while the reader has no other split).
   */
  releaseOutputForSplit(splitId: string): void;
  /**
   * The reader has nothing to read for now (e.g. a continuous file source between
   * listings, without files): while it holds no split it is idle and does not hold
   * back event time downstream; registering a split or emitting a record ends that.
   */
  markIdle?(): void;
}

/** What a reader knows of its parallel instance. */
export interface SourceReaderContext {
  readonly subtaskIndex: number;
  readonly parallelism: number;
  /** Operator uid, for error messages. */
  readonly operatorUid: string;
}

/**
 * Reads the splits assigned to one parallel instance.
 * Calls never overlap: the task calls one method at a time.
 */
export interface SourceReader<T, Split> {
  /** Splits to read (initial assignment, or the positions restored from a checkpoint). */
  addSplits(splits: Split[]): void;
  /** Emits up to `maxRecords` records. Return a promise only for I/O; never per record. */
  pollNext(output: ReaderOutput<T>, maxRecords: number): PollStatus | Promise<PollStatus>;
  /** After "nothing-available": resolves when polling may produce records. */
  isAvailable?(): Promise<void>;
  /** The unfinished splits with their current positions; must be plain data. */
  snapshotState(checkpointId: number): Split[];
  notifyCheckpointComplete?(checkpointId: number): void;
  close?(): void | Promise<void>;
}

/**
 * A source of records.
 *
 * @example
 * ```ts
 * const numbers: Source<number, { next: number; end: number }> = {
 *   boundedness: "bounded",
 *   createSplits: () => [{ next: 1, end: 100 }],
 *   createReader: () => new MyReader(),
 * };
 * env.fromSource(numbers, WatermarkStrategy.noWatermarks(), "numbers");
 * ```
 */
export interface Source<T, Split = unknown> {
  readonly boundedness: Boundedness;
  /** All splits of the input for a source of the given parallelism. Deterministic: called in every thread. */
  createSplits(parallelism: number): Split[];
  createReader(context: SourceReaderContext): SourceReader<T, Split>;
  /**
   * The id a reader gives `split` in `createOutputForSplit`. With it, each split's
   * watermark is restored with the split, also when a rescale moves it to another reader.
   */
  splitId?(split: Split): string;
  /**
   * A deep copy of a record exactly as this source's readers emit it: what the
   * engine's plain-data copy would give (the same keys in the same order, every
   * nested object copied). A source whose records are plain data of shapes it
   * knows may give one; the engine then trusts its records to be plain data and
   * copies them with it where a second consumer needs its own copy, instead of
   * checking each object's keys first. Only where no user code sees a record
   * between the reader and the consumers: without a timestamp assigner or a custom
   * watermark generator, for consumers not chained to the source.
   *
   * @example
   * ```ts
   * copyRecord: (p: { x: number; y: number }) => ({ x: p.x, y: p.y }),
   * ```
   */
  copyRecord?(record: T): T;
}
