/**
 * CSV records out of chunks of bytes, with `csv-parse`: each record comes
 * with the byte offset just past it, so a reader can keep exact offsets of
 * record boundaries although a quoted field may hold line breaks. Records end
 * at `\n` or `\r\n` outside quotes; empty lines are skipped. Pure; no I/O.
 */
import { CsvError, Parser } from "csv-parse";
import { parse } from "csv-parse/sync";

/** Where a parse stopped on a record it rejects. */
export interface CsvFailure {
  /** Byte offset where the rejected record starts (just past the last record, blank lines included). */
  readonly start: number;
  readonly error: CsvError;
}

const LF = 10;

/** Options of every parse: records as string arrays; the format checks column counts, naming the line. */
function optionsOf(delimiter: string, bom: boolean, raw = false) {
  return { delimiter, bom, raw, record_delimiter: ["\r\n", "\n"], relax_column_count: true, skip_empty_lines: true };
}

/** csv-parse's stream parser, driven by direct calls: every record with the offset past it. */
class RecordParser extends Parser {
  constructor(
    delimiter: string,
    bom: boolean,
    private readonly onRecord: (fields: string[], bytes: number) => void,
  ) {
    super(optionsOf(delimiter, bom));
  }

  override push(record: unknown): boolean {
    if (record !== null) this.onRecord(record as string[], this.info.bytes);
    return true;
  }
}

/**
 * Parses the bytes of a file from a record boundary, chunk by chunk: a record
 * is reported once it is certain (its terminator seen, or the end of the
 * file), with the file offset just past it. A malformed record stops the
 * parser; {@link CsvRecordParser.failure} then says where it starts and why.
 *
 * @example
 * ```ts
 * const p = new CsvRecordParser(0, ",", (fields, end) => console.log(fields, end));
 * p.feed(Buffer.from('1,"a\nb"\n2,'));  // ["1", "a\nb"] 8
 * p.end();                              // ["2", ""] 11
 * ```
 */
export class CsvRecordParser {
  private readonly parser: RecordParser;
  private lastEnd: number;
  private failed: CsvFailure | undefined;

  /**
   * @param start file offset of the first byte to be fed (a byte-order mark is skipped at offset 0)
   * @param onRecord called with each record and the file offset just past it (terminator included)
   */
  constructor(
    start: number,
    delimiter: string,
    onRecord: (fields: string[], end: number) => void,
  ) {
    this.lastEnd = start;
    this.parser = new RecordParser(delimiter, start === 0, (fields, bytes) => {
      this.lastEnd = start + bytes;
      onRecord(fields, this.lastEnd);
    });
  }

  /** The malformed record that stopped the parser, if one did. */
  get failure(): CsvFailure | undefined {
    return this.failed;
  }

  /** Parses the next bytes (nothing once failed). */
  feed(chunk: Buffer): void {
    if (!this.failed) this.parser._transform(chunk, "binary", (e) => this.fail(e)); // the encoding is unused: chunks are bytes
  }

  /** The end of the file: the last record without terminator, or an unterminated quote. */
  end(): void {
    if (!this.failed) this.parser._flush((e) => this.fail(e));
  }

  private fail(e: Error | null | undefined): void {
    if (!e) return;
    if (!(e instanceof CsvError)) throw e;
    this.failed = { start: this.lastEnd, error: e };
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
  let raw: unknown;
  try {
    parse(bytes, { ...optionsOf(delimiter, atFileStart, true), to: 1 });
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
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
