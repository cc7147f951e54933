/**
 * The job manager role of one job: decides where the run starts (savepoint,
 * latest checkpoint, or empty), deploys every task for an attempt, runs the
 * checkpoint coordinator, and on a failure cancels all tasks, asks the restart
 * strategy, and redeploys from the run's latest own checkpoint, or before it
 * has one from where it started (DESIGN.md "Recovery", "Failover origin").
 */
import { CheckpointCoordinator, checkpointIdsFrom, ReservedCheckpointIds, type CheckpointIdSource, type CheckpointStats } from "../../checkpoint/coordinator/index.ts";
import { createCheckpointStorage, type CheckpointStorage, type LatestCompleted } from "../../checkpoint/storage/index.ts";
import type { CheckpointSettings, CompletedCheckpoint } from "../../checkpoint/types.ts";
import type { JobGraph } from "../../graph/job-graph.ts";
import type { Clock } from "../../util/clock.ts";
import type { Logger } from "../../util/logger.ts";
import type { MetricSnapshot } from "../../metrics/metric-snapshot.ts";
import { vertexHexId } from "../../graph/vertex-hex-id.ts";
import { chainName, vertexName } from "../../graph/vertex-name.ts";
import { jobMetrics, markStuck, STUCK_AFTER_MS } from "./job-metrics.ts";
import type { TaskResults } from "../task/task-services.ts";
import { errorFromInfo, type TaskManagerEvents, type TaskManagerHandle } from "./deployment.ts";
import type { ExecutionPlan } from "./execution-plan.ts";
import { JobExecutionResult } from "./job-result.ts";
import { readSavepoint, writeSavepoint } from "../../checkpoint/savepoint/savepoint.ts";
import { fileSystemsFor } from "../../checkpoint/storage/file-systems.ts";
import type { FileSystems } from "../../checkpoint/storage/storage-file-system.ts";
import { checkRestoredState, generatedUidWarning } from "./restore-checks.ts";
import { JobCancelledError, JobFailedError } from "./job-errors.ts";
import { RestartBackoff, type RestartStrategyConfig } from "./restart-strategy.ts";
import { describeRestore, failoverRestore, nextCheckpointId, runOrigin, type Decided } from "./restore-decision.ts";
import { failureCause, type FailureCause } from "./failure-cause.ts";
import { recordCounts, type RecordCounts } from "./record-counts.ts";
import { fileURLToPath } from "node:url";
import { OWN_ROOT } from "../../util/own-files.ts";
import { acquireRunLocks, type RunLocks } from "./run-locks.ts";
import type { JobHa } from "./job-ha.ts";
import { CheckpointCommitter } from "./checkpoint-committer.ts";
import { WatermarkAlignment } from "./watermark-alignment.ts";
import type { GroupLowest } from "../task/source-alignment.ts";

/** Weir's own source directory: stack frames in it are not user code. */
const OWN_SOURCE = fileURLToPath(OWN_ROOT);

/** Lifecycle of a job (Flink's JobStatus subset). */
export type JobStatus = "CREATED" | "RUNNING" | "RESTARTING" | "FINISHED" | "FAILED" | "CANCELED";

/** What the job master reports while it runs (progress line, tests, demo). */
export interface JobListener {
  onRestored?(checkpoint: CompletedCheckpoint): void;
  onCheckpointComplete?(checkpoint: CompletedCheckpoint): void;
  /** Attempt `attempt` failed; `repeats`: how many attempts in a row failed with this same cause (1: a new one). */
  onAttemptFailed?(attempt: number, cause: FailureCause, repeats: number): void;
  /** Attempt `attempt` starts after `delayMs`, restoring `from` (in words). */
  onRestarting?(delayMs: number, attempt: number, from: string): void;
}

/** One failed attempt of a job, for the exception history (REST `/jobs/:jid/exceptions`). */
export interface JobFailure {
  /** Clock time of the failure. */
  readonly timestamp: number;
  /** The attempt that failed (0 for the first). */
  readonly attempt: number;
  readonly error: Error;
  /** The failed task (`vertexId#subtaskIndex`), or undefined when the job failed elsewhere (checkpointing). */
  readonly taskId?: string;
  /** One line: the error and its place in user code. */
  readonly description: string;
}

