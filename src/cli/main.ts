/**
 * The `weir` command line: `weir run <job>` runs a job file, `weir sql` is
 * the SQL client, `weir list/cancel/stop/savepoint` operate running jobs,
 * `weir demo` the demo. Returns the process exit code.
 */
import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { runJobFile, type RunFlags, type RunOptions } from "./run-job-file.ts";
import { CliUsageError } from "./cli-usage-error.ts";
import { JOB_COMMANDS, JOB_COMMANDS_USAGE, runJobCommand } from "./job-commands.ts";
import { didYouMean } from "../util/did-you-mean.ts";
import { commandLineConfiguration, CONFIG_FLAGS, DEFINE_FLAG, flagNotes } from "./config-flags.ts";
import { OWN_PACKAGE_JSON } from "../util/own-files.ts";
import { configureLogging, getLogger, LOG_FORMATS, LOG_LEVELS, logSettingsFromEnv, parseLogFormat, parseLogLevel } from "../util/logger.ts";
import { checkServerSettings } from "./job-endpoints.ts";
import { restAddress } from "./job-lookup.ts";
import { WEB_TOKEN_ENV } from "./job-command-args.ts";

const USAGE = `Usage:
  weir run <job.ts|job.js> [options] [-- job args]
  weir run -m HOST:PORT <job.ts|job.js> [options] [-- job args]   (on a cluster, below)
  weir sql [-i init.sql] [-f job.sql | -e "statements"] [options of run]
  weir sql -m HOST:PORT -f job.sql [options of run]
  weir list | cancel | stop | savepoint …   (operating running jobs, below)
  weir jobmanager [-D key=value …]          a cluster's job manager (docs/cluster.md)
  weir taskmanager [-D key=value …]         a task manager of a cluster
  weir demo
  weir --version
  weir --help               (also: weir run --help)

Options of run:
  -p, --parallelism N       default parallelism of the job's operators
  --workers N               worker threads for the tasks (0 = all in the main thread; default 1;
                            at most 2 per CPU core, and none without a subtask to run)
  --checkpoint-interval MS  checkpoint every MS milliseconds (0 disables)
  --mode MODE               exactly-once | at-least-once | at-most-once
  --checkpoint-dir DIR      where checkpoints go (default .weir/checkpoints/<job>)
  --fresh                   ignore existing checkpoints and start over
  --state-backend NAME      heap (default: state in memory) | disk (state on local disk, larger than
                            memory; incremental checkpoints; working state in <checkpoint-dir>.local)
  -s, --from-savepoint PATH start from a savepoint (e.g. at another --parallelism)
  --allow-non-restored-state  with --from-savepoint: drop state of operators the job no longer has
  --savepoint-dir DIR       where Ctrl-C / SIGTERM writes the stop savepoint (default .weir/savepoints)
  --restart-attempts N      restarts after failures in a row, 1 s, 2 s, 4 s … apart (0: none);
                            default: the job's strategy, else 3 with checkpointing, none without
  --log-level LEVEL         error | warn | info | debug (default info, or WEIR_LOG_LEVEL)
  --log-format FORMAT       text | json: JSON lines on stderr (default text, or WEIR_LOG_FORMAT)
  --no-typecheck            run a .ts job without type-checking it first (it is checked, with a cache, when
                            the job's project has the typescript package)
  --task-cancellation-timeout MS  after a stop request, how long a task stuck in user code (its
                            worker thread busy without a break) may take before weir names it and
                            exits 1 (default 30000)
  --web-port N              rest.port: port of the REST API, Prometheus /metrics and dashboard (default 8081;
                            the next free one when taken; 0: any free port); the address is printed at the start
  --web-address A           rest.address: address the REST server binds (default 127.0.0.1; rest.bind-address
                            binds another); an address other than loopback needs a token
  --web-token T             rest.token: token every call that changes something must carry (Authorization:
                            Bearer T), and every call when not bound to 127.0.0.1 (or set WEIR_WEB_TOKEN)
  --no-web                  weir.rest.enabled=false: no REST server
  (-D metrics.reporters=prom  also serve the job's Prometheus metrics on metrics.reporter.prom.port, default 9249)
  --detached                keep running when the process that started weir ends (by default the
                            job is cancelled then, e.g. when a supervisor kills npx with SIGKILL)
  -D key=value              set a configuration key (repeatable), e.g. -D execution.checkpointing.interval=10s;
                            every key with its default: docs/configuration.md. The flags above are
                            shorthands of keys (--checkpoint-interval is execution.checkpointing.interval)
Flags and -D given here win over the job's own settings.
The run ends with a summary line: records in (read by sources) and out (written by sinks),
checkpoints, restarts, duration, exit code. Running a job that already finished again
restores its final checkpoint, processes nothing and says so (exit 0): start over with --fresh.
Ctrl-C or SIGTERM stops the job with a savepoint (sinks commit, exit 0); a second one cancels it
(the same signal again within 0.5 s is the same request delivered twice, e.g. by timeout(1)).
While the job starts or waits to restart after a failure, it stops at once without a savepoint (exit 130).

On a cluster (see docs/cluster-client.md):
  -m, --jobmanager HOST:PORT  submit to the job manager there (as flink run -m): the job file and its imports are
                            bundled into one module (with esbuild, which comes with tsx) and uploaded; sql -m -f
                            uploads the script. Attached, weir follows the job as a local run (progress line,
                            summary, exit 0 when it finished, 1 when it failed or was cancelled elsewhere) and
                            Ctrl-C stops it with a savepoint (twice: cancels it)
  -d, --detached            with -m: print the job id and return (weir list/cancel/stop -m operate the job)
  -p, -s, --allow-non-restored-state, the other configuring flags and -D go with the run request; --workers and
  --web-port/--web-address/--no-web do not apply; --web-token is the job manager's token (else WEIR_WEB_TOKEN)

Options of sql (the SQL client; see docs/sql.md "SQL client"):
  (none)                    an interactive session: statements end with ';', HELP; lists the commands
  -f, --file FILE           run the script's statements (SET, CREATE, INSERT, EXECUTE STATEMENT SET,
                            queries) as a job, like weir run: same options, checkpoints and resume
  -e, --execute "SQL"       run these statements the same way and exit
  -i, --init FILE           run this script first (repeatable), then the session or -f/-e
With -f/-e the checkpoint directory defaults to .weir/checkpoints/<pipeline.name or script name>.
Flags given here win over SET in the statements.

${JOB_COMMANDS_USAGE}`;

