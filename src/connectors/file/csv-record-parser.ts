/**
 * CSV records out of chunks of bytes: each record comes with the byte offset
 * just past it, so a reader can keep exact offsets of record boundaries
 * although a quoted field may hold line breaks. Records end at `\n` or `\r\n`
 * outside quotes; empty lines are skipped. Pure; no I/O.
 *
 * Records that hold a quote character are parsed by `csv-parse`; lines
 * without any are split directly on the delimiter, which is what `csv-parse`
 * makes of them (without quotes, RFC 4180 has nothing but delimiters and line
 * ends) at a fraction of its cost. The test checks both ways against
 * `csv-parse` alone on random inputs. `csv-parse` loads at its first use, not
 * with Weir (which every job would wait for).
 */
import { createRequire } from "node:module";
import type { CsvError, Options } from "csv-parse";

/** Where a parse stopped on a record it rejects. */
export interface CsvFailure {
  /** Byte offset where the rejected record starts (just past the last record, blank lines included). */
  readonly start: number;
  readonly error: CsvError;
}

const LF = 10;
const CR = 13;
const QUOTE = 34;
const EMPTY = Buffer.alloc(0);
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Options of every parse: records as string arrays; the format checks column counts, naming the line. */
function optionsOf(delimiter: string, bom: boolean, raw = false) {
  return { delimiter, bom, raw, record_delimiter: ["\r\n", "\n"], relax_column_count: true, skip_empty_lines: true };
}

/** csv-parse's stream parser, driven by direct calls: every record with the count of bytes fed up to its end. */
interface RecordParser {
  /** Parses `bytes` (or ends the input, without): the error that stopped the parser, if one did. */
  parseNext(bytes: Buffer | undefined): Error | undefined;
}

/** What this module uses of csv-parse. */
interface CsvParse {
  /** Whether `e` is csv-parse's error (its CommonJS builds of the parser and of `parse` each have their own class). */
  readonly isCsvError: (e: unknown) => e is CsvError;
  readonly parse: (input: Buffer, options: Options) => unknown;
  readonly RecordParser: new (delimiter: string, onRecord: (fields: string[], bytes: number) => void) => RecordParser;
}

let csvParse: CsvParse | undefined;

/** csv-parse, loaded (synchronously, its CommonJS build) at the first call. */
function csv(): CsvParse {
  if (csvParse) return csvParse;
  const require = createRequire(import.meta.url);
  const lib = require("csv-parse") as typeof import("csv-parse");
  const sync = require("csv-parse/sync") as typeof import("csv-parse/sync");
  class Records extends lib.Parser implements RecordParser {
    constructor(
      delimiter: string,
      private readonly onRecord: (fields: string[], bytes: number) => void,
    ) {
      super(optionsOf(delimiter, false));
    }

    override push(record: unknown): boolean {
      if (record !== null) this.onRecord(record as string[], this.info.bytes);
      return true;
    }

    parseNext(bytes: Buffer | undefined): Error | undefined {
      let error: Error | null | undefined;
      if (bytes) this._transform(bytes, "binary", (e) => (error = e)); // the encoding is unused: chunks are bytes
      else this._flush((e) => (error = e));
      return error ?? undefined;
    }
  }
  const isCsvError = (e: unknown): e is CsvError => e instanceof lib.CsvError || e instanceof sync.CsvError;
  return (csvParse = { isCsvError, parse: sync.parse, RecordParser: Records });
}

/**
 * Parses the bytes of a file from a record boundary, chunk by chunk: a record
 * is reported once it is certain (its terminator seen, or the end of the
 * file), with the file offset just past it. A malformed record stops the
 * parser; {@link CsvRecordParser.failure} then says where it starts and why.
 * Text is UTF-8; a byte-order mark at the start of the file is skipped. The
 * delimiter must be well-formed text other than U+FFFD (checked by the CSV
 * format), so that splitting decoded text equals splitting the bytes.
 *
 * @example
 * ```ts
 * const p = new CsvRecordParser(0, ",", (fields, end) => console.log(fields, end));
 * p.feed(Buffer.from('1,"a\nb"\n2,'));  // ["1", "a\nb"] 8
 * p.end();                              // ["2", ""] 11
 * ```
 */
