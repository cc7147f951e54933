/**
 * How a job module learns who runs it. `weir run` (the client) and each worker
 * thread import the same job module; the launch context, set before the
 * import, tells `getExecutionEnvironment()` the command-line settings and
 * tells `execute()` whether to run the job (client) or hand the rebuilt graph
 * to the worker's runtime.
 */
import type { JobGraph } from "../graph/job-graph.ts";

/** Set by `weir run` and by worker threads before they import the job module. */
export interface LaunchContext {
  readonly role: "client" | "worker";
  /** Absolute path of the job module (lets the client start workers that import it again). */
  readonly jobModule?: string;
  /** Arguments after `--` on the command line. */
  readonly args: readonly string[];
  /**
   * The command line's configuration (flags and `-D key=value`) as strings: `getExecutionEnvironment()`
   * reads it, and it wins over the job's own calls. Workers receive the client's.
   */
  readonly configuration: Readonly<Record<string, string>>;
  /** Client role: directory of filesystem checkpoints when no checkpoint storage is configured (`.weir/checkpoints/<job>`). */
  readonly defaultCheckpointDir?: string;
  /** Client role: the command that started it (`weir run job.ts --workers 2`), recorded in the checkpoint directory's lock. */
  readonly command?: string;
  /**
   * Worker role: receives a graph the module built; true when it is the job
   * this worker runs (a module may start several jobs one after another).
   */
  onWorkerGraph?(graph: JobGraph, fingerprint: string): boolean;
  /** Client role: where the job's tasks run instead of this process (a cluster's task managers). */
  readonly executor?: import("./executor.ts").ExecutorFactory;
  /** Client role: the id of the job `execute()` starts (a cluster's job manager recovering a job under its id); default a new one. */
  readonly jobId?: string;
  /** Client role: the high-availability store of the job's checkpoints (a cluster's leading job manager). */
  readonly ha?: (jobId: string) => import("../runtime/execution/job-ha.ts").JobHa;
  /** Client role: set by execute() so `weir run` can show progress and stop the job. */
  onJobStarted?(job: import("./job-client.ts").JobClient): void;
}

const KEY = Symbol.for("weir.launch-context");

/** The current launch context, if the module runs under `weir run` or in a worker. */
export function currentLaunch(): LaunchContext | undefined {
  return (globalThis as Record<symbol, LaunchContext | undefined>)[KEY];
}

/** Installs the launch context (CLI and worker bootstrap only). */
export function setLaunch(context: LaunchContext | undefined): void {
  (globalThis as Record<symbol, LaunchContext | undefined>)[KEY] = context;
}

/**
 * True when the job module runs inside a Weir worker thread. Top-level code
 * of a job module runs once in the client and once in every worker: guard
 * side effects (creating files, printing) with it.
 *
 * @example
 * ```ts
 * if (!isWorker()) console.log("starting the job");
 * ```
 */
export function isWorker(): boolean {
  return currentLaunch()?.role === "worker";
}

/**
 * The arguments given after `--` to `weir run job.ts -- a b`, in the client and in every worker.
 *
 * @example
 * ```ts
 * const [inputDir = "in/"] = getJobArgs();
 * ```
 */
export function getJobArgs(): readonly string[] {
  return currentLaunch()?.args ?? process.argv.slice(2);
}

/**
 * In a worker thread, the job module started a job that is not the one the
 * worker runs (a module that runs SQL statements one after another starts
 * one job per statement): the table API goes on with the next statement.
 */
export class OtherJobInWorker extends Error {
  override readonly name = "OtherJobInWorker";
  constructor(readonly jobName: string) {
    super(`job '${jobName}' runs in the client's other workers, not in this one`);
  }
}
