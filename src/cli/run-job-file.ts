/**
 * `weir run <job>` (and `weir sql -f <script>`): imports the client program's
 * module (so its `env.execute()` runs the job with the command-line settings),
 * shows a live progress line on a terminal (or logs progress every 30 s when
 * standard error is not one), and ends with the cause of a failure and a
 * summary line.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Configuration } from "../config/configuration.ts";
import { SAVEPOINT_DIRECTORY } from "../config/options/state-options.ts";
import { TASK_CANCELLATION_TIMEOUT, WORKERS } from "../config/options/weir-options.ts";
import { setLaunch } from "../deploy/launch-context.ts";
import type { JobClient } from "../deploy/job-client.ts";
import { localJob, RunReport } from "./run-report.ts";
import { getLogger, type LogFormat, type LogLevel } from "../util/logger.ts";
import { describeJobError } from "./describe-job-error.ts";
import { loadJobModule } from "../deploy/job-loader.ts";
import type { ClientProgram } from "./client-program.ts";
import { typecheckJob } from "./typecheck-job.ts";
import { StopRequests } from "./stop-requests.ts";
import { watchParent } from "./parent-watch.ts";
import { watchMainThread, type MainThreadWatchdog } from "./main-thread-watchdog.ts";
import { watchStoppingJob } from "./stop-watchdog.ts";
import { systemClock } from "../util/clock.ts";
import { registerUntilEnd } from "../deploy/job-registry.ts";
import { JobEndpoints } from "./job-endpoints.ts";

/** Parsed `weir run` arguments. */
export interface RunOptions extends RunFlags {
  job: string;
  args: string[];
  /** Type-check a `.ts` job before running it (when TypeScript is installed in its project); `--no-typecheck` turns it off. */
  typecheck: boolean;
}

/** The flags of `weir run` (`weir sql -f` takes them too). */
export interface RunFlags {
  /** The command line's configuration (the configuring flags and `-D`); it wins over the job's own settings. */
  configuration: Configuration;
  /** `--log-level` (wins over WEIR_LOG_LEVEL). */
  logLevel?: LogLevel;
  /** `--log-format` (wins over WEIR_LOG_FORMAT). */
  logFormat?: LogFormat;
  /** `--detached`: keep running when the process that started this one ends; with `-m`, print the job id and return. */
  detached: boolean;
  /** `-m host:port`: submit to the job manager there instead of running here (see `cluster-run.ts`). */
  jobmanager?: string;
  /** With `-m`: `--web-token`, else WEIR_WEB_TOKEN, for a job manager that asks for a token. */
  token?: string;
}

/** Where `weir run` keeps checkpoints unless told otherwise. */
const DEFAULT_CHECKPOINT_DIR = ".weir/checkpoints/<job>";

/** Prints where a stopped job's savepoint is and how to resume from it. */
function reportSavepoint(jobName: string, path: string): void {
  const log = getLogger();
  log.info({ savepoint: path }, `job '${jobName}' stopped with savepoint ${path}`);
  log.info(`resume with --from-savepoint ${path}`);
}

/** Type-checks a `.ts` job (see `typecheckJob`); logs its errors and returns false when it has some. */
function typechecked(label: string, jobModule: string): boolean {
  const log = getLogger();
  const outcome = typecheckJob(jobModule, process.cwd(), () => log.info(`type-checking ${label} and its local imports (--no-typecheck skips this)`));
  switch (outcome.kind) {
    case "no-typescript":
      log.debug(`typecheck: no typescript package in the project of ${label}: not type-checking it`);
      return true;
    case "ok":
      log.debug(`typecheck: ${label} and its local imports (${outcome.files} files) type-check (TypeScript ${outcome.version}${outcome.cached ? ", unchanged since the last check: cached" : ""})`);
      return true;
    case "errors":
      for (const line of outcome.errors) log.error(line);
      log.error(`${label}: ${outcome.errors.length} type error${outcome.errors.length === 1 ? "" : "s"}; the job did not run (--no-typecheck runs it anyway)`);
      return false;
  }
}

/** Runs a job file to its end; resolves with the exit code. */
export async function runJobFile(o: RunOptions): Promise<number> {
  const jobModule = resolve(o.job);
  if (!existsSync(jobModule)) {
    getLogger().error(`no such job file: ${o.job}`);
    return 1;
  }
  if (o.typecheck && /\.[cm]?tsx?$/.test(jobModule) && !typechecked(o.job, jobModule)) return 1;
  if (o.jobmanager !== undefined) {
    const [{ runOnCluster }, { bundleJob }] = await Promise.all([import("./cluster-run.ts"), import("../cluster/job-bundle.ts")]);
    return runOnCluster({ label: o.job, upload: () => bundleJob(jobModule), args: o.args }, { ...o, jobmanager: o.jobmanager });
  }
  return runClientProgram(
    {
      label: o.job,
      module: jobModule,
      args: o.args,
      defaultCheckpointDir: DEFAULT_CHECKPOINT_DIR,
      mustRunJob: true,
      describeError: (e) => describeJobError(e, jobModule),
    },
    o,
  );
}

/**
 * Runs a client program to its end with the command-line flags `o`: stops its
 * job with a savepoint on Ctrl-C / SIGTERM, reports progress and the summary
 * of its (last) job; resolves with the exit code.
 */