export class CsvRecordParser {
  /** Bytes not parsed yet, from file offset `at`: a record boundary, or blank lines before one. */
  private pending: Buffer = EMPTY;
  private at: number;
  private lastEnd: number;
  private bomChecked: boolean;
  private failed: CsvFailure | undefined;

  /**
   * @param start file offset of the first byte to be fed (a byte-order mark is skipped at offset 0)
   * @param onRecord called with each record and the file offset just past it (terminator included)
   */
  constructor(
    start: number,
    private readonly delimiter: string,
    private readonly onRecord: (fields: string[], end: number) => void,
  ) {
    this.at = start;
    this.lastEnd = start;
    this.bomChecked = start !== 0;
  }

  /** The malformed record that stopped the parser, if one did. */
  get failure(): CsvFailure | undefined {
    return this.failed;
  }

  /** Parses the next bytes (nothing once failed). */
  feed(chunk: Buffer): void {
    if (this.failed) return;
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    this.parsePending(false);
  }

  /** The end of the file: the last record without terminator, or an unterminated quote. */
  end(): void {
    if (!this.failed) this.parsePending(true);
  }

  /**
   * Reports the records of the pending bytes that are certain: lines without
   * quotes split directly, stretches of records with quotes parsed by one
   * `csv-parse` parser as if they followed each other, mapped back.
   */
  private parsePending(atEnd: boolean): void {
    if (!this.bomChecked) {
      if (this.pending.length < UTF8_BOM.length && !atEnd) return;
      if (this.pending.subarray(0, UTF8_BOM.length).equals(UTF8_BOM)) {
        this.pending = this.pending.subarray(UTF8_BOM.length);
        this.at += UTF8_BOM.length;
      }
      this.bomChecked = true;
    }
    const buf = this.pending;
    const { quoted, done } = planOf(buf, atEnd);
    if (quoted.length === 0) {
      this.split(buf, 0, done);
    } else {
      const records: string[][] = [];
      const ends: number[] = []; // offsets in the quoted stretches put end to end
      const { RecordParser, isCsvError } = csv();
      const parser = new RecordParser(this.delimiter, (fields, bytes) => {
        records.push(fields);
        ends.push(bytes);
      });
      let error: Error | undefined;
      for (let i = 0; i < quoted.length && !error; i += 2) error = parser.parseNext(buf.subarray(quoted[i], quoted[i + 1]));
      error ??= parser.parseNext(undefined);
      if (error && !isCsvError(error)) throw error;
      // the rejected record starts where the last record ends, in the stretches
      const rejectedAt = error ? (ends.at(-1) ?? 0) : -1;
      let from = 0;
      let joined = 0;
      let r = 0;
      for (let i = 0; i < quoted.length; i += 2) {
        const start = quoted[i]!;
        const length = quoted[i + 1]! - start;
        this.split(buf, from, start);
        for (; r < records.length && ends[r]! <= joined + length; r++) this.report(records[r]!, this.at + start + ends[r]! - joined);
        if (rejectedAt >= joined && rejectedAt < joined + length) {
          this.failed = { start: this.lastEnd, error: error as CsvError };
          return;
        }
        // cannot happen: a stretch ends at a line end where quotes balance, which ends a record csv-parse accepts
        if (ends[r - 1] !== joined + length) throw new Error(`CSV parser out of step at file offset ${this.at + start}`);
        joined += length;
        from = start + length;
      }
      if (error) throw new Error(`CSV parser out of step: ${error.message}`); // cannot happen: a rejected record is in a stretch
      this.split(buf, from, done);
    }
    this.pending = buf.subarray(done);
    this.at += done;
  }

  /** Reports the records of the lines of `buf` from `from` to `to`, which hold no quote (a last line may lack its `\n`). */
  private split(buf: Buffer, from: number, to: number): void {
    for (let s = from; s < to; ) {
      const lf = buf.indexOf(LF, s);
      const terminated = lf >= 0 && lf < to;
      const next = terminated ? lf + 1 : to;
      const e = !terminated ? to : lf > s && buf[lf - 1] === CR ? lf - 1 : lf;
      if (e > s) this.report(fieldsOf(buf.toString("utf8", s, e), this.delimiter), this.at + next);
      s = next;
    }
  }

