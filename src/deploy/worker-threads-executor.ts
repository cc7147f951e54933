/**
 * Runs the subtasks on worker threads: each imports the job module again,
 * rebuilds the graph, checks its fingerprint and runs the subtasks the plan
 * gives its index (the pool in `worker/worker-task-manager.ts`).
 */
import type { Executor } from "./executor.ts";
import { startWorkerTaskManagers, workerLinksFromEnv } from "./worker/worker-task-manager.ts";

/** What the worker threads need to rebuild the job. */
export interface WorkerThreadsSettings {
  readonly workers: number;
  /** The module each worker imports (the job file). */
  readonly jobModule: string;
  readonly args: readonly string[];
  /** The command line's configuration as strings, so each worker builds the same graph. */
  readonly configuration: Readonly<Record<string, string>>;
  readonly fingerprint: string;
  readonly jobName: string;
}

/**
 * @example
 * ```ts
 * const executor = workerThreadsExecutor({ workers: 2, jobModule, args: [], configuration: {}, fingerprint, jobName });
 * ```
 */
export function workerThreadsExecutor(s: WorkerThreadsSettings): Executor {
  return {
    kind: "worker-threads",
    threads: s.workers,
    taskManagers: (plan, events) => startWorkerTaskManagers({ ...s, channels: plan.channels.length, events, links: workerLinksFromEnv() }),
  };
}