export async function runClientProgram(program: ClientProgram, o: RunFlags): Promise<number> {
  const log = getLogger();
  const jobModule = program.module;
  // the REST server and metric reporters, started with the first job (a program that fails before it starts one serves nothing)
  const endpoints = new JobEndpoints(o.configuration);
  let client: JobClient | undefined;
  let report: RunReport | undefined;
  let savepoint: string | undefined;
  const requests = new StopRequests(systemClock);
  // after a stop request, a task stuck in user code ends the process a bounded time later
  let workerWatchdog: { stop(): void } | undefined;
  // in-process (--workers 0) the tasks run on this thread: a side thread watches it
  let mainThreadWatchdog: MainThreadWatchdog | undefined;
  const cancellationTimeout = o.configuration.get(TASK_CANCELLATION_TIMEOUT);
  const savepointDir = o.configuration.get(SAVEPOINT_DIRECTORY);
  const watchStop = () => {
    mainThreadWatchdog?.stopRequested();
    if (workerWatchdog || !client) return;
    workerWatchdog = watchStoppingJob(client, cancellationTimeout, systemClock, (stuck) => {
      report?.stopProgress();
      log.error(`${stuck.join(", ")} did not stop within ${cancellationTimeout / 1000} s of the stop request (stuck in user code?): terminating the worker threads; exit 1`);
      process.exit(1);
    });
  };
  const stop = (signal: NodeJS.Signals) => {
    const request = requests.receive(signal);
    if (request === "duplicate") return;
    if (!client) process.exit(130);
    watchStop();
    report?.stopProgress();
    if (request === "cancel") {
      log.info("cancelling the job");
      void client.cancel();
      return;
    }
    const status = client.getJobStatus();
    if (status === "RESTARTING" || status === "CREATED") {
      log.info(
        status === "RESTARTING"
          ? "the job is waiting to restart after a failure: stopping it now, without a savepoint"
          : "the job is still starting: stopping it now, without a savepoint",
      );
      void client.cancel();
      return;
    }
    log.info(`stopping the job with a savepoint in ${savepointDir} (again to cancel)`);
    client.stopWithSavepoint(savepointDir).then(
      (path) => (savepoint = path),
      (e: Error) => {
        log.error(`the savepoint failed (${e.message}); cancelling the job`);
        void client!.cancel();
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  /**
   * Once the job ended, until the process exits: the stop's signal delivered again (to the process, then
   * to its group, as `timeout` does; late after a slow stop) is swallowed instead of killing the process
   * that is about to exit 0; any other signal ends it as the signal would (StopRequests.receiveAfterEnd).
   */
  const afterEnd = (signal: NodeJS.Signals) => {
    if (requests.receiveAfterEnd(signal) === "ignore") return;
    process.off("SIGINT", afterEnd);
    process.off("SIGTERM", afterEnd);
    process.kill(process.pid, signal);
  };
  const parentWatch = o.detached
    ? undefined
    : watchParent((pid) => {
        log.warn(`the process that started weir (pid ${pid}) ended: ${client ? "cancelling the job" : "exiting"} (run with --detached to keep running)`);
        if (!client) process.exit(130);
        report?.stopProgress();
        watchStop();
        void client.cancel();
      });
  setLaunch({
    role: "client",
    command: ["weir", ...process.argv.slice(2)].join(" "),
    jobModule,
    args: program.args,
    configuration: o.configuration.toMap(),
    defaultCheckpointDir: program.defaultCheckpointDir,
    onJobStarted: (c) => {
      client = c;
      endpoints.jobStarted(c);
      // in the registry of running jobs once its REST server is up (weir list / cancel / stop / savepoint)
      void endpoints.restServer().then((rest) => rest && registerUntilEnd(c, { url: rest.server.url, token: rest.token }));
      mainThreadWatchdog?.stop();
      if (o.configuration.get(WORKERS) === 0) mainThreadWatchdog = watchMainThread(c.getTaskNames(), cancellationTimeout);
      report = new RunReport(localJob(c));
    },
  });
  process.argv = [process.argv[0]!, jobModule, ...program.args];
  try {
    await loadJobModule(jobModule);
    if (!client || !report) {
      if (!program.mustRunJob) return 0;
      log.error(`${program.label} did not call env.execute(): no job ran`);
      return 1;
    }
    const result = await client.getJobExecutionResult();
    savepoint ??= result.savepointPath ?? undefined;
    if (savepoint) {
      reportSavepoint(client.jobName, savepoint);
      report.summary("stopped", 0);
    } else {
      report.noteAlreadyFinished();
      report.summary("finished", 0);
    }
    return 0;
  } catch (e) {
    report?.stopProgress();
    if (savepoint && client) reportSavepoint(client.jobName, savepoint);
    log.error({ err: e }, program.describeError(e));
    const cancelled = client?.getJobStatus() === "CANCELED";
    const code = cancelled ? 130 : 1;
    report?.summary(cancelled ? "cancelled" : "failed", code);
    return code;
  } finally {
    report?.stopProgress();
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    process.on("SIGINT", afterEnd);
    process.on("SIGTERM", afterEnd);
    parentWatch?.stop();
    workerWatchdog?.stop();
    mainThreadWatchdog?.stop();
    await endpoints.close();
  }
}
