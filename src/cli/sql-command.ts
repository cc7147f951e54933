/**
 * `weir sql`: the SQL client. Without `-f`/`-e` an interactive session
 * (after the `-i` scripts); with `-f job.sql` or `-e "…"` the statements run
 * as Weir's SQL script job with the flags, checkpoints, resume and
 * stop-with-savepoint of `weir run`.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, extname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describeJobError } from "./describe-job-error.ts";
import { CliUsageError } from "./cli-usage-error.ts";
import { runClientProgram, type RunFlags } from "./run-job-file.ts";
import { ownModule } from "../util/own-files.ts";
import { WORKERS } from "../config/options/weir-options.ts";
import { configureLogging, getLogger } from "../util/logger.ts";
import { encodeScriptArgs, readScripts, type ScriptArg } from "../sql-client/sql-script-args.ts";
import { SqlScriptError } from "../sql-client/sql-script.ts";
import { SqlSession } from "../sql-client/sql-session.ts";
import { runRepl } from "../sql-client/sql-repl.ts";
import { historyFile } from "../sql-client/sql-history.ts";
import { splitStatements } from "../sql-client/statement-splitter.ts";
import { registryJobs } from "./registry-jobs.ts";

/** The SQL script job module, in the same form (source or compiled) as this one. */
const SCRIPT_JOB = fileURLToPath(ownModule("sql-client/sql-script-job.ts", "sql-script-job.js"));

/** Parsed `weir sql` arguments. */
export interface SqlOptions extends RunFlags {
  /** `-i` scripts, run first. */
  init: string[];
  /** `-f` script. */
  file?: string;
  /** `-e` statements. */
  execute?: string;
}

/** Runs `weir sql`; resolves with the exit code. */
export async function runSqlCommand(o: SqlOptions): Promise<number> {
  if (o.file !== undefined && o.execute !== undefined) throw new CliUsageError("give either -f FILE or -e STATEMENTS, not both");
  for (const f of [...o.init, ...(o.file === undefined ? [] : [o.file])]) {
    if (!existsSync(f)) {
      getLogger().error(`no such SQL script: ${f}`);
      return 1;
    }
  }
  if (o.jobmanager !== undefined) return submitScript(o, o.jobmanager);
  const scripts: ScriptArg[] = o.init.map((f) => ({ kind: "file", path: resolve(f) }));
  if (o.file !== undefined) scripts.push({ kind: "file", path: resolve(o.file) });
  if (o.execute !== undefined) scripts.push({ kind: "text", text: o.execute });
  if (o.file !== undefined || o.execute !== undefined) {
    return runClientProgram(
      {
        label: o.file ?? "-e",
        module: SCRIPT_JOB,
        args: encodeScriptArgs(scripts),
        defaultCheckpointDir: ".weir/checkpoints/<job>",
        mustRunJob: false,
        describeError: (e) => (e instanceof SqlScriptError ? e.message : describeJobError(e, SCRIPT_JOB)),
      },
      o,
    );
  }
  return interactive(o, scripts);
}

/** `weir sql -m host:port -f job.sql`: uploads the script as `<name>.sql` to the job manager, which runs it. */
async function submitScript(o: SqlOptions, jobmanager: string): Promise<number> {
  if (o.file === undefined || o.execute !== undefined || o.init.length > 0) {
    throw new CliUsageError("with -m give one script with -f FILE (it runs on the cluster as one job); -e and -i do not apply");
  }
  const file = o.file;
  const { runOnCluster } = await import("./cluster-run.ts");
  const upload = async () => ({ code: readFileSync(file), filename: `${basename(file, extname(file))}.sql` });
  return runOnCluster({ label: file, upload, args: [] }, { ...o, jobmanager });
}

/**
 * The interactive session, after the `-i` scripts (a failing one ends the
 * client: exit 1). The jobs' log lines would break into the prompt: the
 * session logs warnings and errors only, unless `--log-level` or
 * `WEIR_LOG_LEVEL` says otherwise.
 */
async function interactive(o: SqlOptions, init: ScriptArg[]): Promise<number> {
  if (o.logLevel === undefined && !process.env["WEIR_LOG_LEVEL"]) configureLogging({ level: "warn" });
  if (o.configuration.get(WORKERS)! > 1) getLogger().warn("the interactive client runs its jobs in the main thread: --workers applies to -f and -e");
  let failed = false;
  await runRepl((output) => {
    return new SqlSession(o.configuration.toMap(), output, registryJobs());
  }, historyFile(), async (session) => {
    for (const source of readScripts(init, (p) => relative(process.cwd(), p) || p)) {
      const { statements, rest, restHasContent } = splitStatements(source.text);
      if (restHasContent) statements.push(rest);
      for (const s of statements) {
        const outcome = await session.run(s, source.text, new AbortController().signal, source.file);
        if (outcome === "error") failed = true;
        if (outcome !== undefined) return false;
      }
    }
    return true;
  });
  return failed ? 1 : 0;
}