/** Failures kept in the exception history (Flink's `web.exception-history-size` default). */
const FAILURE_HISTORY_LIMIT = 16;

export interface JobMasterOptions {
  /** Unique id of this run of the job (every deployment carries it; `SinkContext.jobId`). */
  readonly jobId: string;
  readonly graph: JobGraph;
  readonly plan: ExecutionPlan;
  readonly fingerprint: string;
  readonly checkpointing: CheckpointSettings;
  readonly restartStrategy: RestartStrategyConfig;
  readonly clock: Clock;
  readonly random?: () => number;
  /** Ignore existing checkpoints and start over. */
  readonly fresh: boolean;
  /** Start from this savepoint (directory or its `_metadata`) instead of the latest checkpoint. */
  readonly fromSavepoint?: string;
  /** Skip restored state of operators that no longer exist instead of failing. */
  readonly allowNonRestoredState?: boolean;
  readonly batchSize: number;
  readonly autoWatermarkIntervalMs: number;
  readonly logger: Logger;
  /** The command that started the run, recorded in the lock of its checkpoint directory (default: `process.argv`). */
  readonly command?: string;
  readonly listener?: JobListener;
  /**
   * A high-availability store (a cluster's leading job manager): checkpoints complete when committed there, ids
   * are reserved in its counter before use, runs restore what it holds, storage keeps what it holds (and deletes
   * the rest below each committed checkpoint), and the checkpoint directory is not locked (the leadership is
   * the lock: a partitioned old leader may still hold one).
   */
  readonly ha?: JobHa;
  /** Creates the task managers once the events sink exists. */
  readonly taskManagers: (events: TaskManagerEvents) => TaskManagerHandle[];
}

/** Checkpoint ids reserved in the high-availability store at a time (the next block once half is used). */
const CHECKPOINT_ID_BLOCK = 16;

/** Attempts of the final checkpoint of a bounded job before it fails. */
const FINAL_CHECKPOINT_TRIES = 20;
const FINAL_CHECKPOINT_RETRY_MS = 20;

type Outcome =
  | { kind: "finished" }
  | { kind: "stopped"; savepointPath: string }
  | { kind: "failed"; error: Error; fatal?: boolean; taskId?: string }
  | { kind: "cancelled" };

export class JobMaster {
  private status_: JobStatus = "CREATED";
  /** Clock time the job last entered each status. */
  private readonly statusTimes: Partial<Record<JobStatus, number>>;
  /** Clock time the current (or last) attempt was deployed. */
  private attemptStartedAt: number;
  private readonly failures: JobFailure[] = [];
  private attempt = 0;
  private restarts = 0;
  private readonly storage: CheckpointStorage;
  /** Under high availability: commits each checkpoint in the store, then deletes from storage what the store no longer holds. */
  private readonly committer: CheckpointCommitter | undefined;
  /** Where savepoints are read and written (local, or S3 as the job's `s3.*` keys say). */
  private readonly fileSystems: FileSystems;
  /** This run's exclusive hold on its checkpoint and local state directories, taken before anything else and released when `run()` ends. */
  private readonly locks: RunLocks;
  private readonly managers: TaskManagerHandle[];
  private coordinator: CheckpointCoordinator | null = null;
  private settle: ((o: Outcome) => void) | null = null;
  private finishedTasks = new Set<string>();
  private endOfDataTasks = new Set<string>();
  /** Tasks of the current attempt that restored their state and run: periodic checkpoints start when all do (as Flink triggers only when every task is RUNNING). */
  private runningTasks = new Set<string>();
  /** The watermark alignment groups of the current attempt's source tasks. */
  private alignment = new WatermarkAlignment();
  /** The source tasks of each watermark alignment group (from the plan). */
  private readonly alignmentGroups: ReadonlyMap<string, readonly string[]>;
  private results: Record<string, TaskResults> = {};
  private readonly sourceTasks: string[];
  private readonly allTasks: string[];
  private lastStats: CheckpointStats | null = null;
  private origin: CompletedCheckpoint | null = null;
  private cancelRequested = false;
  private fatalError: Error | null = null;
  /** Highest checkpoint id any attempt of this run triggered (a cancelled attempt may still write state for it). */
  private highestUsedId = 0;
  /** Clock time the job last became RUNNING, the current restart began, and the last restart's duration (job metrics). */
  private runningSince = -1;
  private restartingSince = -1;
  private lastRestartMs = 0;
  /** Ends the restart back-off early (cancel). */
  private wake: (() => void) | null = null;

