/**
 * Flink's `tableau` printing of results: a boxed table whose column widths
 * follow the column types (at most 30 characters, longer values cut with
 * `...`), with an `op` column for changelog rows, printed row by row as the
 * rows arrive. Widths are terminal columns: wide (CJK, emoji) characters
 * count twice.
 */
import { formatValue } from "../data/format-value.ts";
import type { Row } from "../data/row.ts";
import { valueFormatOf } from "../data/value-format-of.ts";
import type { LogicalType } from "../types/logical-type.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { formatTime, formatTimestamp } from "../types/temporal.ts";
import { cutToWidth, displayWidth, padStartToWidth } from "./display-width.ts";

const MAX_WIDTH = 30;

function typeWidth(t: LogicalType, maxWidth = MAX_WIDTH): number {
  switch (t.kind) {
    case "boolean": return 5;
    case "tinyint": return 4;
    case "smallint": return 6;
    case "int": return 11;
    case "bigint": return 20;
    case "float": case "double": return 22;
    case "decimal": return t.precision + 2;
    case "date": return 10;
    case "time": return 12;
    case "timestamp": return 23;
    case "char": case "varchar": return Math.min(maxWidth, t.length);
    default: return maxWidth;
  }
}

/** Prints rows of `columns` as a table, one line per row as it comes. */
export class TableauPrinter {
  private readonly widths: number[];
  private readonly formats;

  constructor(
    private readonly columns: readonly { name: string; type: LogicalType }[],
    private readonly withKind: boolean,
    private readonly write: (line: string) => void,
    /** Widest column; longer values are cut with `...` (Flink's `sql-client.display.max-column-width`). */
    maxWidth = MAX_WIDTH,
  ) {
    this.widths = columns.map((c) => Math.min(maxWidth, Math.max(displayWidth(c.name), typeWidth(c.type, maxWidth), 4)));
    if (withKind) this.widths.unshift(2);
    this.formats = columns.map((c) => valueFormatOf(c.type));
  }

  private border(): string {
    return "+" + this.widths.map((w) => "-".repeat(w + 2)).join("+") + "+";
  }

  private line(cells: string[]): string {
    return "|" + cells.map((c, i) => " " + padStartToWidth(cutToWidth(c, this.widths[i]!, "..."), this.widths[i]!) + " ").join("|") + "|";
  }

  /** The header. */
  header(): void {
    this.write(this.border());
    this.write(this.line([...(this.withKind ? ["op"] : []), ...this.columns.map((c) => c.name)]));
    this.write(this.border());
  }

  /** One row. */
  row(r: Row): void {
    const cells = r.fields.map((v, i) => (v === null ? "<NULL>" : this.cell(v, this.columns[i]!.type, i)));
    this.write(this.line([...(this.withKind ? [r.kind] : []), ...cells]));
  }

  /**
   * A value as the SQL client shows it: TIMESTAMP and TIME as SQL text
   * (`2020-04-15 08:05:00.000`, `08:05:00`, as `CAST(… AS STRING)`), other
   * values as `Row.toString` prints them.
   */
  private cell(v: NonNullable<SqlValue>, type: LogicalType, i: number): string {
    if (type.kind === "timestamp" && !type.withLocalTimeZone && typeof v === "number") return formatTimestamp(v, type.precision);
    if (type.kind === "time" && typeof v === "number") return formatTime(v, type.precision);
    return formatValue(v, this.formats[i]);
  }

  /** The closing border and the row count. */
  footer(count: number): void {
    this.write(this.border());
    this.write(count === 0 ? "Empty set" : `${count} row${count === 1 ? "" : "s"} in set`);
  }
}