/** Runs the CLI with `argv` (without node and script); resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    configureLogging(envLogSettings());
    switch (command) {
      case "run": {
        if (wantsHelp(rest)) {
          print(USAGE);
          return 0;
        }
        const options = parseRunArgs(rest);
        configureLogging({ level: options.logLevel, format: options.logFormat });
        logNotes();
        return await runJobFile(options);
      }
      case "sql": {
        if (rest.includes("--help") || rest.includes("-h")) {
          print(USAGE);
          return 0;
        }
        const { values, positionals } = parseFlags(rest, {
          file: { type: "string", short: "f" },
          execute: { type: "string", short: "e" },
          init: { type: "string", short: "i", multiple: true },
        });
        if (positionals.length > 0) throw new CliUsageError(`unexpected argument '${positionals[0]}': give a script with -f FILE`);
        const flags = runFlags(values);
        configureLogging({ level: flags.logLevel, format: flags.logFormat });
        logNotes();
        const { runSqlCommand } = await import("./sql-command.ts");
        const v = values as Record<string, unknown>;
        return await runSqlCommand({ ...flags, init: (v["init"] as string[] | undefined) ?? [], file: v["file"] as string | undefined, execute: v["execute"] as string | undefined });
      }
      case "list":
      case "cancel":
      case "stop":
      case "savepoint":
        if (wantsHelp(rest)) {
          print(USAGE);
          return 0;
        }
        return await runJobCommand(command, rest);
      case "jobmanager":
      case "taskmanager": {
        if (wantsHelp(rest)) {
          print(USAGE);
          return 0;
        }
        const { runJobManagerCommand, runTaskManagerCommand } = await import("./cluster-commands.ts");
        return await (command === "jobmanager" ? runJobManagerCommand(rest) : runTaskManagerCommand(rest));
      }
      case "demo": {
        const { runDemo } = await import("./demo.ts");
        return await runDemo();
      }
      case "--version":
      case "-v":
        print(JSON.parse(readFileSync(OWN_PACKAGE_JSON, "utf8")).version);
        return 0;
      case undefined:
      case "help":
      case "--help":
      case "-h":
        print(USAGE);
        return command === undefined ? 2 : 0;
      default: {
        const near = didYouMean(command, COMMANDS);
        throw new CliUsageError(`unknown command '${command}'${near ? ` (did you mean '${near}'?)` : ""}`);
      }
    }
  } catch (e) {
    if (e instanceof CliUsageError) {
      getLogger().error(e.message);
      const help = command === "run" || command === "sql" ? `weir ${command} --help` : "weir --help";
      process.stderr.write(`Run '${help}' for the usage.\n`);
      return 2;
    }
    throw e;
  }
}

/** Logs the notes about the flags (Flink's `rocksdb`), once logging is configured by the flags. */
function logNotes(): void {
  for (const note of flagNotes.splice(0)) getLogger().info(note);
}

/** The commands, for "did you mean". */
const COMMANDS = ["run", "sql", ...JOB_COMMANDS, "jobmanager", "taskmanager", "demo", "help", "--help", "--version"];

/** Program output (usage, version) on standard output. */
function print(text: string): void {
  process.stdout.write(text + "\n");
}

/** `WEIR_LOG_LEVEL` and `WEIR_LOG_FORMAT`; a bad value is a usage error. */
function envLogSettings(): ReturnType<typeof logSettingsFromEnv> {
  try {
    return logSettingsFromEnv();
  } catch (e) {
    configureLogging({ level: "info", format: "text" });
    throw new CliUsageError((e as Error).message);
  }
}