  /** Throws `DirectoryLockedError` when another run holds the checkpoint (or local state) directory. */
  constructor(private readonly o: JobMasterOptions) {
    this.attemptStartedAt = o.clock.now();
    this.statusTimes = { CREATED: this.attemptStartedAt };
    // under high availability the store decides what is complete and retained: storage's own retention could delete
    // the latest committed checkpoint (it goes by the newest metadata on disk); the cleanup deletes what the store does not hold
    this.storage = createCheckpointStorage(o.checkpointing.storage, { retained: o.ha ? null : o.checkpointing.retained, log: (w) => o.logger.warn(w), s3: o.checkpointing.s3 });
    this.committer = o.ha ? new CheckpointCommitter(o.ha, this.storage, (w) => o.logger.warn(w)) : undefined;
    this.fileSystems = fileSystemsFor(o.checkpointing.s3);
    this.sourceTasks = o.plan.tasks.filter((t) => t.vertex.isSource).map((t) => t.taskId);
    this.alignmentGroups = alignmentGroupsOf(o.plan);
    this.allTasks = o.plan.tasks.map((t) => t.taskId);
    this.locks = o.ha ? { release: () => {} } : acquireRunLocks(o.checkpointing, (note) => o.logger.warn(note), o.command);
    try {
      this.managers = o.taskManagers(this.events());
    } catch (e) {
      this.locks.release();
      throw e;
    }
  }

  get status(): JobStatus {
    return this.status_;
  }

  private setStatus(status: JobStatus): void {
    if (this.status_ !== status) this.statusTimes[status] = this.o.clock.now();
    this.status_ = status;
  }

  /** Clock time the job last entered each status it went through. */
  get statusTimestamps(): Readonly<Partial<Record<JobStatus, number>>> {
    return { ...this.statusTimes };
  }

  /** Clock time the current (or last) attempt was deployed. */
  get attemptStartTime(): number {
    return this.attemptStartedAt;
  }

  /** The current attempt (0 for the first). */
  get attemptNumber(): number {
    return this.attempt;
  }

  /** The failed attempts, oldest first (the last 16), and the failure that ended the job, if one did. */
  get failureHistory(): readonly JobFailure[] {
    return [...this.failures];
  }

  /**
   * Where each subtask of the current attempt is (by task id `vertexId#index`): `initializing` (deployed,
   * restoring its state), `running`, or `finished` (all its input processed).
   */
  taskStates(): Record<string, "initializing" | "running" | "finished"> {
    const out: Record<string, "initializing" | "running" | "finished"> = {};
    for (const t of this.allTasks) out[t] = this.finishedTasks.has(t) ? "finished" : this.runningTasks.has(t) ? "running" : "initializing";
    return out;
  }

  /** The job's graph (vertices, chaining, edges). */
  get graph(): JobGraph {
    return this.o.graph;
  }

  /** The physical plan: every subtask and the worker that runs it. */
  get plan(): ExecutionPlan {
    return this.o.plan;
  }

  /** The checkpoint settings the job runs with. */
  get checkpointSettings(): CheckpointSettings {
    return this.o.checkpointing;
  }


