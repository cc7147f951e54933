/**
 * Starts a built job: chooses the executor (this thread, or worker threads
 * that import the job module again), plans the tasks over its threads,
 * creates the job master, and returns the client.
 */
import type { CheckpointSettings } from "../checkpoint/types.ts";
import type { JobGraph } from "../graph/job-graph.ts";
import { planExecution } from "../runtime/execution/execution-plan.ts";
import { JobMaster, type JobListener } from "../runtime/execution/job-master.ts";
import type { RestartStrategyConfig } from "../runtime/execution/restart-strategy.ts";
import { inProcessExecutor } from "./in-process-executor.ts";
import { workerThreadsExecutor } from "./worker-threads-executor.ts";
import type { Clock } from "../util/clock.ts";
import type { Logger } from "../util/logger.ts";
import { workerCount } from "./worker-count.ts";
import { availableParallelism } from "node:os";
import { JobClient } from "./job-client.ts";
import type { Executor, ExecutorFactory } from "./executor.ts";
import type { JobHa } from "../runtime/execution/job-ha.ts";

/** Everything needed to start a job. */
export interface JobLaunch {
  /** Unique id of this run of the job. */
  readonly jobId: string;
  readonly graph: JobGraph;
  readonly fingerprint: string;
  readonly checkpointing: CheckpointSettings;
  readonly restartStrategy: RestartStrategyConfig;
  /** 0: every task in this thread. */
  readonly workers: number;
  /** Module the workers import to rebuild the graph (required when workers > 0). */
  readonly jobModule: string | undefined;
  readonly args: readonly string[];
  /** The command line's configuration as strings, passed to the workers so they build the same graph. */
  readonly configuration: Readonly<Record<string, string>>;
  /** The configuration the job runs with (the job's own and the command line's), as strings; `JobClient.getConfiguration()`. */
  readonly jobConfiguration: Readonly<Record<string, string>>;
  readonly fresh: boolean;
  readonly fromSavepoint?: string;
  readonly allowNonRestoredState: boolean;
  readonly batchSize: number;
  readonly autoWatermarkIntervalMs: number;
  readonly clock: Clock;
  readonly random?: () => number;
  readonly logger: Logger;
  /** The command that started the run, for the lock of its checkpoint directory (default: `process.argv`). */
  readonly command?: string;
  /** The job's high-availability store (a cluster's leading job manager). */
  readonly ha?: JobHa;
  /** Where the tasks run instead of this process (a cluster's job manager sets it); `workers` is then ignored. */
  readonly executor?: ExecutorFactory;
}

/** Starts the job; the returned client resolves its result when the job ends. */
export function startJob(j: JobLaunch): JobClient {
  if (j.workers > 0 && !j.jobModule && !j.executor)
    throw new Error(
      "running on worker threads needs the job's module so each worker can rebuild the graph: start it with `weir run job.ts --workers N`, or pass `jobModule: import.meta.url` to StreamExecutionEnvironment.create",
    );
  const executor = executorOf(j);
  const plan = planExecution(j.graph, executor.threads);
  const master = new JobMaster({
    jobId: j.jobId,
    graph: j.graph,
    plan,
    fingerprint: j.fingerprint,
    checkpointing: j.checkpointing,
    restartStrategy: j.restartStrategy,
    clock: j.clock,
    random: j.random,
    fresh: j.fresh,
    fromSavepoint: j.fromSavepoint,
    allowNonRestoredState: j.allowNonRestoredState,
    batchSize: j.batchSize,
    autoWatermarkIntervalMs: j.autoWatermarkIntervalMs,
    logger: j.logger,
    command: j.command,
    ha: j.ha,
    listener: jobListenerOf(j),
    taskManagers: (events) => executor.taskManagers(plan, events),
  });
  return new JobClient(j.jobId, j.graph.name, master, master.run(), j.jobConfiguration, executor.kind === "in-process" ? 0 : executor.threads, executor.waiting?.bind(executor));
}

/** The launch's own executor (a cluster's), else worker threads when it asks for workers, else this thread. */
function executorOf(j: JobLaunch): Executor {
  if (j.executor) {
    if (!j.jobModule) throw new Error("running on a cluster needs the job's module, which its task managers import");
    return j.executor({ graph: j.graph, fingerprint: j.fingerprint, jobModule: j.jobModule, args: j.args, configuration: j.configuration });
  }
  const subtasks = j.graph.vertices.reduce((n, v) => n + v.parallelism, 0);
  const busy = (w: number) => new Set(planExecution(j.graph, w).tasks.map((t) => t.worker)).size;
  const { workers, note } = workerCount(j.workers, busy, subtasks, availableParallelism());
  if (note) j.logger.warn({ workers }, note);
  return workers > 0
    ? workerThreadsExecutor({ workers, jobModule: j.jobModule!, args: j.args, configuration: j.configuration, fingerprint: j.fingerprint, jobName: j.graph.name })
    : inProcessExecutor(j.clock);
}

function jobListenerOf(j: JobLaunch): JobListener {
  return {
    onRestored: (cp) =>
      j.logger.info(
        { checkpointId: cp.checkpointId, savepoint: cp.savepoint, directory: cp.directory },
        `restored from ${cp.savepoint ? "savepoint" : "checkpoint"} ${cp.checkpointId} (${cp.directory ?? "in memory"}, taken ${new Date(cp.completedAt).toISOString()})`,
      ),
    onAttemptFailed: (attempt, cause, repeats) =>
      j.logger.warn(
        { attempt, repeats },
        repeats > 1
          ? `attempt ${attempt} failed again with the same error at the same place (${repeats} attempts in a row): ${cause.description}`
          : `attempt ${attempt} failed: ${cause.description}`,
      ),
    onRestarting: (delayMs, attempt, from) => j.logger.info({ attempt, delayMs }, `restarting (attempt ${attempt}) in ${delayMs} ms from ${from}`),
  };
}
