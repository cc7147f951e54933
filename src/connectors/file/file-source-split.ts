/**
 * The state of a file source, as the plain-data splits the engine checkpoints
 * (operator split-list state, redistributed across readers on rescale).
 *
 * - A {@link FileSplit} is one input file and the byte offset of its next record.
 * - A {@link DiscoverySplit} is one hash bucket of the input path: the reader
 *   holding it lists the path and takes the files whose `hash(path) % buckets`
 *   equals its bucket, remembering every file it took in `known`.
 * - A {@link TallySplit} carries the dead-letter count of finished files.
 *
 * Why buckets are splits: the source has no central enumerator, so the set of
 * files already taken must travel with the state. On rescale the engine hands
 * each old split to exactly one new reader, so each bucket (and its `known`
 * set) still has exactly one owner: no file is taken twice and none is missed.
 * The number of buckets is fixed at the parallelism of the job's first run.
 */

import { murmur3String } from "../../state/murmur-hash.ts";

/** One input file being read. */
export interface FileSplit {
  readonly kind: "file";
  /** Path of the file, as the source spells it (used in error messages). */
  readonly path: string;
  /** Byte offset of the next record. */
  offset: number;
  /** 1-based line number of the next record. */
  line: number;
  /** Malformed records of this file sent to the dead-letter output so far. */
  deadLetters: number;
  /** CSV: the column names read from the file's header line. */
  header?: string[];
  /** CSV without names: the column count of the file's first record. */
  width?: number;
}

/** One hash bucket of the input path and the files it has taken. */
export interface DiscoverySplit {
  readonly kind: "discovery";
  /** This bucket's number, `0 <= bucket < buckets`. */
  readonly bucket: number;
  /** Number of buckets (the source parallelism when the job first ran). */
  readonly buckets: number;
  /** Files taken by this bucket (finished or in progress) that still exist. */
  known: string[];
  /** Whether the path has been listed (a bounded source lists it once). */
  scanned: boolean;
}

/** Dead-letter count of files a reader has finished. */
export interface TallySplit {
  readonly kind: "tally";
  deadLetters: number;
}

/** Any split of a file source. */
export type FileSourceSplit = FileSplit | DiscoverySplit | TallySplit;

/** A new split for a file, positioned at its start. */
export function newFileSplit(path: string): FileSplit {
  return { kind: "file", path, offset: 0, line: 1, deadLetters: 0 };
}

/**
 * The discovery splits of a source of the given parallelism: one bucket per
 * reader, so that at first start reader `i` takes the files with
 * `hash(path) % parallelism === i`.
 */
export function initialSplits(parallelism: number): DiscoverySplit[] {
  return Array.from({ length: parallelism }, (_, bucket) => ({
    kind: "discovery" as const,
    bucket,
    buckets: parallelism,
    known: [],
    scanned: false,
  }));
}

/** The bucket a file belongs to: stable across threads, processes and runs. */
export function bucketOf(path: string, buckets: number): number {
  return murmur3String(path) % buckets;
}

/**
 * Total dead letters recorded in a source's splits (e.g. the state a reader
 * returned from `snapshotState`), counting finished and unfinished files.
 *
 * @example
 * ```ts
 * const bad = deadLetterCount(reader.snapshotState(1));
 * ```
 */
export function deadLetterCount(splits: readonly FileSourceSplit[]): number {
  let n = 0;
  for (const s of splits) if (s.kind !== "discovery") n += s.deadLetters;
  return n;
}

/** The id of a split: a file's path, a bucket's number, or `tally`. */
export function splitIdOf(s: FileSourceSplit): string {
  switch (s.kind) {
    case "file":
      return s.path;
    case "discovery":
      return `discovery ${s.bucket}/${s.buckets}`;
    case "tally":
      return "tally";
  }
}

/** A deep copy, so the engine never sees a reader's live objects. */
export function copySplit(s: FileSourceSplit): FileSourceSplit {
  switch (s.kind) {
    case "file":
      return { ...s, ...(s.header ? { header: [...s.header] } : {}) };
    case "discovery":
      return { ...s, known: [...s.known] };
    case "tally":
      return { ...s };
  }
}