  /** Runs the job to its end. Resolves for a finished bounded job; rejects when it fails for good or is cancelled. */
  async run(): Promise<JobExecutionResult> {
    const started = this.o.clock.now();
    const backoff = new RestartBackoff(this.o.restartStrategy, this.o.random);
    let overrides: Record<string, unknown[]> | undefined;
    try {
      await this.storage.checkWritable();
      const committed = this.o.ha ? await this.o.ha.latest() : null;
      const origin = this.logged(
        runOrigin(
          committed
            ? { kind: "resume", stored: { checkpoint: committed, damaged: [] } }
            : this.o.fromSavepoint
            ? { kind: "savepoint", savepoint: await readSavepoint(this.o.fromSavepoint, this.fileSystems) }
            : this.o.fresh
              ? { kind: "fresh" }
              : // under high availability only a checkpoint committed in the store is complete (none here)
                { kind: "resume", stored: this.o.ha ? { checkpoint: null, damaged: [] } : await this.storage.latestCompleted() },
        ),
      );
      let restore = origin.kind === "empty" ? null : origin.checkpoint;
      this.origin = restore;
      const restoredFrom = restore?.checkpointId ?? null;
      // Checkpoints of this run are numbered from here on: anything below is from before it.
      const firstOwnId = nextCheckpointId(await this.storage.highestCheckpointId(), 0, restore?.checkpointId);
      const warning = this.o.checkpointing.intervalMs > 0 ? generatedUidWarning(this.o.graph) : undefined;
      if (warning) this.o.logger.warn(warning);
      let previous: FailureCause | undefined;
      let repeats = 0;
      for (;;) {
        if (restore) {
          const skipped = checkRestoredState(this.o.graph, restore, this.o.allowNonRestoredState ?? false);
          if (skipped) this.o.logger.warn(skipped);
          this.o.listener?.onRestored?.(restore);
        }
        const outcome = await this.runAttempt(restore, overrides);
        if (outcome.kind === "finished" || outcome.kind === "stopped") {
          this.setStatus("FINISHED");
          return new JobExecutionResult(
            this.o.graph.name,
            this.o.clock.now() - started,
            this.restarts,
            restoredFrom,
            this.checkpointStats(),
            this.collectResults(),
            outcome.kind === "stopped" ? outcome.savepointPath : null,
          );
        }
        if (outcome.kind === "cancelled") throw this.cancelled();
        const cause = failureCause(outcome.error, outcome.taskId, OWN_SOURCE, process.cwd());
        this.recordFailure(outcome.error, outcome.taskId, cause);
        repeats = previous?.key === cause.key ? repeats + 1 : 1;
        previous = cause;
        this.o.listener?.onAttemptFailed?.(this.attempt, cause, repeats);
        if (this.cancelRequested) throw this.cancelled(cause);
        const decision = backoff.onFailure(this.o.clock.now());
        if (outcome.fatal || !decision.restart) {
          const why = [decision.restart ? undefined : decision.reason, repeats > 1 ? `the same failure ${repeats} times in a row` : undefined];
          const note = outcome.fatal ? "" : ` (not restarted: ${why.filter(Boolean).join("; ")})`;
          throw new JobFailedError(`job '${this.o.graph.name}' failed: ${cause.description}${note}`, { cause: outcome.error });
        }
        this.setStatus("RESTARTING");
        this.restartingSince = this.o.clock.now();
        restore = this.logged(failoverRestore(origin, await this.ownLatest(firstOwnId)));
        this.restarts++;
        this.o.listener?.onRestarting?.(decision.delayMs, this.attempt + 1, describeRestore(restore, origin));
        overrides = this.o.checkpointing.mode === "at-most-once" ? this.lastSourcePositions : undefined;
        await this.backoffWait(decision.delayMs);
        if (this.cancelRequested) throw this.cancelled(cause);
        this.attempt++;
      }
    } catch (e) {
      if (this.status_ !== "CANCELED") this.setStatus("FAILED");
      throw e;
    } finally {
      try {
        await this.committer?.settled();
        await this.storage.settled(); // the old checkpoints' deletion, running in the background since their last completed one
        await Promise.all(this.managers.map((m) => m.shutdown()));
      } finally {
        this.locks.release();
      }
    }
  }

