/**
 * A handle on a running job (`env.executeAsync()`): its status, its result,
 * cancellation and manual checkpoints (Flink's JobClient).
 */
import type { CheckpointStats } from "../checkpoint/coordinator/index.ts";
import type { CompletedCheckpoint } from "../checkpoint/types.ts";
import type { JobFailure, JobMaster, JobStatus } from "../runtime/execution/job-master.ts";
import type { JobGraph } from "../graph/job-graph.ts";
import type { ExecutionPlan } from "../runtime/execution/execution-plan.ts";
import type { CheckpointSettings } from "../checkpoint/types.ts";
import type { JobExecutionResult } from "../runtime/execution/job-result.ts";
import type { MetricSnapshot } from "../metrics/metric-snapshot.ts";
import type { RecordCounts } from "../runtime/execution/record-counts.ts";

/**
 * @example
 * ```ts
 * const client = await env.executeAsync("sums");
 * console.log(client.getJobStatus());
 * const result = await client.getJobExecutionResult();
 * ```
 */
export class JobClient {
  /** @internal */
  constructor(
    private readonly jobId: string,
    readonly jobName: string,
    private readonly master: JobMaster,
    private readonly result: Promise<JobExecutionResult>,
    private readonly configuration: Readonly<Record<string, string>> = {},
    private readonly workerThreads = 0,
    private readonly waiting: () => string | undefined = () => undefined,
  ) {
    result.catch(() => {});
  }

  /**
   * The configuration the job runs with, as strings by key (the keys set, by the job or the command
   * line; docs/configuration.md lists every key and its default): what REST's `/jobs/:jid/config` shows.
   */
  getConfiguration(): Readonly<Record<string, string>> {
    return this.configuration;
  }

  /** The unique id of this run of the job (Flink's JobID); sinks see it as `SinkContext.jobId`. */
  getJobId(): string {
    return this.jobId;
  }

  /**
   * Flink's job status. A job that waits for a cluster's task slots (see {@link getWaitingFor}) is CREATED
   * before its first attempt runs and RESTARTING after a failure, as its tasks are not deployed yet.
   */
  getJobStatus(): JobStatus {
    const status = this.master.status;
    if (status === "RUNNING" && this.waiting() !== undefined) return this.master.attemptNumber === 0 ? "CREATED" : "RESTARTING";
    return status;
  }

  /** What the job waits for before its tasks can run (a cluster's free task slots), if it waits. */
  getWaitingFor(): string | undefined {
    return ["FINISHED", "FAILED", "CANCELED"].includes(this.master.status) ? undefined : this.waiting();
  }

  /** Resolves when a bounded job finished; rejects when it failed for good or was cancelled. */
  getJobExecutionResult(): Promise<JobExecutionResult> {
    return this.result;
  }

  /** Cancels the job; the result then rejects with JobCancelledError. */
  async cancel(): Promise<void> {
    this.master.cancel();
    await this.result.catch(() => {});
  }

  /** Takes a checkpoint now, even while periodic ones are in flight, and resolves when it is complete. */
  triggerCheckpoint(): Promise<CompletedCheckpoint> {
    return this.master.triggerCheckpoint();
  }

  /**
   * Takes a savepoint into `directory` while the job goes on; resolves with its path.
   *
   * @example
   * ```ts
   * const path = await client.triggerSavepoint("savepoints/");
   * ```
   */
  triggerSavepoint(directory: string): Promise<string> {
    return this.master.triggerSavepoint(directory);
  }

  /**
   * Takes a savepoint, lets the sinks commit it, and stops the job; resolves with the
   * savepoint's path once the job stopped. Resume with `weir run job.ts --from-savepoint PATH`.
   * With `drain`, the sources first stop reading and end event time, so every event-time
   * window and timer fires before the savepoint (Flink's `stop --drain`: for a job that ends for good).
   *
   * @example
   * ```ts
   * const path = await client.stopWithSavepoint("savepoints/", { drain: true });
   * ```
   */
  async stopWithSavepoint(directory: string, options: { readonly drain?: boolean } = {}): Promise<string> {
    const path = await this.master.stopWithSavepoint(directory, options.drain === true);
    await this.result;
    return path;
  }

  /** Checkpoint counts, the last completed one and the history. */
  getCheckpointStats(): CheckpointStats | null {
    return this.master.checkpointStats();
  }

