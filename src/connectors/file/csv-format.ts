/**
 * CSV records, one per line: objects keyed by column names (from each file's
 * header line or from the `columns` option) or, without names, string arrays.
 * Values stay strings; a record with the wrong number of columns is malformed.
 */

import { parseCsvLine } from "./csv-line.ts";
import type { FileSplit } from "./file-source-split.ts";
import { MalformedRecordError, NO_RECORD, type RecordFormat } from "./record-format.ts";

/** CSV options of `FileSource.forRecords`. */
export interface CsvOptions {
  /** Whether the first line of each file names the columns (default true); it is not a record. */
  readonly header?: boolean;
  /** Field separator (default `,`). */
  readonly delimiter?: string;
  /** Column names; they win over the header line's names. */
  readonly columns?: readonly string[];
}

/**
 * The CSV record format.
 *
 * @example
 * ```ts
 * const f = csvFormat({ header: false, columns: ["id", "name"] });
 * f.parse('7,"Smith, J."', split); // { id: "7", name: "Smith, J." }
 * ```
 */
export function csvFormat<T>(options: CsvOptions = {}): RecordFormat<T> {
  const header = options.header ?? true;
  const delimiter = options.delimiter ?? ",";
  if (delimiter.length === 0 || delimiter.includes('"') || /[\r\n]/.test(delimiter)) {
    throw new RangeError(`csv delimiter ${JSON.stringify(delimiter)} must be non-empty and contain no quote or newline`);
  }
  const columns = options.columns ? [...options.columns] : undefined;
  return {
    skipBlankLines: true,
    parse(text: string, split: FileSplit): T | typeof NO_RECORD {
      const r = parseCsvLine(text, delimiter);
      if ("error" in r) throw new MalformedRecordError(r.error);
      const fields = r.fields;
      if (header && split.header === undefined) {
        split.header = columns ?? fields;
        return NO_RECORD;
      }
      const names = columns ?? split.header;
      if (names === undefined) {
        split.width ??= fields.length;
        if (fields.length !== split.width) throw new MalformedRecordError(`expected ${split.width} columns, got ${fields.length}`);
        return fields as T;
      }
      if (fields.length !== names.length) throw new MalformedRecordError(`expected ${names.length} columns, got ${fields.length}`);
      const record: Record<string, string> = {};
      for (let i = 0; i < names.length; i++) record[names[i]!] = fields[i]!;
      return record as T;
    },
  };
}