/** `--help` or `-h` among the arguments of `weir run` (not among the job's own, after `--`). */
function wantsHelp(args: readonly string[]): boolean {
  const dash = args.indexOf("--");
  return (dash >= 0 ? args.slice(0, dash) : args).some((a) => a === "--help" || a === "-h");
}

/** Parses the arguments of `weir run`. */
export function parseRunArgs(args: string[]): RunOptions {
  const dash = args.indexOf("--");
  const own = dash >= 0 ? args.slice(0, dash) : args;
  const jobArgs = dash >= 0 ? args.slice(dash + 1) : [];
  const { values, positionals } = parseFlags(own, { "no-typecheck": { type: "boolean" } });
  if (positionals.length !== 1) throw new CliUsageError(positionals.length === 0 ? "run needs a job file" : `one job file expected, got ${positionals.join(" ")}`);
  return { job: positionals[0]!, args: jobArgs, typecheck: values["no-typecheck"] !== true, ...runFlags(values) };
}

/** Options of `parseArgs` beyond the run flags (e.g. `weir sql`'s `-f`). */
type ExtraOptions = Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }>;

/** Parses `args` with the run flags and `extra` options; a mistake is a usage error. */
export function parseFlags(args: string[], extra: ExtraOptions, allowPositionals = true) {
  const options: ExtraOptions = {
    ...Object.fromEntries(Object.entries(CONFIG_FLAGS).map(([name, f]) => [name, f.short === undefined ? { type: f.type } : { type: f.type, short: f.short }])),
    ...DEFINE_FLAG,
    "log-level": { type: "string" },
    "log-format": { type: "string" },
    detached: { type: "boolean", short: "d" },
    jobmanager: { type: "string", short: "m" },
    ...extra,
  };
  try {
    return parseArgs({ args: joinNegativeValues(args, options), allowPositionals, options });
  } catch (e) {
    throw usageErrorOf(e as Error & { code?: string }, options);
  }
}

/** `--parallelism -1` as `--parallelism=-1` (else the parser takes `-1` for an option): a negative number then gets the flag's own message. */
function joinNegativeValues(args: readonly string[], options: ExtraOptions): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") return [...out, ...args.slice(i)];
    const name = a.startsWith("--") ? a.slice(2) : Object.keys(options).find((k) => a === `-${options[k]!.short}`);
    const next = args[i + 1];
    if (name !== undefined && options[name]?.type === "string" && next !== undefined && /^-\d/.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** The parser's error as one line of ours: an unknown option with the nearest known one. */
function usageErrorOf(e: Error & { code?: string }, options: ExtraOptions): CliUsageError {
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const flag = /'([^']+)'/.exec(e.message)?.[1] ?? e.message;
    const names = Object.entries(options).flatMap(([k, o]) => (o.short ? [`--${k}`, `-${o.short}`] : [`--${k}`]));
    const near = didYouMean(flag, [...names, "--help"]);
    return new CliUsageError(`unknown option '${flag}'${near ? ` (did you mean ${near}?)` : ""}`);
  }
  return new CliUsageError(e.message.split(". ")[0]!.replace(/\.$/, ""));
}

/** The run flags among parsed values, checked. */
export function runFlags(v: Record<string, string | boolean | (string | boolean)[] | undefined>): RunFlags {
  const str = (k: string) => v[k] as string | undefined;
  const logLevel = str("log-level") === undefined ? undefined : parseLogLevel(str("log-level")!);
  if (str("log-level") !== undefined && !logLevel) throw new CliUsageError(`--log-level must be one of ${LOG_LEVELS.join(", ")}, got '${str("log-level")}'`);
  const logFormat = str("log-format") === undefined ? undefined : parseLogFormat(str("log-format")!);
  if (str("log-format") !== undefined && !logFormat) throw new CliUsageError(`--log-format must be one of ${LOG_FORMATS.join(", ")}, got '${str("log-format")}'`);
  const jobmanager = str("jobmanager");
  const detached = (v.detached as boolean | undefined) ?? false;
  if (jobmanager !== undefined) {
    restAddress(jobmanager); // a usage error when it is not host:port
    const local = LOCAL_ONLY_FLAGS.filter((f) => v[f] !== undefined);
    if (local.length > 0) {
      throw new CliUsageError(
        `--${local[0]} does not apply with -m: the job runs on the cluster's task managers (their slots: taskmanager.numberOfTaskSlots), and the job manager serves the REST API`,
      );
    }
    const token = str("web-token") ?? (process.env[WEB_TOKEN_ENV] || undefined);
    return { configuration: commandLineConfiguration(v, false), logLevel, logFormat, detached, jobmanager, ...(token === undefined ? {} : { token }) };
  }
  const configuration = commandLineConfiguration(v);
  try {
    checkServerSettings(configuration);
  } catch (e) {
    throw new CliUsageError((e as Error).message);
  }
  return { configuration, logLevel, logFormat, detached };
}

/** Flags about this process (its worker threads, its REST server), which a run on a cluster (`-m`) does not take. */
const LOCAL_ONLY_FLAGS = ["workers", "web-port", "web-address", "no-web"] as const;
