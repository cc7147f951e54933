/**
 * A format of the `filesystem` connector: how a table's rows become records
 * of its files and back (Flink's `DecodingFormat` / `EncodingFormat` over
 * text). Reading yields the rows of each record (a changelog format may turn
 * one record into two rows: an update's `-U` and `+U`); writing turns each row
 * into one record (a line, or a CSV record).
 */
import type { RecordFormat } from "../../connectors/file/record-format.ts";
import type { Row } from "../data/row.ts";
import type { ChangelogMode } from "../plan/changelog-mode.ts";

/** A format of table rows as text records, for a table's physical row type. */
export interface TableFormat {
  /** The format's identifier (`'format' = '…'`). */
  readonly identifier: string;
  /** The row kinds the format reads, and the row kinds it can write. */
  readonly changelogMode: ChangelogMode;
  /**
   * How the file source cuts files into records and reads their rows; a
   * record that does not parse is malformed (with its line and the problem),
   * or skipped with `ignore-parse-errors`.
   */
  readonly records: RecordFormat<Row[]>;
  /**
   * The text of one row (without the record terminator).
   *
   * @throws FormatValueError for a row the format cannot write (a row kind it
   * does not accept, a NULL map key in FAIL mode)
   */
  encode(row: Row): string;
}