  /**
   * The latest value of every metric of the job: job scope (checkpoints, restarts, uptime),
   * and task and operator scope (records, bytes, busy/idle/backpressured time, watermarks,
   * state size, user metrics) as every thread last reported them (every 250 ms from worker
   * threads; at the call in-process). See docs/metrics.md.
   *
   * @example
   * ```ts
   * const busy = client.getMetrics().filter((m) => m.name === "busyTimeMsPerSecond");
   * ```
   */
  getMetrics(): readonly MetricSnapshot[] {
    return this.master.metrics();
  }

  /**
   * Tasks whose worker thread has not come back to its event loop for `ms` or longer: user code
   * stuck in an endless loop, which no cancellation can stop (only terminating its thread). Each is
   * named with its subtask and thread; in-process runs (`workers: 0`) never list one.
   *
   * @example
   * ```ts
   * const stuck = client.getBlockedTasks(30_000); // ["task 'numbers -> spin' 1/1 (worker thread 0)"]
   * ```
   */
  getBlockedTasks(ms: number): string[] {
    return this.master.blockedTasks(ms);
  }

  /**
   * Every subtask, named as in failures, in the order of the execution plan.
   *
   * @example
   * ```ts
   * client.getTaskNames(); // ["task 'numbers -> spin' 1/1"]
   * ```
   */
  getTaskNames(): string[] {
    return this.master.taskNames();
  }

  /**
   * Records read by the sources (`in`) and written by the sinks (`out`) in the
   * current attempt (after a restart or a restore: since the checkpoint it restored).
   *
   * @example
   * ```ts
   * const { in: read, out: written } = client.getRecordCounts();
   * ```
   */
  getRecordCounts(): RecordCounts {
    return this.master.recordCounts();
  }

  /** The checkpoint or savepoint the job started from (id, directory), or null when it started from empty state. */
  getRestoredCheckpoint(): { readonly checkpointId: number; readonly savepoint: boolean; readonly directory?: string } | null {
    const cp = this.master.restoredFrom;
    return cp && { checkpointId: cp.checkpointId, savepoint: cp.savepoint, directory: cp.directory };
  }

  /** Restarts after failures so far. */
  getRestartCount(): number {
    return this.master.restartCount;
  }

  /**
   * When the job entered each status it went through (epoch ms; the last time for a status it entered
   * again, such as RUNNING after a restart). `CREATED` is when it was launched.
   *
   * @example
   * ```ts
   * const { CREATED: launched, RUNNING: running } = client.getStatusTimestamps();
   * ```
   */
  getStatusTimestamps(): Readonly<Partial<Record<JobStatus, number>>> {
    return this.master.statusTimestamps;
  }

  /** When the current (or last) attempt was deployed (epoch ms), and its number (0 for the first). */
  getAttempt(): { readonly number: number; readonly startTime: number } {
    return { number: this.master.attemptNumber, startTime: this.master.attemptStartTime };
  }

  /**
   * The failed attempts, oldest first (at most the last 16): when, which task, the error and its
   * place in user code. The failure that ended a failed job is the last one.
   *
   * @example
   * ```ts
   * for (const f of client.getFailureHistory()) console.log(new Date(f.timestamp), f.description);
   * ```
   */
  getFailureHistory(): readonly JobFailure[] {
    return this.master.failureHistory;
  }

  /**
   * Where each subtask of the current attempt is, by task id (`vertexId#index`): `initializing` (restoring its
   * state), `running` or `finished`.
   */
  getTaskStates(): Record<string, "initializing" | "running" | "finished"> {
    return this.master.taskStates();
  }

  /** The job's graph: its vertices (chained operators), their parallelism and the edges between them. */
  getJobGraph(): JobGraph {
    return this.master.graph;
  }

  /** The physical plan: every subtask and the worker thread that runs it. */
  getExecutionPlan(): ExecutionPlan {
    return this.master.plan;
  }

  /** The checkpoint settings the job runs with (interval, mode, timeout, storage, …). */
  getCheckpointSettings(): CheckpointSettings {
    return this.master.checkpointSettings;
  }

  /** How many worker threads run the tasks; 0 when they run in this thread (in-process). */
  getWorkerThreadCount(): number {
    return this.workerThreads;
  }
}
