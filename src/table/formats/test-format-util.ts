/**
 * Test support for the table formats: a format from a `CREATE TABLE`
 * statement, and the rows (or malformed records) its real file decoder
 * finds in a text, as the file source would read it.
 */
import { newFileSplit } from "../../connectors/file/file-source-split.ts";
import { MalformedRecord, NEED_MORE_BYTES } from "../../connectors/file/record-format.ts";
import { tableFactoryRegistry } from "../connectors/table-factory-registry.ts";
import { tableFromStatement } from "../catalog/catalog-table.ts";
import { resolveIdentifier } from "../catalog/object-identifier.ts";
import type { Row } from "../data/row.ts";
import type { RowType } from "../expr/type-rules.ts";
import type { StatementOf } from "../sql/ast.ts";
import { parseStatement } from "../sql/parser.ts";
import { createTableFormat } from "./builtin-formats.ts";
import type { TableFormat } from "./table-format.ts";

/** The format of a filesystem table declared by `createTable`, and its row type. */
export function formatOfTable(createTable: string): { format: TableFormat; rowType: RowType } {
  const stmt = parseStatement(createTable) as StatementOf<"createTable">;
  const table = tableFromStatement(stmt, resolveIdentifier(stmt.name));
  const physical = table.schema.columns.flatMap((c) => (c.kind === "physical" ? [c] : []));
  const rowType: RowType = { names: physical.map((c) => c.name), types: physical.map((c) => c.type) };
  const v = tableFactoryRegistry().validate(table.options);
  return { format: createTableFormat(v.format!.identifier, rowType, v.format!.options), rowType };
}

/** What the format's decoder reads from `text` (fed in chunks of `chunk` bytes): rows, and malformed records in place. */
export function decodeText(format: TableFormat, text: string, chunk = 7): (Row | MalformedRecord)[] {
  const split = newFileSplit("in.txt");
  const decoder = format.records.open(split);
  const bytes = Buffer.from(text);
  const out: (Row | MalformedRecord)[] = [];
  let at = 0;
  for (;;) {
    const item = decoder.next(split);
    if (item === NEED_MORE_BYTES) {
      if (decoder.exhausted) return out;
      if (at >= bytes.length) decoder.markEnd();
      else decoder.append(bytes.subarray(at, (at += chunk)));
      continue;
    }
    if (item instanceof MalformedRecord) out.push(item);
    else out.push(...item);
  }
}
