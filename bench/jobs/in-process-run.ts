/**
 * Runs one event-time bench job in the calling thread (no worker threads) and
 * times it: a fresh environment, exactly-once checkpoints to a temporary
 * directory when asked (removed afterwards), wall time with
 * `performance.now()` from `executeAsync` to the job's result.
 */
import { performance } from "node:perf_hooks";
import { StreamExecutionEnvironment, type CheckpointStats, type JobExecutionResult } from "../../src/index.ts";
import { withCheckpointDir } from "./checkpoint-dir.ts";

/** Deployment of one in-process run. */
export interface InProcessRunParams {
  /** Parallelism of every operator. */
  readonly parallelism: number;
  /** Checkpoint interval in ms (exactly-once, filesystem storage in a temp dir); 0 disables checkpointing. */
  readonly checkpointIntervalMs: number;
}

/** The timed result of one run. */
export interface InProcessRun {
  /** Wall time from `executeAsync` to the job's result. */
  readonly elapsedMs: number;
  readonly result: JobExecutionResult;
  /** Checkpoint statistics of the run (null without checkpointing). */
  readonly checkpoints: CheckpointStats | null;
}

/**
 * Builds the job with `build` on a fresh in-process environment, runs it to
 * its end and times it.
 *
 * @example
 * ```ts
 * const run = await runInProcess("bench-x", { parallelism: 4, checkpointIntervalMs: 1_000 }, (env) => env.fromSequence(1, 10).print());
 * console.log(run.elapsedMs, run.checkpoints?.counts.completed);
 * ```
 */
export async function runInProcess(jobName: string, params: InProcessRunParams, build: (env: StreamExecutionEnvironment) => void): Promise<InProcessRun> {
  return withCheckpointDir(params.checkpointIntervalMs, async (dir) => {
    const env = StreamExecutionEnvironment.create({ parallelism: params.parallelism, workers: 0, fresh: true, log: () => {} });
    if (dir) {
      env.enableCheckpointing(params.checkpointIntervalMs, "exactly-once");
      env.getCheckpointConfig().setCheckpointStorage(dir);
    }
    build(env);
    const started = performance.now();
    const client = await env.executeAsync(jobName);
    const result = await client.getJobExecutionResult();
    return { elapsedMs: performance.now() - started, result, checkpoints: result.checkpoints };
  });
}