  /** The newest completed checkpoint from `firstOwnId` on: the committed one under high availability, else storage's. */
  private async ownLatest(firstOwnId: number): Promise<LatestCompleted> {
    if (!this.o.ha) return this.storage.latestCompleted(firstOwnId);
    const committed = await this.o.ha.latest();
    return { checkpoint: committed && committed.checkpointId >= firstOwnId ? committed : null, damaged: [] };
  }

  private recordFailure(error: Error, taskId: string | undefined, cause: FailureCause): void {
    this.failures.push({ timestamp: this.o.clock.now(), attempt: this.attempt, error, taskId, description: cause.description });
    if (this.failures.length > FAILURE_HISTORY_LIMIT) this.failures.shift();
  }

  /** The decided value, after logging its warnings. */
  private logged<T>(decided: Decided<T>): T {
    for (const w of decided.warnings) this.o.logger.warn(w);
    return decided.value;
  }

  /** Waits out a restart back-off; `cancel()` ends it at once. */
  private async backoffWait(delayMs: number): Promise<void> {
    if (delayMs <= 0 || this.cancelRequested) return;
    await new Promise<void>((resolve) => {
      const timer = this.o.clock.setTimeout(() => resolve(), delayMs);
      this.wake = () => {
        timer.cancel();
        resolve();
      };
    });
    this.wake = null;
  }

  private cancelled(lastFailure?: FailureCause): JobCancelledError {
    this.setStatus("CANCELED");
    const during = lastFailure ? ` after a failure, before its restart: ${lastFailure.description}` : "";
    return new JobCancelledError(`job '${this.o.graph.name}' was cancelled${during}`);
  }

  /** Cancels the job; `run()` then rejects with JobCancelledError. */
  cancel(): void {
    this.cancelRequested = true;
    this.settle?.({ kind: "cancelled" });
    this.wake?.();
  }

  /** Triggers a checkpoint now; resolves when it completed. */
  async triggerCheckpoint(): Promise<CompletedCheckpoint> {
    return this.requireCoordinator().triggerCheckpoint();
  }

  private requireCoordinator(): CheckpointCoordinator {
    if (!this.coordinator) throw new Error(`job '${this.o.graph.name}' is ${this.status_}: no checkpoint can be taken`);
    return this.coordinator;
  }

  /** Takes a savepoint into `directory` (the job goes on); resolves with its path. */
  async triggerSavepoint(directory: string): Promise<string> {
    const coordinator = this.requireCoordinator();
    return coordinator.triggerSavepoint((savepoint) => writeSavepoint(savepoint, directory, this.fileSystems), { location: (path) => path });
  }

  /**
   * Takes a savepoint into `directory`, lets every sink commit it, and stops the job
   * (Flink's stop-with-savepoint); `run()` then resolves with `savepointPath` set.
   * If the savepoint fails, the job goes on and the promise rejects. `drain`: the sources
   * first stop reading and end event time (every event-time timer and window fires); a
   * drained stop whose savepoint fails restarts the job from its latest checkpoint.
   */
  async stopWithSavepoint(directory: string, drain = false): Promise<string> {
    const coordinator = this.requireCoordinator();
    coordinator.stopPeriodic();
    try {
      const path = await coordinator.triggerSavepoint((savepoint) => writeSavepoint(savepoint, directory, this.fileSystems), { drain, stop: true, location: (path) => path });
      this.settle?.({ kind: "stopped", savepointPath: path });
      return path;
    } catch (e) {
      // drained sources read no more and event time ended: the job restarts from its latest checkpoint
      if (drain) this.settle?.({ kind: "failed", error: new Error(`the savepoint of a drained stop failed: ${(e as Error).message}`, { cause: e }) });
      else if (this.coordinator === coordinator) {
        // the sources stopped at the savepoint's barrier: they read on with the job
        for (const m of this.managers) m.resumeSources(this.attempt);
        coordinator.startPeriodic();
      }
      throw e;
    }
  }

