/**
 * `weir run <job>`: imports the job module as the client (so its
 * `env.execute()` runs the job with the command-line settings), shows a live
 * progress line on a terminal, and turns the outcome into an exit code and a
 * one-line cause.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { CheckpointingMode } from "../checkpoint/types.ts";
import { setLaunch } from "../api/launch-context.ts";
import type { JobClient } from "../api/job-client.ts";
import { ProgressLine } from "./progress-line.ts";
import { describeJobError } from "./describe-job-error.ts";
import { loadJobModule } from "../api/job-loader.ts";

/** Parsed `weir run` arguments. */
export interface RunOptions {
  job: string;
  args: string[];
  parallelism?: number;
  workers: number;
  checkpointInterval?: number;
  mode?: CheckpointingMode;
  /** Given with --checkpoint-dir (else the job's storage, or `.weir/checkpoints/<job>`). */
  checkpointDir?: string;
  fresh: boolean;
  fromSavepoint?: string;
  allowNonRestoredState: boolean;
  /** Where a stop by signal writes its savepoint. */
  savepointDir: string;
  /** Restarts after failures in a row (wins over the job's restart strategy). */
  restartAttempts?: number;
}

/** Where `weir run` keeps checkpoints unless told otherwise. */
const DEFAULT_CHECKPOINT_DIR = ".weir/checkpoints/<job>";

/** Prints where a stopped job's savepoint is and how to resume from it. */
function reportSavepoint(jobName: string, path: string): void {
  process.stderr.write(`weir: job '${jobName}' stopped with savepoint ${path}\nweir: resume with --from-savepoint ${path}\n`);
}

/** Runs a job file to its end; resolves with the exit code. */
export async function runJobFile(o: RunOptions): Promise<number> {
  const jobModule = resolve(o.job);
  if (!existsSync(jobModule)) {
    process.stderr.write(`weir: no such job file: ${o.job}\n`);
    return 1;
  }
  let client: JobClient | undefined;
  const progress = process.stderr.isTTY ? new ProgressLine(process.stderr) : null;
  let stopping = false;
  let savepoint: string | undefined;
  const stop = () => {
    if (!client) process.exit(130);
    if (stopping) {
      progress?.stop();
      process.stderr.write("weir: cancelling the job\n");
      void client.cancel();
      return;
    }
    stopping = true;
    progress?.stop();
    if (client.getJobStatus() === "RESTARTING") {
      process.stderr.write("weir: the job is waiting to restart after a failure: stopping it now, without a savepoint\n");
      void client.cancel();
      return;
    }
    process.stderr.write(`weir: stopping the job with a savepoint in ${o.savepointDir} (again to cancel)\n`);
    client.stopWithSavepoint(o.savepointDir).then(
      (path) => (savepoint = path),
      (e: Error) => {
        process.stderr.write(`weir: the savepoint failed (${e.message}); cancelling the job\n`);
        void client!.cancel();
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  setLaunch({
    role: "client",
    jobModule,
    args: o.args,
    options: {
      parallelism: o.parallelism,
      workers: o.workers,
      checkpointInterval: o.checkpointInterval,
      mode: o.mode,
      checkpointDir: o.checkpointDir,
      defaultCheckpointDir: DEFAULT_CHECKPOINT_DIR,
      fresh: o.fresh,
      fromSavepoint: o.fromSavepoint,
      allowNonRestoredState: o.allowNonRestoredState,
      restartAttempts: o.restartAttempts,
      log: (line) => (progress ? progress.log(line) : process.stderr.write(`weir: ${line}\n`)),
    },
    onJobStarted: (c) => {
      client = c;
      progress?.start(c);
      // clear the line before the job module prints its results
      const clear = () => progress?.stop();
      c.getJobExecutionResult().then(clear, clear);
    },
  });
  process.argv = [process.argv[0]!, jobModule, ...o.args];
  try {
    await loadJobModule(jobModule);
    if (!client) {
      process.stderr.write(`weir: ${o.job} did not call env.execute(): no job ran\n`);
      return 1;
    }
    const result = await client.getJobExecutionResult();
    savepoint ??= result.savepointPath ?? undefined;
    if (savepoint) reportSavepoint(client.jobName, savepoint);
    else progress?.stop(`job '${client.jobName}' finished`);
    return 0;
  } catch (e) {
    progress?.stop();
    if (savepoint && client) reportSavepoint(client.jobName, savepoint);
    process.stderr.write(`weir: ${describeJobError(e, jobModule)}\n`);
    return client?.getJobStatus() === "CANCELED" ? 130 : 1;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
