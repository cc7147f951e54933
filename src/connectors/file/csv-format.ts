/**
 * CSV records (RFC 4180, parsed by `csv-parse`, see `csv-record-parser.ts`): objects keyed by column names
 * (from each file's header or from the `columns` option) or, without names,
 * string arrays. A quoted field may hold the delimiter, quotes written as `""`
 * and line breaks, so a record may span lines: the split's offset always
 * points at the start of a record. Values stay strings; a record with the
 * wrong number of columns is malformed.
 */

import type { CsvError } from "csv-parse";
import { CsvRecordParser, csvErrorReason, malformedRecordLength } from "./csv-record-parser.ts";
import type { FileSplit } from "./file-source-split.ts";
import { MalformedRecord, MalformedRecordError, NEED_MORE_BYTES, type Decoded, type RecordDecoder, type RecordFormat } from "./record-format.ts";

/** CSV options of `FileSource.forRecords`. */
export interface CsvOptions {
  /** Whether the first record of each file names the columns (default true); it is not a record. */
  readonly header?: boolean;
  /** Field separator (default `,`). */
  readonly delimiter?: string;
  /** Column names; they win over the header's names. */
  readonly columns?: readonly string[];
}

/** The settings a decoder works with. */
interface CsvSettings {
  readonly header: boolean;
  readonly delimiter: string;
  readonly columns: readonly string[] | undefined;
  /** Without names: the number of fields every record has (default: as many as the file's first record). */
  readonly width?: number;
  /** Skip records whose line starts with `#`. */
  readonly comments?: boolean;
  /** Turns each record into the decoder's result; may throw `MalformedRecordError`. */
  readonly convert?: (record: never) => unknown;
}

const LF = 10;
const CR = 13;
const EMPTY = Buffer.alloc(0);
/** A line that holds no record (a header, a line of spaces). */
const SKIPPED: unique symbol = Symbol("skipped");

/**
 * The CSV record format.
 *
 * @example
 * ```ts
 * const source = FileSource.forRecords<{ id: string; note: string }>("in/*.csv", { format: "csv" }); // uses csvFormat
 * ```
 */
export function csvFormat<T>(options: CsvOptions = {}): RecordFormat<T> {
  const delimiter = checkedDelimiter(options.delimiter ?? ",");
  const settings: CsvSettings = { header: options.header ?? true, delimiter, columns: options.columns ? [...options.columns] : undefined };
  return { open: (split) => new CsvDecoder<T>(split.offset, settings) };
}

/** Options of {@link csvFieldsFormat}. */
export interface CsvFieldsOptions<T> {
  readonly delimiter: string;
  /** The number of fields of every record; a record with another number is malformed. */
  readonly width: number;
  /** Skip lines starting with `#` (such a line must not hold a quote). */
  readonly comments: boolean;
  /** The result of a record's fields; throws `MalformedRecordError` for fields it cannot take. */
  readonly convert: (fields: string[]) => T;
}

/**
 * CSV records without a header, each of exactly `width` fields, converted by
 * `convert` (a conversion error is a malformed record, with the record's line).
 *
 * @example
 * ```ts
 * FileSource.forFormat("in/", csvFieldsFormat({ delimiter: ",", width: 2, comments: true, convert: (f) => [f[0], Number(f[1])] }));
 * ```
 */
export function csvFieldsFormat<T>(options: CsvFieldsOptions<T>): RecordFormat<T> {
  const settings: CsvSettings = {
    header: false,
    delimiter: checkedDelimiter(options.delimiter),
    columns: undefined,
    width: options.width,
    comments: options.comments,
    convert: options.convert as (record: never) => unknown,
  };
  return { open: (split) => new CsvDecoder<T>(split.offset, settings) };
}

