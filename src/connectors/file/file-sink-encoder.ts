/**
 * How the file sink turns records into bytes: one line per record as plain
 * text, JSON Lines, or CSV (RFC 4180 quoting).
 */
import { FileSinkOptionError } from "./file-sink-errors.ts";

/** Row formats of the file sink. */
export type RowFormat = "lines" | "jsonl" | "csv";

/** CSV settings. */
export interface CsvOptions {
  /** Fields of object records, in order (default: the keys of each record). */
  columns?: string[];
  /** Write a header line at the start of every part file (default false). */
  header?: boolean;
  /** One character (default ","). */
  delimiter?: string;
}

/** Encodes the records of one format. */
export interface RowEncoder<T> {
  /** The line of a record, newline included. */
  encode(record: T): string;
  /** The first line of a new part file whose first record is `first`, or null. */
  header(first: T): string | null;
  /** File name extension of the format (`""`, `".jsonl"`, `".csv"`). */
  readonly extension: string;
}

/**
 * The encoder of `format`.
 *
 * @throws FileSinkOptionError on a bad CSV delimiter or an unknown format
 * @example
 * ```ts
 * rowEncoder<string[]>("/out", "csv").encode(["a", "b,c"]); // 'a,"b,c"\n'
 * ```
 */
export function rowEncoder<T>(basePath: string, format: RowFormat, csv: CsvOptions = {}): RowEncoder<T> {
  switch (format) {
    case "lines":
      return { encode: (r) => `${String(r)}\n`, header: () => null, extension: "" };
    case "jsonl":
      return { encode: (r) => `${JSON.stringify(r)}\n`, header: () => null, extension: ".jsonl" };
    case "csv":
      return csvEncoder(basePath, csv);
    default:
      throw new FileSinkOptionError(basePath, `unknown format '${format as string}'; use "lines", "jsonl" or "csv"`);
  }
}

function csvEncoder<T>(basePath: string, o: CsvOptions): RowEncoder<T> {
  const delimiter = o.delimiter ?? ",";
  if (delimiter.length !== 1 || /["\r\n]/.test(delimiter)) {
    throw new FileSinkOptionError(basePath, `csv.delimiter must be one character other than a quote or newline, got ${JSON.stringify(delimiter)}`);
  }
  // A row of one empty field is written `""`: an empty line is no record to a CSV reader.
  const line = (fields: readonly unknown[]) => `${fields.map((f) => csvField(f, delimiter)).join(delimiter) || (fields.length === 1 ? '""' : "")}\n`;
  const columnsOf = (r: T): string[] => o.columns ?? (isRecord(r) ? Object.keys(r) : []);
  return {
    encode: (r) => {
      if (Array.isArray(r)) return line(r);
      if (isRecord(r)) return line(columnsOf(r).map((c) => r[c]));
      return line([r]);
    },
    header: (first) => (o.header ? line(columnsOf(first)) : null),
    extension: ".csv",
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * One CSV field: null/undefined empty, objects as JSON, quoted (with doubled
 * quotes) when it holds the delimiter, a quote or a line break.
 *
 * @example
 * ```ts
 * csvField('say "hi"', ","); // '"say ""hi"""'
 * ```
 */
export function csvField(value: unknown, delimiter: string): string {
  if (value === null || value === undefined) return "";
  const s = value instanceof Date ? value.toISOString() : typeof value === "object" ? JSON.stringify(value) : String(value);
  return s.includes(delimiter) || /["\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
