/**
 * Shows a running query's result in the session's result mode until the
 * query ends or the user cancels it (Ctrl-C), which cancels its job. In
 * `table` mode on a terminal the table is redrawn in place (ANSI) as it
 * changes, a page at a time (keys `n`/`p`); elsewhere it is printed when the
 * query ends.
 */
import { cutToWidth } from "../table/api/display-width.ts";
import type { ResultColumn } from "../table/api/table-result.ts";
import { TableauPrinter } from "../table/api/tableau.ts";
import { Row } from "../table/data/row.ts";
import { valueFormatOf } from "../table/data/value-format-of.ts";
import { MaterializedResult } from "./materialized-result.ts";
import type { ResultMode } from "./result-mode.ts";

/** Where and how the view draws. */
export interface ResultTerminal {
  /** Writes text as is. */
  write(text: string): void;
  /** Whether the output is a terminal that understands ANSI cursor movement. */
  readonly tty: boolean;
  /** The terminal's size (rows and columns). */
  size(): { rows: number; columns: number };
  /** Registers the handler of paging keys while the view is shown; returns its removal. */
  onKey(handler: (key: string) => void): () => void;
}

/** How a shown query ended. */
export type QueryEnd = "finished" | "cancelled";

/** Time between two redraws of the table. */
const REDRAW_MS = 100;

/**
 * Shows `rows` of a query with `columns`; resolves when the rows end, or
 * when `cancel` is aborted (then the iterator is closed, cancelling the job).
 *
 * @example
 * ```ts
 * const end = await showQueryResult(result.getResolvedSchema().columns, result.collect(), "tableau", 1000, terminal, signal);
 * ```
 */
export async function showQueryResult(
  columns: readonly ResultColumn[],
  rows: AsyncIterableIterator<Row> & { close?(): Promise<void> | void },
  mode: ResultMode,
  maxRows: number,
  terminal: ResultTerminal,
  cancel: AbortSignal,
): Promise<QueryEnd> {
  const line = (text: string) => terminal.write(text + "\n");
  const view = mode === "table" ? new TableView(columns, maxRows, terminal) : undefined;
  const formats = columns.map((c) => valueFormatOf(c.type));
  const tableau = mode === "tableau" ? new TableauPrinter(columns, true, line) : undefined;
  tableau?.header();
  let count = 0;
  let cancelled = cancel.aborted;
  const onAbort = () => {
    cancelled = true;
    void rows.close?.();
  };
  cancel.addEventListener("abort", onAbort);
  try {
    if (!cancelled) {
      for await (const row of rows) {
        if (cancelled) break;
        count++;
        if (view) view.apply(row);
        else if (tableau) tableau.row(row);
        else line(Row.toString(row, formats));
      }
    }
  } catch (e) {
    view?.close("failed");
    throw e;
  } finally {
    cancel.removeEventListener("abort", onAbort);
  }
  view?.close(cancelled ? "cancelled" : "finished");
  if (tableau) {
    if (cancelled) line(`Query cancelled, received a total of ${count} row${count === 1 ? "" : "s"}`);
    else tableau.footer(count);
  } else if (!view) {
    line(cancelled ? `Query cancelled, received a total of ${count} change${count === 1 ? "" : "s"}` : `Received a total of ${count} change${count === 1 ? "" : "s"}`);
  }
  return cancelled ? "cancelled" : "finished";
}

/** The `table` mode's view: the materialized result, drawn a page at a time. */
class TableView {
  private readonly table: MaterializedResult;
  private page = 0;
  private drawnLines = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly offKey: () => void;

  constructor(
    private readonly columns: readonly ResultColumn[],
    maxRows: number,
    private readonly terminal: ResultTerminal,
  ) {
    this.table = new MaterializedResult(maxRows);
    this.offKey = terminal.onKey((key) => {
      if (key === "n") this.page++;
      else if (key === "p") this.page = Math.max(0, this.page - 1);
      else return;
      this.draw("running");
    });
    if (terminal.tty) this.draw("running");
  }

  apply(row: Row): void {
    this.table.apply(row);
    if (this.terminal.tty && this.timer === null) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.draw("running");
      }, REDRAW_MS);
    }
  }

  /** Stops redrawing; draws the table a last time with how the query ended. */
  close(state: "finished" | "cancelled" | "failed"): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.offKey();
    this.draw(state);
  }

  /** Page size: on a terminal, what fits below the header; else every row. */
  private pageSize(): number {
    return this.terminal.tty ? Math.max(1, this.terminal.size().rows - 7) : Number.POSITIVE_INFINITY;
  }

  private draw(state: "running" | "finished" | "cancelled" | "failed"): void {
    const rows = this.table.rows;
    const size = this.pageSize();
    const pages = Math.max(1, Math.ceil(rows.length / size));
    this.page = Math.min(this.page, pages - 1);
    const first = Number.isFinite(size) ? this.page * size : 0;
    const shown = rows.slice(first, first + size);
    const lines: string[] = [];
    const printer = new TableauPrinter(this.columns, false, (l) => lines.push(l));
    printer.header();
    for (const r of shown) printer.row(r);
    lines.push(lines[0]!); // the closing border
    const what = { running: "Query running (Ctrl-C cancels it)", finished: "Query finished", cancelled: "Query cancelled", failed: "Query failed" }[state];
    const range = rows.length === 0 ? "no rows" : `showing rows ${first + 1}-${first + shown.length} of ${rows.length}`;
    const paging = pages > 1 ? `, page ${this.page + 1}/${pages}${state === "running" ? " (n: next page, p: previous page)" : ""}` : "";
    const dropped = this.table.dropped > 0 ? `; ${this.table.dropped} older rows dropped (sql-client.execution.max-table-result.rows = ${this.table.maxRows})` : "";
    lines.push(`${what}: ${range}${paging}, ${this.table.changes} change${this.table.changes === 1 ? "" : "s"}${dropped}`);
    if (!this.terminal.tty) {
      this.terminal.write(lines.join("\n") + "\n");
      return;
    }
    const width = Math.max(10, this.terminal.size().columns - 1);
    const text = lines.map((l) => cutToWidth(l, width, "…")).join("\n");
    const up = this.drawnLines > 0 ? `\r\x1b[${this.drawnLines}A\x1b[J` : "";
    this.terminal.write(up + text + "\n");
    this.drawnLines = lines.length;
  }
}