  /** Statistics of the checkpoints of the current (or last) attempt. */
  checkpointStats(): CheckpointStats | null {
    return this.coordinator?.stats() ?? this.lastStats;
  }

  /**
   * Latest value of every metric: the job's own (checkpoints, restarts, uptime) and those of
   * every task and operator as their threads last reported them. The task a stuck thread
   * runs shows 100 % busy.
   */
  metrics(): MetricSnapshot[] {
    const now = this.o.clock.now();
    const running = this.status_ === "RUNNING" || this.status_ === "RESTARTING" || this.status_ === "CREATED";
    const out = jobMetrics(
      { jobId: this.o.jobId, jobName: this.o.graph.name },
      {
        stats: this.checkpointStats(),
        restarts: this.restarts,
        restartingMs: this.restartingSince >= 0 ? now - this.restartingSince : this.lastRestartMs,
        uptimeMs: !running ? -1 : this.status_ === "RUNNING" && this.runningSince >= 0 ? now - this.runningSince : 0,
      },
    );
    this.managers.forEach((m) => {
      let tasks = m.metrics();
      const { forMs, activeTask } = m.blocked();
      const stuck = forMs >= STUCK_AFTER_MS && activeTask !== undefined ? this.o.plan.tasks[activeTask] : undefined;
      if (stuck) {
        const v = stuck.vertex;
        const scope = { jobId: this.o.jobId, jobName: this.o.graph.name, vertexId: vertexHexId(v), taskName: vertexName(v), subtaskIndex: stuck.subtaskIndex, taskManagerId: `worker-${stuck.worker}` };
        tasks = markStuck(tasks, scope);
      }
      for (const s of tasks) out.push(s);
    });
    return out;
  }

  /** Records read by the sources and written by the sinks in the current (or last) attempt. */
  recordCounts(): RecordCounts {
    return recordCounts(this.o.graph, this.managers.flatMap((m) => m.metrics()));
  }

  /** The checkpoint or savepoint the run started from, or null (empty state). */
  get restoredFrom(): CompletedCheckpoint | null {
    return this.origin;
  }

  /** Restarts so far. */
  get restartCount(): number {
    return this.restarts;
  }

  private lastSourcePositions: Record<string, unknown[]> | undefined;

