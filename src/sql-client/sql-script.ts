/**
 * Runs a SQL script (`weir sql -f job.sql`, `-i init.sql`, `-e "…"`) in a
 * table environment, statement by statement, as Flink's SQL client does:
 * SET, DDL, SHOW, DESCRIBE and EXPLAIN change the session or print their
 * rows; each INSERT (or `EXECUTE STATEMENT SET`) runs as a job to its end
 * before the next statement; a query prints its changelog in tableau form.
 * The same script runs in the client and in every worker thread, which
 * rebuild the same jobs; only the client prints.
 */
import { OtherJobInWorker, isWorker } from "../deploy/launch-context.ts";
import type { StreamTableEnvironment } from "../table/api/table-environment.ts";
import { TableauPrinter } from "../table/api/tableau.ts";
import { parseStatement } from "../table/sql/parser.ts";
import { clientCommand } from "./client-command.ts";
import { PendingStatementSet } from "./pending-statement-set.ts";
import { printStatementResult } from "./print-statement-result.ts";
import { describeStatementError } from "./statement-error.ts";
import { splitStatements } from "./statement-splitter.ts";

/** A script's text and the file it came from (undefined for `-e`). */
export interface SqlScriptSource {
  readonly text: string;
  readonly file?: string;
}

/**
 * A statement of a script failed; the message is located (`job.sql:3:14: …`,
 * the line and a caret) and ready to show.
 */
export class SqlScriptError extends Error {
  override readonly name = "SqlScriptError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Runs `sources` in order in `tEnv`. Jobs are named `pipeline.name` when the
 * script sets it, else `jobName`; the second and later jobs of a run get
 * `-2`, `-3` … (each names its checkpoint directory). Stops after a job that
 * was stopped with a savepoint.
 *
 * @throws SqlScriptError for a statement that fails, with its place in the script.
 * @example
 * ```ts
 * await runSqlScript(tEnv, [{ text: readFileSync("job.sql", "utf8"), file: "job.sql" }], "job", (l) => console.log(l));
 * ```
 */
export async function runSqlScript(
  tEnv: StreamTableEnvironment,
  sources: readonly SqlScriptSource[],
  jobName: string,
  print: (line: string) => void,
): Promise<void> {
  const out = isWorker() ? () => {} : print;
  let jobs = 0;
  const config = tEnv.getConfig();
  /** Runs `start` with `pipeline.name` set to the next job's name. */
  const named = <T>(start: () => T): T => {
    const own = config.get("pipeline.name");
    const base = own || jobName;
    config.set("pipeline.name", jobs === 0 ? base : `${base}-${jobs + 1}`);
    jobs++;
    try {
      return start();
    } finally {
      if (own) config.set("pipeline.name", own);
      else config.reset("pipeline.name");
    }
  };
  let statementSet: PendingStatementSet | undefined;
  for (const source of sources) {
    const { statements, rest, restHasContent } = splitStatements(source.text);
    if (restHasContent) statements.push(rest); // the last statement may omit its ';'
    for (const statement of statements) {
      const fail = (e: unknown): never => {
        throw new SqlScriptError(describeStatementError(e, statement, source.text, source.file ?? "-e"), { cause: e });
      };
      const command = clientCommand(statement.text);
      if (command?.kind === "quit") return;
      if (command?.kind === "beginStatementSet") {
        if (statementSet) fail(new Error("A statement set is open already: add INSERT statements, then END;"));
        statementSet = new PendingStatementSet();
        continue;
      }
      if (statementSet && command?.kind !== "endStatementSet") {
        try {
          statementSet.add(tEnv, statement.text);
        } catch (e) {
          fail(e);
        }
        continue;
      }
      let text = statement.text;
      if (command?.kind === "endStatementSet") {
        if (!statementSet) fail(new Error("END; closes a statement set, and none is open (BEGIN STATEMENT SET; starts one)"));
        const set = statementSet!;
        statementSet = undefined;
        if (set.isEmpty()) continue;
        text = set.sql();
      } else if (command) fail(new Error(`${statement.text.trim().split(/\s+/).slice(0, 2).join(" ").toUpperCase()} works in the interactive client only, not in a script`));
      let kind: string;
      try {
        kind = parseStatement(text).kind;
      } catch (e) {
        return fail(e);
      }
      try {
        if (kind === "insert" || kind === "statementSet") {
          if (await runJob(tEnv, text, named, out)) return;
        } else if (kind === "query") {
          await printQuery(tEnv, text, named, out);
        } else {
          await printStatementResult(tEnv.executeSql(text), kind, out);
        }
      } catch (e) {
        if (e instanceof OtherJobInWorker) continue; // a worker thread: another statement's job
        fail(e);
      }
    }
  }
  if (statementSet) throw new SqlScriptError("BEGIN STATEMENT SET; has no END;: its INSERT statements did not run");
}

/** Runs an INSERT's job to its end; true when it was stopped with a savepoint. */
async function runJob(tEnv: StreamTableEnvironment, text: string, named: <T>(f: () => T) => T, out: (line: string) => void): Promise<boolean> {
  const result = named(() => tEnv.executeSql(text));
  const client = await result.getJobClient()!;
  out("[INFO] Submitting SQL update statement (the job runs in this process)...");
  out(`Job ID: ${client.getJobId()}`);
  const end = await client.getJobExecutionResult();
  return end.savepointPath !== null;
}

/** Prints a query's changelog in Flink's tableau form, as the rows come. */
async function printQuery(tEnv: StreamTableEnvironment, text: string, named: <T>(f: () => T) => T, out: (line: string) => void): Promise<void> {
  const result = tEnv.executeSql(text);
  const rows = named(() => result.collect());
  const printer = new TableauPrinter(result.getResolvedSchema().columns, true, out);
  printer.header();
  let n = 0;
  for await (const row of rows) {
    printer.row(row);
    n++;
  }
  printer.footer(n);
}
