/**
 * Where a job's tasks run. The job master plans the tasks and drives them
 * through task-manager handles; an executor creates those handles for a plan:
 * in this thread (`inProcessExecutor`), on worker threads that import the job
 * module again (`workerThreadsExecutor`), and later on task-manager processes
 * of a cluster — an addition behind this interface, not a change of the job
 * master.
 */
import type { TaskManagerEvents, TaskManagerHandle } from "../runtime/execution/deployment.ts";
import type { ExecutionPlan } from "../runtime/execution/execution-plan.ts";
import type { JobGraph } from "../graph/job-graph.ts";

/**
 * @example
 * ```ts
 * const executor = workers > 0 ? workerThreadsExecutor(pool) : inProcessExecutor(clock);
 * const plan = planExecution(graph, executor.threads);
 * const handles = executor.taskManagers(plan, events);
 * ```
 */
export interface Executor {
  /** Shown in logs and the REST API's task managers: "in-process", "worker-threads". */
  readonly kind: string;
  /** Threads the plan spreads the subtasks over (the plan's workers). */
  readonly threads: number;
  /** One handle per thread of `plan`, index i running the subtasks planned for worker i. */
  taskManagers(plan: ExecutionPlan, events: TaskManagerEvents): TaskManagerHandle[];
  /** Set while the job waits for resources (a cluster's task slots): what it waits for. */
  waiting?(): string | undefined;
}

/** What an executor of another process needs to rebuild a job there (the job module imports again). */
export interface ExecutorJob {
  readonly graph: JobGraph;
  readonly fingerprint: string;
  /** The module that builds the job (imported again where its tasks run). */
  readonly jobModule: string;
  readonly args: readonly string[];
  /** The command line's configuration as strings, so each process builds the same graph. */
  readonly configuration: Readonly<Record<string, string>>;
}

/** Chooses the executor of a job instead of the local ones (set by a cluster's job manager in the launch context). */
export type ExecutorFactory = (job: ExecutorJob) => Executor;
