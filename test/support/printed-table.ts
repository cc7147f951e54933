/**
 * Tables as Flink's documentation prints them (the SQL client's boxed
 * `+---+` tables), read back into records and compared with a query's
 * result, so a test states an example's input and output the way the page
 * shows them.
 *
 * The pages shorten TIMESTAMP(3) values (`2020-04-15 08:05` for
 * `2020-04-15 08:05:00.000`) and print NULL as `(NULL)`, `null` or `<NULL>`;
 * values are therefore compared as the SQL client prints them in full:
 * timestamps with their fraction, NULL as `NULL`, other values as
 * `Row.toString` prints them (DECIMAL with its scale, `11.00`).
 */
import type { ResultColumn } from "../../src/table/api/table-result.ts";
import { formatValue } from "../../src/table/data/format-value.ts";
import type { Row } from "../../src/table/data/row.ts";
import { valueFormatOf } from "../../src/table/data/value-format-of.ts";
import type { LogicalType } from "../../src/table/types/logical-type.ts";
import type { SqlValue } from "../../src/table/types/sql-value.ts";
import { formatTimestamp, parseTimestamp } from "../../src/table/types/temporal.ts";

/** A printed table: its header and its cells, trimmed. */
export interface PrintedTable {
  readonly names: string[];
  readonly rows: string[][];
}

const NULL_TEXTS = new Set(["(NULL)", "null", "<NULL>", "NULL"]);

/**
 * The header and rows of a boxed table; lines that are not `| … |` rows
 * (borders, prompts) are skipped, so a page's text can be pasted as is.
 *
 * @example
 * ```ts
 * parsePrintedTable(`
 *   +---+
 *   | s |
 *   +---+
 *   | c |
 *   +---+`); // { names: ["s"], rows: [["c"]] }
 * ```
 */
export function parsePrintedTable(text: string): PrintedTable {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("|") && l.endsWith("|"));
  const [header, ...rows] = lines.map((l) =>
    l
      .slice(1, -1)
      .split("|")
      .map((c) => c.trim()),
  );
  if (header === undefined) throw new Error(`no table in ${JSON.stringify(text)}`);
  for (const r of rows) if (r.length !== header.length) throw new Error(`row [${r.join(", ")}] has ${r.length} cells, the header ${header.length}`);
  return { names: header, rows };
}

/**
 * The records of a printed input table, one object per row keyed by column
 * name, with values the table's Schema reads: TIMESTAMP as epoch
 * milliseconds, INT as a number, DECIMAL as its text (the schema makes it
 * exact), strings as they are.
 *
 * @param types - each column's SQL type as the page's `desc` shows it, e.g. `{ bidtime: "TIMESTAMP(3)", price: "DECIMAL(10, 2)" }`
 */
export function printedRecords(text: string, types: Readonly<Record<string, string>>): Record<string, unknown>[] {
  const t = parsePrintedTable(text);
  for (const n of t.names) if (types[n] === undefined) throw new Error(`no type given for the printed column '${n}'`);
  return t.rows.map((cells) => Object.fromEntries(cells.map((c, i) => [t.names[i]!, recordValue(c, types[t.names[i]!]!)])));
}

function recordValue(cell: string, type: string): unknown {
  if (NULL_TEXTS.has(cell)) return null;
  const upper = type.toUpperCase();
  if (upper.startsWith("TIMESTAMP")) return parseTimestamp(cell);
  if (/^(TINYINT|SMALLINT|INT|INTEGER|BIGINT)\b/.test(upper)) return Number(cell);
  return cell;
}

/** A value as the SQL client prints it in full: `2020-04-15 08:05:00.000`, `11.00`, `NULL`. */
export function clientText(value: SqlValue, type: LogicalType): string {
  if (value === null) return "NULL";
  if (type.kind === "timestamp" && !type.withLocalTimeZone && typeof value === "number") return formatTimestamp(value, type.precision);
  return formatValue(value, valueFormatOf(type));
}

/** A printed cell in the same text as {@link clientText} prints the value it stands for. */
function printedCellText(cell: string, type: LogicalType): string {
  if (NULL_TEXTS.has(cell)) return "NULL";
  if (type.kind === "timestamp" && !type.withLocalTimeZone) return formatTimestamp(parseTimestamp(cell), type.precision);
  return cell;
}

/** How result rows line up with a printed table. */
export interface MatchOptions {
  /**
   * The result column of each printed column, by position, where the page's
   * header does not name them (e.g. a header the page got wrong). By default
   * the printed header names the result columns.
   */
  readonly columns?: readonly string[];
}

/**
 * The rows of a result and of a printed table in one text each, one line per
 * row (`a | b | c`), sorted: equal when the result holds the rows the page
 * prints, duplicates counted. Only the printed columns are compared; each
 * must be a result column.
 */
export function sideBySide(
  result: { readonly columns: readonly ResultColumn[]; readonly rows: readonly Row[] },
  printed: string,
  options: MatchOptions = {},
): { actual: string[]; expected: string[] } {
  const table = parsePrintedTable(printed);
  const names = options.columns ?? table.names;
  if (names.length !== table.names.length) throw new Error(`${names.length} column names for ${table.names.length} printed columns`);
  const positions = names.map((n) => {
    const i = result.columns.findIndex((c) => c.name === n);
    if (i < 0) throw new Error(`the result has no column '${n}'; its columns are ${result.columns.map((c) => c.name).join(", ")}`);
    return i;
  });
  const types = positions.map((p) => result.columns[p]!.type);
  const actual = resultLines(result, positions);
  const expected = table.rows.map((cells) => cells.map((c, j) => printedCellText(c, types[j]!)).join(" | ")).sort();
  return { actual, expected };
}

/** The rows of a result, one sorted line each (`a | b | c`), of the columns at `positions` (all by default). */
export function resultLines(
  result: { readonly columns: readonly ResultColumn[]; readonly rows: readonly Row[] },
  positions: readonly number[] = result.columns.map((_, i) => i),
): string[] {
  return result.rows.map((r) => positions.map((p) => clientText(r.fields[p]!, result.columns[p]!.type)).join(" | ")).sort();
}
