/**
 * An interactive SQL session (`weir sql`): one table environment whose
 * statements run as the user types them. DDL and SET change the session,
 * SHOW/DESCRIBE/EXPLAIN print, a query shows its result in the session's
 * result mode until it ends or is cancelled, and INSERT / `EXECUTE STATEMENT
 * SET` start a job in the background (`SHOW JOBS`, `STOP JOB`).
 */
import { StreamExecutionEnvironment } from "../api/environment.ts";
import { setLaunch } from "../deploy/launch-context.ts";
import { TableConfig } from "../table/api/table-config.ts";
import { StreamTableEnvironment } from "../table/api/table-environment.ts";
import { displayWidth } from "../table/api/display-width.ts";
import { TableauPrinter } from "../table/api/tableau.ts";
import { parseStatement } from "../table/sql/parser.ts";
import type { LogicalType } from "../table/types/logical-type.ts";
import { clientCommand, HELP_TEXT, type ClientCommand } from "./client-command.ts";
import { PendingStatementSet } from "./pending-statement-set.ts";
import { showQueryResult, type ResultTerminal } from "./query-result-view.ts";
import { resultModeOf } from "./result-mode.ts";
import { printStatementResult } from "./print-statement-result.ts";
import { SessionJobs, type SessionJob } from "./session-jobs.ts";
import type { OtherJobs } from "./other-jobs.ts";
import { describeStatementError } from "./statement-error.ts";
import type { ScriptStatement } from "./statement-splitter.ts";

/** Where the session writes. */
export interface SessionOutput extends ResultTerminal {
  /** A message that arrives while the user types (a background job ended): shown above the prompt. */
  notify(text: string): void;
}

/**
 * @example
 * ```ts
 * const session = new SqlSession({ "parallelism.default": "2" }, output);
 * await session.run(statement, input, new AbortController().signal);
 * ```
 */
export class SqlSession {
  readonly tEnv: StreamTableEnvironment;
  readonly jobs = new SessionJobs();
  /** The INSERTs collected since `BEGIN STATEMENT SET;`. */
  private statementSet: PendingStatementSet | undefined;

  /**
   * `configuration` is the command line's (flags and `-D`, as strings; it wins over SET); jobs run in
   * this thread and start from empty state unless `execution.savepoint.path` is set.
   * `others`: the jobs of other processes, which SHOW JOBS lists and STOP JOB stops too.
   */
  constructor(
    configuration: Readonly<Record<string, string>>,
    private readonly out: SessionOutput,
    private readonly others?: OtherJobs,
  ) {
    setLaunch({
      role: "client",
      args: [],
      configuration: { ...configuration, "weir.workers": "0", "weir.fresh": "true" },
      defaultCheckpointDir: ".weir/checkpoints/<job>",
    });
    this.tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
  }

  /** The table and view names (completion). */
  tableNames(): string[] {
    return this.tEnv.listTables();
  }

  /** The configuration keys (completion). */
  configKeys(): string[] {
    return TableConfig.knownKeys();
  }

  /**
   * Runs `statement` (without its `;`) typed as part of `input` (or read
   * from `file`, an `-i` script); errors are printed, located in `input`.
   * Resolves with "quit" after QUIT/EXIT, "error" when the statement failed.
   */
  async run(statement: ScriptStatement, input: string, cancel: AbortSignal, file?: string): Promise<"quit" | "error" | undefined> {
    try {
      const command = clientCommand(statement.text);
      if (command) return await this.command(command);
      if (this.statementSet) {
        this.statementSet.add(this.tEnv, statement.text);
        this.line("[INFO] Add SQL update statement to the statement set.");
        return undefined;
      }
      await this.sql(statement.text, cancel);
      return undefined;
    } catch (e) {
      this.line(`[ERROR] Could not execute SQL statement. Reason:\n${describeStatementError(e, statement, input, file)}`);
      return "error";
    }
  }

  /** Cancels the jobs still running (the session ends); resolves with how many there were. */
  async cancelRunningJobs(): Promise<number> {
    const running = this.jobs.running();
    await Promise.all(running.map((j) => j.client.cancel()));
    return running.length;
  }

  private line(text: string): void {
    this.out.write(text + "\n");
  }