function checkedDelimiter(delimiter: string): string {
  // U+FFFD and lone surrogates could match where the bytes hold no delimiter (invalid UTF-8 decodes to U+FFFD)
  if (delimiter.length === 0 || /["\r\n\uFFFD\p{Cs}]/u.test(delimiter)) {
    throw new RangeError(`csv delimiter ${JSON.stringify(delimiter)} must be non-empty text without a quote, a newline or U+FFFD`);
  }
  return delimiter;
}

class CsvDecoder<T> implements RecordDecoder<T> {
  /** Unconsumed bytes start at `buf[pos]`, file offset `start + pos`. */
  private buf: Buffer = EMPTY;
  private pos = 0;
  private ended = false;
  private parser: CsvRecordParser;
  /** Records parsed and not taken yet (from `taken` on), each with the file offset just past it. */
  private readonly parsed: string[][] = [];
  private readonly ends: number[] = [];
  private taken = 0;

  /** @param start file offset of the first byte to be appended (a record boundary) */
  constructor(
    private start: number,
    private readonly settings: CsvSettings,
  ) {
    this.parser = this.parserAt(start);
  }

  get readPosition(): number {
    return this.start + this.buf.length;
  }

  get exhausted(): boolean {
    return this.ended && this.pos === this.buf.length;
  }

  append(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const rest = this.buf.subarray(this.pos);
    this.start += this.pos;
    this.buf = rest.length === 0 ? bytes : Buffer.concat([rest, bytes]);
    this.pos = 0;
    this.parser.feed(bytes);
  }

  markEnd(): void {
    this.ended = true;
    this.parser.end();
  }

  next(split: FileSplit): Decoded<T> {
    for (;;) {
      if (this.taken < this.parsed.length) {
        const fields = this.parsed[this.taken]!;
        const end = this.ends[this.taken++]! - this.start;
        const from = this.pos;
        const line = this.consume(end, split);
        const decoded = this.shape(fields, split, line, () => this.textOf(from, end));
        if (decoded !== SKIPPED) return decoded;
        continue;
      }
      this.parsed.length = this.ends.length = this.taken = 0;
      const failure = this.parser.failure;
      if (failure) return this.malformed(failure.start - this.start, failure.error, split);
      if (this.ended && this.pos < this.buf.length) this.consume(this.buf.length, split); // only blank lines are left
      return NEED_MORE_BYTES;
    }
  }

  /** The malformed record at `from` (once the end of its line is there), and a new parser after it. */
  private malformed(from: number, error: CsvError, split: FileSplit): Decoded<T> {
    const bytes = this.buf.subarray(from);
    const length = malformedRecordLength(bytes, this.settings.delimiter, this.start + from === 0, this.ended);
    if (length === undefined) return NEED_MORE_BYTES;
    const end = from + length;
    const line = this.consume(end, split);
    this.parser = this.parserAt(this.start + end);
    this.parser.feed(this.buf.subarray(end));
    if (this.ended) this.parser.end();
    return new MalformedRecord(line, this.textOf(from, end), csvErrorReason(error));
  }

  private parserAt(offset: number): CsvRecordParser {
    return new CsvRecordParser(offset, this.settings.delimiter, (fields, end) => {
      this.parsed.push(fields);
      this.ends.push(end);
    });
  }

  /** Moves past the bytes up to `end`; returns the line where the record among them starts. */
  private consume(end: number, split: FileSplit): number {
    const buf = this.buf;
    let at = this.pos;
    let line = split.line;
    while (at < end && (buf[at] === LF || buf[at] === CR)) if (buf[at++] === LF) line++; // blank lines before it
    let lines = line - split.line;
    for (let lf = buf.indexOf(LF, at); lf >= 0 && lf < end; lf = lf + 1 < end ? buf.indexOf(LF, lf + 1) : -1) lines++;
    split.line += lines;
    split.offset = this.start + end;
    this.pos = end;
    return line;
  }

  /** The text of the bytes `from`..`end` without blank lines before and the terminator after. */
  private textOf(from: number, end: number): string {
    const buf = this.buf;
    while (from < end && (buf[from] === LF || buf[from] === CR)) from++;
    if (end > from && buf[end - 1] === LF) end--;
    if (end > from && buf[end - 1] === CR) end--;
    return buf.toString("utf8", from, end);
  }

  /** The record of `fields` (a header or a whitespace-only line gives none: SKIPPED). */
  private shape(fields: string[], split: FileSplit, line: number, text: () => string): T | MalformedRecord | typeof SKIPPED {
    const { header, columns, comments } = this.settings;
    if (comments && text().startsWith("#")) return SKIPPED;
    const names = columns ?? split.header;
    const width = names?.length ?? this.settings.width ?? split.width;
    // a line of spaces is blank, unless the file has a single column
    if (fields.length === 1 && width !== 1 && fields[0]!.trim() === "" && text().trim() === "") return SKIPPED;
    if (header && split.header === undefined) {
      split.header = columns ? [...columns] : fields;
      return SKIPPED;
    }
    if (names === undefined) {
      const expected = this.settings.width ?? (split.width ??= fields.length);
      if (fields.length !== expected) return new MalformedRecord(line, text(), `expected ${expected} columns, got ${fields.length}`);
      return this.converted(fields, line, text);
    }
    if (fields.length !== names.length) return new MalformedRecord(line, text(), `expected ${names.length} columns, got ${fields.length}`);
    const record: Record<string, string> = {};
    for (let i = 0; i < names.length; i++) record[names[i]!] = fields[i]!;
    return this.converted(record, line, text);
  }

  private converted(record: unknown, line: number, text: () => string): T | MalformedRecord {
    const convert = this.settings.convert;
    if (convert === undefined) return record as T;
    try {
      return convert(record as never) as T;
    } catch (e) {
      if (!(e instanceof MalformedRecordError)) throw e;
      return new MalformedRecord(line, text(), e.reason);
    }
  }
}