  private async runAttempt(restore: CompletedCheckpoint | null, overrides: Record<string, unknown[]> | undefined): Promise<Outcome> {
    const attempt = this.attempt;
    this.finishedTasks = new Set();
    this.endOfDataTasks = new Set();
    this.runningTasks = new Set();
    this.alignment = new WatermarkAlignment(this.alignmentGroups);
    this.results = {};
    const outcome = new Promise<Outcome>((resolve) => (this.settle = resolve));
    if (this.cancelRequested) return { kind: "cancelled" };
    if (this.fatalError) return { kind: "failed", error: this.fatalError, fatal: true };
    const ids = await this.checkpointIds(nextCheckpointId(await this.storage.highestCheckpointId(), this.highestUsedId, restore?.checkpointId));
    const coordinator = new CheckpointCoordinator({
      jobName: this.o.graph.name,
      graphFingerprint: this.o.fingerprint,
      settings: this.o.checkpointing,
      clock: this.o.clock,
      sourceTasks: this.sourceTasks,
      allTasks: this.allTasks,
      ids,
      store: {
        addCompleted: async (cp) => {
          const stored = await this.storage.addCompleted(cp);
          await this.committer?.commit(stored);
          this.o.listener?.onCheckpointComplete?.(stored);
          return stored;
        },
        discardAborted: (id) => this.storage.discardAborted(id),
      },
      gateway: {
        triggerSource: (taskId, barrier) => {
          this.highestUsedId = Math.max(this.highestUsedId, barrier.id);
          this.managerOf(taskId).trigger(attempt, taskId, barrier);
        },
        notifyComplete: (taskId, id) => this.managerOf(taskId).notifyComplete(attempt, taskId, id),
        notifyAborted: (taskId, id) => this.managerOf(taskId).notifyAborted(attempt, taskId, id),
      },
      onFailure: (error) => this.settle?.({ kind: "failed", error }),
      logger: this.o.logger.child({ component: "checkpoint" }),
    });
    this.coordinator = coordinator;
    this.setStatus("RUNNING");
    const now = this.o.clock.now();
    if (this.restartingSince >= 0) this.lastRestartMs = now - this.restartingSince;
    this.restartingSince = -1;
    this.runningSince = now;
    this.attemptStartedAt = now;
    this.o.logger.debug(
      { attempt, checkpointId: restore?.checkpointId },
      `attempt ${attempt}: deploying ${this.allTasks.length} subtasks on ${this.managers.length} task manager(s), ` +
        (restore ? `restoring ${restore.savepoint ? "savepoint" : "checkpoint"} ${restore.checkpointId}` : "from empty state"),
    );
    for (const m of this.managers)
      m.deploy({
        jobId: this.o.jobId,
        jobName: this.o.graph.name,
        attempt,
        checkpointing: this.o.checkpointing,
        restore,
        sourceOverrides: overrides,
        batchSize: this.o.batchSize,
        autoWatermarkIntervalMs: this.o.autoWatermarkIntervalMs,
      });
    const result = await outcome;
    this.settle = null;
    coordinator.shutdown(`job ${result.kind}`);
    await coordinator.whenStoresSettled();
    this.lastStats = coordinator.stats();
    this.coordinator = null;
    const positions = await Promise.all(this.managers.map((m) => m.cancel(attempt, result.kind === "stopped")));
    this.lastSourcePositions = Object.assign({}, ...positions);
    return result;
  }

  /**
   * The ids of an attempt's checkpoints, from `from` on: a local counter, or under high availability blocks
   * reserved in the store's counter before use (the first one now: a fenced reservation fails the attempt).
   */
  private async checkpointIds(from: number): Promise<CheckpointIdSource> {
    const ha = this.o.ha;
    if (!ha) return checkpointIdsFrom(from);
    return ReservedCheckpointIds.start({
      from,
      blockSize: CHECKPOINT_ID_BLOCK,
      reserve: (first, count) => ha.reserve(first, count),
      onReserveFailed: (error) => this.o.logger.warn(`could not reserve checkpoint ids: ${(error as Error).message}`),
    });
  }

  private events(): TaskManagerEvents {
    const current = (a: number) => a === this.attempt && this.settle !== null;
    return {
      acknowledge: (a, ack) => {
        if (current(a)) this.coordinator?.acknowledge(ack);
      },
      decline: (a, id, taskId, reason) => {
        if (current(a)) this.coordinator?.decline(id, taskId, reason);
      },
      running: (a, taskId) => {
        if (!current(a)) return;
        this.runningTasks.add(taskId);
        if (this.runningTasks.size === this.allTasks.length) this.coordinator?.startPeriodic();
      },
      endOfData: (a, taskId) => {
        if (!current(a)) return;
        for (const [group, lowest] of this.alignment.leave(taskId)) this.announceAlignment(a, group, lowest);
        this.endOfDataTasks.add(taskId);
        if (this.endOfDataTasks.size === this.allTasks.length) void this.finalCheckpoint(a);
      },
      finished: (a, taskId, results) => {
        if (!current(a)) return;
        this.finishedTasks.add(taskId);
        this.results[taskId] = results;
        this.coordinator?.taskFinished(taskId);
        if (this.finishedTasks.size === this.allTasks.length) this.settle?.({ kind: "finished" });
      },
      failed: (a, taskId, info) => {
        if (!current(a)) return;
        const error = errorFromInfo(info);
        error.message = `task ${this.describe(taskId)} failed: ${error.message}`;
        this.settle?.({ kind: "failed", error, taskId });
      },
      watermark: (a, taskId, group, watermark) => {
        if (!current(a)) return;
        const lowest = this.alignment.report(group, taskId, watermark);
        if (lowest !== undefined) this.announceAlignment(a, group, lowest);
      },
      fatal: (info) => {
        this.fatalError ??= errorFromInfo(info);
        this.settle?.({ kind: "failed", error: this.fatalError, fatal: true });
      },
    };
  }

