/**
 * The result of `executeSql` (Flink's `TableResult`): for a statement that
 * only changes the session (DDL, SET) a success; for SHOW/DESCRIBE/EXPLAIN
 * its rows; for INSERT the started job; for a query the rows the job
 * produces, as a changelog, read with {@link TableResult.collect} or
 * printed with {@link TableResult.print}.
 */
import type { JobClient } from "../../deploy/job-client.ts";
import { OtherJobInWorker } from "../../deploy/launch-context.ts";
import type { Row } from "../data/row.ts";
import type { LogicalType } from "../types/logical-type.ts";
import { TableauPrinter } from "./tableau.ts";

/** `SUCCESS` for statements without rows, `SUCCESS_WITH_CONTENT` otherwise (Flink's ResultKind). */
export type ResultKind = "SUCCESS" | "SUCCESS_WITH_CONTENT";

/** A column of a result. */
export interface ResultColumn {
  name: string;
  type: LogicalType;
}

/** How a result gets its rows. */
export type ResultSource =
  /** A statement that only changed the session; `warning` says what the user may not expect (`[WARNING] …` when printed). */
  | { kind: "ok"; warning?: string }
  | { kind: "rows"; rows: Row[] }
  | { kind: "job"; client: Promise<JobClient>; rows: Row[] }
  | { kind: "query"; start: () => AsyncIterableIterator<Row> & { close?(): Promise<void> | void } };

/**
 * @example
 * ```ts
 * const result = tEnv.executeSql("SELECT user, COUNT(url) AS cnt FROM clicks GROUP BY user");
 * for await (const row of result.collect()) console.log(Row.toString(row)); // +I[Mary, 1] … -U[Mary, 1] +U[Mary, 2]
 * ```
 */
export class TableResult {
  /** @internal */
  constructor(
    private readonly columns: readonly ResultColumn[],
    private readonly source: ResultSource,
    private readonly changelog: boolean,
  ) {}

  getResultKind(): ResultKind {
    return this.source.kind === "ok" ? "SUCCESS" : "SUCCESS_WITH_CONTENT";
  }

  /** The result's columns. */
  getResolvedSchema(): { columns: readonly ResultColumn[] } {
    return { columns: this.columns };
  }

  /** The job an INSERT started, or undefined. */
  getJobClient(): Promise<JobClient> | undefined {
    return this.source.kind === "job" ? this.source.client : undefined;
  }

  /** Resolves when the job of an INSERT finishes (at once for other statements); rejects when the job fails. */
  async await(): Promise<void> {
    if (this.source.kind !== "job") return;
    try {
      await (await this.source.client).getJobExecutionResult();
    } catch (e) {
      if (!(e instanceof OtherJobInWorker)) throw e; // in a worker thread: another statement's job
    }
  }

  /** The rows: for a query, its changelog as the job produces it (the job starts here). */
  collect(): AsyncIterableIterator<Row> & { close?(): Promise<void> | void } {
    switch (this.source.kind) {
      case "query":
        return this.source.start();
      case "rows":
      case "job":
        return arrayIterator(this.source.rows);
      default:
        return arrayIterator([]);
    }
  }

  /** Prints the rows as a table (with the `op` column of a changelog), or that the statement succeeded (after its warning, if any). */
  async print(write: (line: string) => void = (l) => console.log(l)): Promise<void> {
    if (this.source.kind === "ok") {
      if (this.source.warning !== undefined) write(`[WARNING] ${this.source.warning}`);
      write("[INFO] Execute statement succeeded.");
      return;
    }
    const p = new TableauPrinter(this.columns, this.changelog, write);
    p.header();
    let n = 0;
    for await (const row of this.collect()) {
      p.row(row);
      n++;
    }
    p.footer(n);
  }
}

function arrayIterator(rows: Row[]): AsyncIterableIterator<Row> {
  let i = 0;
  return {
    next: async () => (i < rows.length ? { value: rows[i++]!, done: false } : { value: undefined, done: true }),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
