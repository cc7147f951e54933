/**
 * Names of the file sink's part files: committed `part-<uid>-<subtask>-<run id>-<n><ext>`
 * and hidden in-progress/pending `.part-<uid>-<subtask>-<run id>-<n><ext>.<writer>.inprogress`,
 * where the run id is a UUID drawn whenever a sink subtask starts and the
 * writer tag says which run and process writes the file (`part-writer-tag.ts`).
 */
import { formatWriterTag, parseWriterTag, WRITER_TAG, type PartWriterTag } from "./part-writer-tag.ts";

/** What makes the part file names of one sink. */
export interface PartFileNaming {
  readonly prefix: string;
  /** Operator uid, made safe for file names. */
  readonly uid: string;
  readonly extension: string;
}

/** The naming of a sink with `prefix`, operator `uid` and `extension` (uid characters outside `[A-Za-z0-9_.-]` become `_`). */
export function partFileNaming(prefix: string, uid: string, extension: string): PartFileNaming {
  return { prefix, uid: uid.replace(/[^A-Za-z0-9_.-]/g, "_"), extension };
}

/** The shape of a run id (a version 4 UUID, lower case). */
const RUN_ID = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";

/**
 * A new run id: a version 4 UUID from 16 bytes of `random` (numbers in [0, 1)).
 *
 * @example
 * ```ts
 * partRunId(seededRandom(1)); // the same UUID on every call with seed 1
 * ```
 */
export function partRunId(random: () => number): string {
  const bytes = Array.from({ length: 16 }, () => Math.floor(random() * 256) & 0xff);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The committed name of part `n` of `subtask` in the run `runId`.
 *
 * @example
 * ```ts
 * partFileName(partFileNaming("part", "sink-3", ".csv"), 1, "0f8e5c4a-8d2b-4c4e-9a51-3b1f2d6e7a90", 7);
 * // "part-sink-3-1-0f8e5c4a-8d2b-4c4e-9a51-3b1f2d6e7a90-7.csv"
 * ```
 */
export function partFileName(naming: PartFileNaming, subtask: number, runId: string, n: number): string {
  return `${naming.prefix}-${naming.uid}-${subtask}-${runId}-${n}${naming.extension}`;
}

/**
 * The hidden name of a part while in progress or pending (unique, as its
 * committed name is), written by `writer`.
 *
 * @example
 * ```ts
 * inProgressFileName("part-sink-3-1-0f8e…-7.csv", writerTag(ctx.jobId)); // ".part-sink-3-1-0f8e…-7.csv.1c3d5e7f-4242-mfx3k2a1-0a1b2c3d.inprogress"
 * ```
 */
export function inProgressFileName(finalName: string, writer: PartWriterTag): string {
  return `.${finalName}.${formatWriterTag(writer)}.inprogress`;
}

/** A hidden in-progress/pending file of a sink, as its name says. */
export interface InProgressFile {
  readonly subtask: number;
  readonly runId: string;
  readonly n: number;
  /** Who writes it; null for a file of an earlier Weir, whose names had no writer tag. */
  readonly writer: PartWriterTag | null;
}

/**
 * The subtask, run id, part number and writer of a hidden in-progress/pending
 * file of this sink, or null for any other file (committed parts, other sinks' files).
 */
export function parseInProgressFileName(naming: PartFileNaming, fileName: string): InProgressFile | null {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`^\\.${esc(naming.prefix)}-${esc(naming.uid)}-(\\d+)-(${RUN_ID})-(\\d+)${esc(naming.extension)}(?:\\.(${WRITER_TAG}))?\\.inprogress$`);
  const m = re.exec(fileName);
  return m ? { subtask: Number(m[1]), runId: m[2]!, n: Number(m[3]), writer: m[4] === undefined ? null : parseWriterTag(m[4]) } : null;
}