  private async command(c: ClientCommand): Promise<"quit" | undefined> {
    switch (c.kind) {
      case "help":
        this.line(HELP_TEXT);
        return undefined;
      case "quit":
        return "quit";
      case "clear":
        if (this.out.tty) this.out.write("\x1b[2J\x1b[H");
        return undefined;
      case "showJobs": {
        const rows = await this.jobRows();
        if (rows.length === 0) {
          this.line("Empty set");
          return undefined;
        }
        // values are shown whole (ids are copied into STOP JOB): each column as wide as its widest value
        const columns = ["job id", "job name", "status", "start time"].map((name, i) => ({
          name,
          type: { kind: "varchar", length: Math.max(...rows.map((r) => displayWidth(r[i]!))), nullable: false } as LogicalType,
        }));
        const p = new TableauPrinter(columns, false, (l) => this.line(l), Math.max(...columns.map((c) => (c.type as { length: number }).length)));
        p.header();
        for (const r of rows) p.row({ kind: "+I", fields: r });
        p.footer(rows.length);
        return undefined;
      }
      case "stopJob":
        await this.stopJob(c.jobId, c.savepoint, c.drain);
        return undefined;
      case "beginStatementSet":
        if (this.statementSet) throw new Error("A statement set is open already: add INSERT statements, then END;");
        this.statementSet = new PendingStatementSet();
        this.line("[INFO] Begin a statement set.");
        return undefined;
      case "endStatementSet": {
        const set = this.statementSet;
        if (!set) throw new Error("END; closes a statement set, and none is open (BEGIN STATEMENT SET; starts one)");
        this.statementSet = undefined;
        if (set.isEmpty()) {
          this.line("[INFO] No statement in the statement set, skip submit.");
          return undefined;
        }
        await this.sql(set.sql(), new AbortController().signal);
        return undefined;
      }
    }
  }

  /** Rows of SHOW JOBS: the session's jobs, then the running jobs of other processes; each oldest first. */
  private async jobRows(): Promise<string[][]> {
    const own = this.jobs.rows();
    const others = (await this.others?.list()) ?? [];
    return [...own, ...others.filter((o) => !own.some((r) => r[0] === o.jobId)).map((o) => [o.jobId, o.name, o.status, new Date(o.startTime).toISOString()])];
  }

  private async stopJob(id: string, savepoint: boolean, drain: boolean): Promise<void> {
    if (drain && !savepoint) throw new Error("WITH DRAIN ends event time before a savepoint: STOP JOB 'id' WITH SAVEPOINT WITH DRAIN");
    const job = this.jobs.get(id);
    if (!job && this.others && /^[0-9a-f]{4,32}$/i.test(id)) return this.stopOtherJob(this.others, id, savepoint, drain);
    if (!job) throw new Error(`No job '${id}' in this session; SHOW JOBS lists them`);
    if (job.ended) throw new Error(`Job '${job.client.getJobId()}' is not running: ${job.ended.status}`);
    job.stopping = true;
    if (!savepoint) {
      await job.client.cancel();
      this.line(`[INFO] Job '${job.client.getJobId()}' was cancelled.`);
      return;
    }
    const dir = this.tEnv.getConfig().get("state.savepoints.dir");
    const path = await job.client.stopWithSavepoint(dir, { drain });
    this.line(`[INFO] Job '${job.client.getJobId()}' stopped with a savepoint.`);
    this.line(`Savepoint path: ${path}`);
  }

  /** STOP JOB of a job of another process, through its REST API. */
  private async stopOtherJob(others: OtherJobs, id: string, savepoint: boolean, drain: boolean): Promise<void> {
    const dir = this.tEnv.getConfig().get("state.savepoints.dir") || undefined;
    const stopped = await others.stop(id, { savepoint, drain, directory: dir });
    if (stopped.savepointPath === undefined) {
      this.line(`[INFO] Job '${stopped.jobId}' was cancelled.`);
      return;
    }
    this.line(`[INFO] Job '${stopped.jobId}' stopped with a savepoint.`);
    this.line(`Savepoint path: ${stopped.savepointPath}`);
  }

  private async sql(text: string, cancel: AbortSignal): Promise<void> {
    const kind = parseStatement(text).kind;
    const result = this.tEnv.executeSql(text);
    switch (kind) {
      case "query": {
        const config = this.tEnv.getConfig();
        await showQueryResult(
          result.getResolvedSchema().columns,
          result.collect(),
          resultModeOf(config.get("sql-client.execution.result-mode")),
          Number(config.get("sql-client.execution.max-table-result.rows")),
          this.out,
          cancel,
        );
        return;
      }
      case "insert":
      case "statementSet": {
        const client = await result.getJobClient()!;
        this.line("[INFO] Submitting SQL update statement (the job runs in this process)...");
        this.line("[INFO] SQL update statement has been successfully submitted; the job runs in the background:");
        this.line(`Job ID: ${client.getJobId()}`);
        this.jobs.add(client, (job) => this.out.notify(endMessage(job)));
        return;
      }
      default:
        await printStatementResult(result, kind, (l) => this.line(l));
    }
  }
}

/** What the session says when a background job ends. */
function endMessage(job: SessionJob): string {
  const id = job.client.getJobId();
  const ended = job.ended!;
  if (ended.error !== undefined && ended.status !== "CANCELED") return `[ERROR] Job '${id}' (${job.client.jobName}) failed: ${ended.error}`;
  return `[INFO] Job '${id}' (${job.client.jobName}) ${ended.status === "CANCELED" ? "was cancelled" : ended.status === "STOPPED" ? "stopped with a savepoint" : "finished"}.`;
}
