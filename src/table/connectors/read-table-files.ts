/**
 * All rows of a `filesystem` table's files now, for a lookup join: the
 * files under the path (as the table's source lists them), decoded by the
 * table's format. A malformed record is an error naming the file and line,
 * unless the format ignores parse errors.
 */
import { readFile } from "node:fs/promises";
import { parseInputPath } from "../../connectors/file/file-source-glob.ts";
import { FileSourceParseError } from "../../connectors/file/file-source-errors.ts";
import { listInputFiles } from "../../connectors/file/file-source-listing.ts";
import { newFileSplit } from "../../connectors/file/file-source-split.ts";
import { MalformedRecord, NEED_MORE_BYTES } from "../../connectors/file/record-format.ts";
import type { Row } from "../data/row.ts";
import type { RecordFormat } from "../../connectors/file/record-format.ts";

/**
 * The rows of the files at `path` as `records` reads them (a table format's
 * records, with partition values for a partitioned table).
 *
 * @throws FileSourceParseError for a malformed record (file, line, reason)
 * @example
 * ```ts
 * const rows = await readTableFiles("rates/", createTableFormat("csv", rowType, new Map()).records);
 * ```
 */
export async function readTableFiles(path: string, records: RecordFormat<Row[]>): Promise<Row[]> {
  const rows: Row[] = [];
  for (const file of await listInputFiles(parseInputPath(path), "modification-time")) {
    const split = newFileSplit(file);
    const decoder = records.open(split);
    decoder.append(await readFile(file));
    decoder.markEnd();
    for (let item = decoder.next(split); item !== NEED_MORE_BYTES; item = decoder.next(split)) {
      if (item instanceof MalformedRecord) throw new FileSourceParseError(file, item.line, item.reason, item.text);
      rows.push(...item);
    }
  }
  return rows;
}
