/**
 * How a line of an input file becomes a record. A format is pure: it sees
 * the line's text and its file's split (for per-file facts such as a CSV
 * header) and returns the record, {@link NO_RECORD}, or throws
 * {@link MalformedRecordError}.
 */

import type { FileSplit } from "./file-source-split.ts";

/** Returned by a format for a line that is not a record (a CSV header line). */
export const NO_RECORD: unique symbol = Symbol("no record");

/** Thrown by a format for a line it cannot parse; the reader adds file and line. */
export class MalformedRecordError extends Error {
  override readonly name = "MalformedRecordError";

  /** @param reason what is wrong with the line, e.g. "expected 3 columns, got 2" */
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Parses lines of an input file into records. */
export interface RecordFormat<T> {
  /** Whether lines of only whitespace are skipped (they still count for line numbers). */
  readonly skipBlankLines: boolean;
  /**
   * The record of one line (terminator removed, byte-order mark stripped).
   * May update per-file facts in `split` (plain data, checkpointed).
   *
   * @throws MalformedRecordError when the line is not a valid record
   */
  parse(text: string, split: FileSplit): T | typeof NO_RECORD;
}

/** Every line, as is (blank lines included). */
export const linesFormat: RecordFormat<string> = {
  skipBlankLines: false,
  parse: (text) => text,
};

/** One JSON value per line (JSON Lines); blank lines are skipped. */
export function jsonLinesFormat<T>(): RecordFormat<T> {
  return {
    skipBlankLines: true,
    parse(text) {
      try {
        return JSON.parse(text) as T;
      } catch (e) {
        throw new MalformedRecordError(`invalid JSON (${(e as Error).message})`);
      }
    },
  };
}
