/**
 * `weir run <job>` (and `weir sql -f <script>`): imports the client program's
 * module (so its `env.execute()` runs the job with the command-line settings),
 * shows a live progress line on a terminal (or logs progress every 30 s when
 * standard error is not one), and ends with the cause of a failure and a
 * summary line.
 */
import type { StateBackendName } from "../state/state-backend-settings.ts";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { CheckpointingMode } from "../checkpoint/types.ts";
import { setLaunch } from "../api/launch-context.ts";
import type { JobClient } from "../api/job-client.ts";
import { RunReport } from "./run-report.ts";
import { getLogger, type LogFormat, type LogLevel } from "../util/logger.ts";
import { describeJobError } from "./describe-job-error.ts";
import { loadJobModule } from "../api/job-loader.ts";
import type { ClientProgram } from "./client-program.ts";

/** Parsed `weir run` arguments. */
export interface RunOptions extends RunFlags {
  job: string;
  args: string[];
}

/** The flags of `weir run` that configure the job (`weir sql -f` takes them too). */
export interface RunFlags {
  parallelism?: number;
  workers: number;
  checkpointInterval?: number;
  mode?: CheckpointingMode;
  /** Given with --checkpoint-dir (else the job's storage, or `.weir/checkpoints/<job>`). */
  checkpointDir?: string;
  fresh: boolean;
  stateBackend?: StateBackendName;
  fromSavepoint?: string;
  allowNonRestoredState: boolean;
  /** Where a stop by signal writes its savepoint. */
  savepointDir: string;
  /** Restarts after failures in a row (wins over the job's restart strategy). */
  restartAttempts?: number;
  /** `--log-level` (wins over WEIR_LOG_LEVEL). */
  logLevel?: LogLevel;
  /** `--log-format` (wins over WEIR_LOG_FORMAT). */
  logFormat?: LogFormat;
}

/** Where `weir run` keeps checkpoints unless told otherwise. */
const DEFAULT_CHECKPOINT_DIR = ".weir/checkpoints/<job>";

/** Prints where a stopped job's savepoint is and how to resume from it. */
function reportSavepoint(jobName: string, path: string): void {
  const log = getLogger();
  log.info({ savepoint: path }, `job '${jobName}' stopped with savepoint ${path}`);
  log.info(`resume with --from-savepoint ${path}`);
}

/** Runs a job file to its end; resolves with the exit code. */
export async function runJobFile(o: RunOptions): Promise<number> {
  const jobModule = resolve(o.job);
  if (!existsSync(jobModule)) {
    getLogger().error(`no such job file: ${o.job}`);
    return 1;
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
  let client: JobClient | undefined;
  let report: RunReport | undefined;
  let stopping = false;
  let savepoint: string | undefined;
  const stop = () => {
    if (!client) process.exit(130);
    report?.stopProgress();
    if (stopping) {
      log.info("cancelling the job");
      void client.cancel();
      return;
    }
    stopping = true;
    if (client.getJobStatus() === "RESTARTING") {
      log.info("the job is waiting to restart after a failure: stopping it now, without a savepoint");
      void client.cancel();
      return;
    }
    log.info(`stopping the job with a savepoint in ${o.savepointDir} (again to cancel)`);
    client.stopWithSavepoint(o.savepointDir).then(
      (path) => (savepoint = path),
      (e: Error) => {
        log.error(`the savepoint failed (${e.message}); cancelling the job`);
        void client!.cancel();
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  setLaunch({
    role: "client",
    command: ["weir", ...process.argv.slice(2)].join(" "),
    jobModule,
    args: program.args,
    options: {
      parallelism: o.parallelism,
      workers: o.workers,
      checkpointInterval: o.checkpointInterval,
      mode: o.mode,
      checkpointDir: o.checkpointDir,
      defaultCheckpointDir: program.defaultCheckpointDir,
      fresh: o.fresh,
      stateBackend: o.stateBackend,
      fromSavepoint: o.fromSavepoint,
      allowNonRestoredState: o.allowNonRestoredState,
      restartAttempts: o.restartAttempts,
    },
    onJobStarted: (c) => {
      client = c;
      report = new RunReport(c);
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
  }
}