  /** Tells every task manager the lowest watermarks of alignment group `group` (its source tasks pause ahead of them). */
  private announceAlignment(attempt: number, group: string, lowest: GroupLowest): void {
    for (const m of this.managers) m.alignWatermarks(attempt, group, lowest);
  }

  /**
   * Every task processed all its input: take a final checkpoint so that what the
   * sinks wrote since the last one is committed (Flink's FLIP-147), then end the
   * tasks. A failed final checkpoint is retried; one that keeps failing fails the job.
   */
  private async finalCheckpoint(attempt: number): Promise<void> {
    const coordinator = this.coordinator;
    if (!coordinator) return;
    coordinator.stopPeriodic();
    for (let tries = 1; ; tries++) {
      try {
        await coordinator.triggerCheckpoint();
        break;
      } catch (e) {
        if (attempt !== this.attempt || this.settle === null) return;
        if (tries >= FINAL_CHECKPOINT_TRIES) {
          this.settle({ kind: "failed", error: new Error(`the final checkpoint failed ${tries} times: ${(e as Error).message}`) });
          return;
        }
        await new Promise<void>((r) => this.o.clock.setTimeout(r, FINAL_CHECKPOINT_RETRY_MS));
      }
    }
    if (attempt !== this.attempt || this.settle === null) return;
    for (const m of this.managers) m.terminate(attempt);
  }

  /**
   * Tasks whose thread's event loop has not turned for `ms` or longer (stuck in user code, e.g. an
   * endless loop): the task that ran last on each such thread, described as in failures.
   */
  blockedTasks(ms: number): string[] {
    const out: string[] = [];
    this.managers.forEach((m, worker) => {
      const { forMs, activeTask } = m.blocked();
      if (forMs < ms) return;
      const active = activeTask === undefined ? undefined : this.o.plan.tasks[activeTask];
      const tasks = active ? [active] : this.o.plan.tasks.filter((t) => t.worker === worker);
      for (const t of tasks) out.push(`task ${this.describe(t.taskId)} (worker thread ${worker})`);
    });
    return out;
  }

  /** Every task described as in failures, in plan order (by ordinal). */
  taskNames(): string[] {
    return this.o.plan.tasks.map((t) => `task ${this.describe(t.taskId)}`);
  }

  /** "name (uid) subtask i/p" of a task. */
  private describe(taskId: string): string {
    const t = this.o.plan.tasks.find((x) => x.taskId === taskId);
    if (!t) return taskId;
    const names = chainName(t.vertex, (n) => n.name);
    return `'${names}' ${t.subtaskIndex + 1}/${t.vertex.parallelism}`;
  }

  private managerOf(taskId: string): TaskManagerHandle {
    const t = this.o.plan.tasks.find((x) => x.taskId === taskId)!;
    return this.managers[t.worker]!;
  }

  /** Results of every collect sink, subtasks in plan order. */
  private collectResults(): Record<string, unknown[]> {
    const out: Record<string, unknown[]> = {};
    for (const t of this.o.plan.tasks) {
      for (const [name, values] of Object.entries(this.results[t.taskId] ?? {})) {
        const all = (out[name] ??= []);
        for (const v of values) all.push(v);
      }
    }
    return out;
  }
}

/** The source tasks of each watermark alignment group of `plan` (by their source node's `alignmentGroup`). */
function alignmentGroupsOf(plan: ExecutionPlan): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const t of plan.tasks) {
    const group = t.vertex.isSource ? t.vertex.nodes[0]!.alignmentGroup : undefined;
    if (group === undefined) continue;
    const tasks = groups.get(group) ?? [];
    tasks.push(t.taskId);
    groups.set(group, tasks);
  }
  return groups;
}