  private report(fields: string[], end: number): void {
    this.lastEnd = end;
    this.onRecord(fields, end);
  }
}

/** `line.split(delimiter)`, written out: V8 runs `split` through a slower path; this loop is about a third faster on CSV lines. */
function fieldsOf(line: string, delimiter: string): string[] {
  const fields: string[] = [];
  let at = 0;
  for (let d = line.indexOf(delimiter); d >= 0; d = line.indexOf(delimiter, at)) {
    fields.push(line.slice(at, d));
    at = d + delimiter.length;
  }
  fields.push(line.slice(at));
  return fields;
}

/**
 * Which bytes of `buf` (from a record boundary) are certain, and which of them
 * are records with quotes: `quoted` holds start and end of each stretch of
 * them; `done` is where the certain bytes end (the end of the last complete
 * line outside quotes, or of `buf` at the end of the file).
 */
function planOf(buf: Buffer, atEnd: boolean): { quoted: number[]; done: number } {
  const quoted: number[] = [];
  for (let pos = 0; ; ) {
    const quote = buf.indexOf(QUOTE, pos);
    if (quote < 0) return { quoted, done: atEnd ? buf.length : buf.lastIndexOf(LF) + 1 };
    const start = buf.lastIndexOf(LF, quote) + 1; // pos follows a line end: start >= pos
    const end = quotedRecordsEnd(buf, quote, atEnd);
    if (end < 0) return { quoted, done: start };
    if (quoted.at(-1) === start) quoted[quoted.length - 1] = end; // one stretch with the records just before
    else quoted.push(start, end);
    pos = end;
  }
}

/**
 * The end of the records around the quote at `quote` (the first since a
 * record boundary): past the first line end after a balanced number of quotes
 * that comes before any other quote; -1 when `buf` does not reach it yet.
 * Quotes balance at the end of each record `csv-parse` accepts (a quote opens
 * a field, closes it, or is doubled inside it), and a rejected record stops
 * the parse anyway.
 */
function quotedRecordsEnd(buf: Buffer, quote: number, atEnd: boolean): number {
  for (let open = quote; ; ) {
    const close = buf.indexOf(QUOTE, open + 1);
    if (close < 0) return atEnd ? buf.length : -1;
    const lf = buf.indexOf(LF, close + 1);
    const next = buf.indexOf(QUOTE, close + 1);
    if (lf >= 0 && (next < 0 || lf < next)) return lf + 1;
    if (next < 0) return atEnd ? buf.length : -1;
    open = next;
  }
}

/**
 * Where a malformed record ends: just past the line on which the parser finds
 * the problem, or at the end of `bytes` (the record's bytes up to the end of
 * the file) when that line has no end; undefined when `bytes` do not reach the
 * end of that line yet and the file goes on.
 *
 * @param bytes the bytes from the record's start
 * @param atFileStart whether the record starts the file
 * @param atEnd whether `bytes` run to the end of the file
 */
export function malformedRecordLength(bytes: Buffer, delimiter: string, atFileStart: boolean, atEnd: boolean): number | undefined {
  const { parse, isCsvError } = csv();
  let raw: unknown;
  try {
    parse(bytes, { ...optionsOf(delimiter, atFileStart, true), to: 1 });
  } catch (e) {
    if (!isCsvError(e)) throw e;
    raw = e.raw; // the record's text up to the problem
  }
  const lf = bytes.indexOf(LF, typeof raw === "string" ? Buffer.byteLength(raw) : 0);
  if (lf >= 0) return lf + 1;
  return atEnd ? bytes.length : undefined;
}

/** The problem in our words (the parser's own messages count lines from where it started). */
export function csvErrorReason(e: CsvError): string {
  const column = typeof e.column === "number" ? ` (column ${e.column + 1})` : "";
  switch (e.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return `unterminated quoted field${column}`;
    case "CSV_INVALID_CLOSING_QUOTE":
      return `unexpected character after closing quote${column}`;
    case "INVALID_OPENING_QUOTE":
      return `quote inside an unquoted field${column}`;
    default:
      return e.message;
  }
}
