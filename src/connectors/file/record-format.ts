/**
 * How the bytes of an input file become records. A format opens a decoder
 * per file at a record boundary (the split's byte offset); the reader appends
 * the file's chunks and takes records, and the decoder advances the split's
 * offset and line past each one, so a checkpoint always holds the start of
 * the next record. Line formats cut at line ends; CSV (`csv-format.ts`) cuts
 * where its parser ends a record, so a quoted field may span lines.
 */

import type { FileSplit } from "./file-source-split.ts";
import { LineBuffer } from "./line-buffer.ts";

/** Thrown by a line parser for a line it cannot parse; the reader adds file and line. */
export class MalformedRecordError extends Error {
  override readonly name = "MalformedRecordError";

  /** @param reason what is wrong with the line, e.g. "invalid JSON (…)" */
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** A record a decoder could not parse, with its place. */
export class MalformedRecord {
  constructor(
    /** 1-based line where the record starts. */
    readonly line: number,
    /** The record's text, without its terminator. */
    readonly text: string,
    readonly reason: string,
  ) {}
}

/** Returned by a decoder that needs more bytes (or has consumed everything). */
export const NEED_MORE_BYTES: unique symbol = Symbol("need more bytes");

/** What a decoder found next: a record (returned as it is: no allocation per record), or a malformed one. */
export type Decoded<T> = T | MalformedRecord | typeof NEED_MORE_BYTES;

/** Cuts the bytes of one file, appended chunk by chunk, into records. */
export interface RecordDecoder<T> {
  /** Byte offset in the file of the next byte to append. */
  readonly readPosition: number;
  /** Whether the end of the file was reached and every byte consumed. */
  readonly exhausted: boolean;
  /** Adds the next bytes of the file. */
  append(chunk: Uint8Array): void;
  /** Records that the file has no more bytes. */
  markEnd(): void;
  /**
   * The next record (or malformed record), after which `split.offset` and
   * `split.line` point past it and past any line without a record (blank,
   * header); `NEED_MORE_BYTES` when more bytes are needed, or when exhausted.
   */
  next(split: FileSplit): Decoded<T>;
}

/** Parses the files of a source into records. */
export interface RecordFormat<T> {
  /** A decoder of the file of `split`, from `split.offset` (the start of a record). */
  open(split: FileSplit): RecordDecoder<T>;
}

const BOM = 0xfeff;

/**
 * A format of one record per line: `parse` gets each line (terminator removed,
 * byte-order mark stripped) and returns the record or throws
 * {@link MalformedRecordError}. Lines are decoded as UTF-8, or with
 * `encoding` (`latin1`: each byte one character, for a format that reads bytes).
 *
 * @example
 * ```ts
 * const numbers = lineFormat(true, (line) => {
 *   const n = Number(line);
 *   if (Number.isNaN(n)) throw new MalformedRecordError("not a number");
 *   return n;
 * });
 * ```
 */
export function lineFormat<T>(skipBlankLines: boolean, parse: (line: string) => T, encoding: BufferEncoding = "utf8"): RecordFormat<T> {
  return {
    open(split) {
      const lines = new LineBuffer(split.offset);
      return {
        get readPosition() {
          return lines.readPosition;
        },
        get exhausted() {
          return lines.exhausted;
        },
        append: (chunk) => lines.append(chunk),
        markEnd: () => lines.markEnd(),
        next(s) {
          for (;;) {
            let text = lines.nextLine(encoding);
            if (text === undefined) return NEED_MORE_BYTES;
            const line = s.line++;
            s.offset = lines.offset;
            if (line === 1 && text.charCodeAt(0) === BOM) text = text.slice(1);
            if (skipBlankLines && text.trim() === "") continue;
            try {
              return parse(text);
            } catch (e) {
              if (!(e instanceof MalformedRecordError)) throw e;
              return new MalformedRecord(line, text, e.reason);
            }
          }
        },
      };
    },
  };
}

/** Every line, as is (blank lines included). */
export const linesFormat: RecordFormat<string> = lineFormat(false, (text) => text);

/** One JSON value per line (JSON Lines); blank lines are skipped. */
export function jsonLinesFormat<T>(): RecordFormat<T> {
  return lineFormat(true, (text) => {
    try {
      return JSON.parse(text) as T;
    } catch (e) {
      throw new MalformedRecordError(`invalid JSON (${(e as Error).message})`);
    }
  });
}

/**
 * `format` without its malformed records: a decoder of it moves past them
 * (as Flink's formats do with `ignore-parse-errors`).
 *
 * @example
 * ```ts
 * FileSource.forFormat("in/", skipMalformed(jsonLinesFormat()));
 * ```
 */
export function skipMalformed<T>(format: RecordFormat<T>): RecordFormat<T> {
  return {
    open(split) {
      const d = format.open(split);
      return {
        get readPosition() {
          return d.readPosition;
        },
        get exhausted() {
          return d.exhausted;
        },
        append: (chunk) => d.append(chunk),
        markEnd: () => d.markEnd(),
        next(s) {
          for (;;) {
            const item = d.next(s);
            if (!(item instanceof MalformedRecord)) return item;
          }
        },
      };
    },
  };
}
