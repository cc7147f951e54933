/**
 * The checkpoint coordinator (DESIGN.md, "Checkpoint" steps 1, 4 and 5): triggers
 * checkpoints at the sources, collects acknowledgements, stores completed
 * checkpoints, notifies the tasks, and aborts on timeout, decline or failure.
 * Single-threaded and event-driven: time comes from the injected `Clock`, tasks
 * are reached through the injected gateway, durability through the injected store.
 */
import type { CheckpointSettings, CompletedCheckpoint, TaskAcknowledgement } from "../types.ts";
import type { Clock, TimerHandle } from "../../util/clock.ts";
import { createLogger, type Logger } from "../../util/logger.ts";
import type { CheckpointIdSource, CompletedCheckpointStore, CoordinatorGateway } from "./ports.ts";
import { CheckpointStatsTracker, type CheckpointStats } from "./checkpoint-stats.ts";
import { CheckpointAbortedError, CheckpointTriggerError, isFailureReason, type CheckpointAbortReason } from "./errors.ts";
import { PendingCheckpoint } from "./pending-checkpoint.ts";
import { TolerableFailureCounter } from "./tolerable-failure-counter.ts";
import { decideTrigger, type TriggerDecision } from "./trigger-decision.ts";

/** Everything a `CheckpointCoordinator` needs. */
export interface CheckpointCoordinatorOptions {
  /** Named in every message and written into each completed checkpoint. */
  jobName: string;
  /** Fingerprint of the job graph, written into each completed checkpoint. */
  graphFingerprint: string;
  /** Uses intervalMs, timeoutMs, minPauseMs, maxConcurrent, tolerableFailures. */
  settings: CheckpointSettings;
  /** The only source of time: trigger timestamps, intervals, min pause, timeouts. */
  clock: Clock;
  /** Task ids that get `triggerSource`. */
  sourceTasks: readonly string[];
  /** Every task that must ack (includes sources). */
  allTasks: readonly string[];
  /** Reaches the tasks. */
  gateway: CoordinatorGateway;
  /** Makes completed checkpoints durable. */
  store: CompletedCheckpointStore;
  /**
   * Where the checkpoint ids come from, each taken before its barrier is triggered: `checkpointIdsFrom(1)` for a
   * fresh job, from the restored id + 1 after a restore; ids reserved in etcd under high availability.
   */
  ids: CheckpointIdSource;
  /** Tolerable failures exceeded: the job must fail over. Called once per exceeded limit; periodic triggering stops. */
  onFailure(error: Error): void;
  /** Logs each decision: trigger, postpone, ignore, complete and abort at debug; a checkpoint that failed at warn (default: nowhere). */
  logger?: Logger;
}

/**
 * Coordinates the checkpoints of one job run, like Flink's `CheckpointCoordinator`.
 *
 * @example
 * ```ts
 * const coordinator = new CheckpointCoordinator({
 *   jobName: "word-count", graphFingerprint, settings, clock: systemClock,
 *   sourceTasks: ["src#0"], allTasks: ["src#0", "count#0"],
 *   gateway, store, ids: checkpointIdsFrom(1),
 *   onFailure: (e) => failover(e),
 * });
 * coordinator.startPeriodic();
 * // the runtime forwards task messages:
 * coordinator.acknowledge(ack);
 * // on failover:
 * coordinator.shutdown("job failover");
 * ```
 */
export class CheckpointCoordinator {
  private readonly pending = new Map<number, PendingCheckpoint>();
  private readonly stats_ = new CheckpointStatsTracker();
  private readonly failures: TolerableFailureCounter;
  private readonly finishedTasks = new Set<string>();
  private readonly log: Logger;
  /** The lowest and highest id this coordinator triggered, if it triggered any. */
  private usedIds: { first: number; last: number } | undefined;
  /** When the last checkpoint completed or was aborted: the min pause counts from there. */
  private lastEndedAt: number | undefined;
  private shutDown = false;
  private periodic = false;
  private periodicTimer: TimerHandle | undefined;
  private waitingForSlot = false;
  /** Store operations (stores and discards) run one at a time, stores in the order checkpoints became fully acknowledged. */
  private storeQueue: Promise<void> = Promise.resolve();

  /** @param options - see {@link CheckpointCoordinatorOptions}. */
  constructor(private readonly options: CheckpointCoordinatorOptions) {
    this.failures = new TolerableFailureCounter(options.jobName, options.settings.tolerableFailures);
    this.log = options.logger ?? createLogger({ level: "error", destination: () => {} });
  }

  /** Schedules triggers every `intervalMs` (the first one after `intervalMs`). Does nothing if the interval is 0 or less. */
  startPeriodic(): void {
    if (this.periodic || this.shutDown || this.options.settings.intervalMs <= 0) return;
    this.periodic = true;
    this.schedulePeriodic(this.options.settings.intervalMs);
  }

  /** Stops periodic triggering; pending checkpoints go on. */
  stopPeriodic(): void {
    this.periodic = false;
    this.waitingForSlot = false;
    this.periodicTimer?.cancel();
    this.periodicTimer = undefined;
  }

  /**
   * Aborts all pending checkpoints (reason e.g. "job failover") WITHOUT counting
   * them as failures, and stops the timers. A checkpoint already handed to the
   * store finishes storing (it is durable and may be restored from), but no task
   * is notified of anything after this call.
   */
  shutdown(reason: string): void {
    if (this.shutDown) return;
    this.stopPeriodic();
    for (const p of [...this.pending.values()]) {
      if (p.phase !== "storing") this.abort(p, "shutdown", `coordinator shut down: ${reason}`);
    }
    this.shutDown = true;
  }

  /**
   * Resolves when no checkpoint is being stored or discarded any more. After
   * `shutdown`, await it before choosing the checkpoint to restore (a checkpoint
   * that was being stored may be the latest) or before reporting the job finished.
   */
  async whenStoresSettled(): Promise<void> {
    for (let q = this.storeQueue; ; q = this.storeQueue) {
      await q;
      if (q === this.storeQueue) return;
    }
  }

  /**
   * Triggers a checkpoint now (the final checkpoint of a bounded job, manual
   * requests): not subject to `maxConcurrent` nor to the min pause, so a periodic
   * trigger waiting for a slot can never starve it (Flink's forced checkpoints).
   * With no checkpoint id at hand it waits for one.
   * Resolves with the stored checkpoint; rejects with a `CheckpointAbortedError`
   * if it is aborted, or a `CheckpointTriggerError` if it cannot be triggered
   * (some task finished, shut down), or with the error of the id source.
   */
  triggerCheckpoint(): Promise<CompletedCheckpoint> {
    return this.requested((id) => this.startCheckpoint(id, false).promise);
  }

  /**
   * Triggers a savepoint now, like `triggerCheckpoint`. Once it is stored,
   * `write` copies it where it belongs (e.g. `writeSavepoint`); no later
   * checkpoint is stored until `write` settled, so retention cannot delete the
   * savepoint's files while they are copied. Resolves with what `write` returns;
   * rejects like `triggerCheckpoint`, or with the error of `write`. `stop`: the
   * sources stop reading at their barrier (stop with savepoint); `drain`: they also end event time before it.
   * `location`: where the written savepoint is, from what `write` returned; the statistics
   * then show it there instead of where the store kept it.
   */
  triggerSavepoint<T>(
    write: (savepoint: CompletedCheckpoint) => Promise<T>,
    options: { readonly drain?: boolean; readonly stop?: boolean; readonly location?: (written: T) => string } = {},
  ): Promise<T> {
    return this.requested((id) => {
      const p = this.startCheckpoint(id, true, options.drain === true ? "drain" : options.stop === true ? "stop" : undefined);
      let written!: Promise<T>;
      p.whileStored = (savepoint) => {
        written = Promise.resolve(savepoint).then(write);
        return written.then(
          (result) => {
            if (options.location) this.stats_.relocate(p.id, options.location(result));
          },
          () => {},
        );
      };
      return p.promise.then(() => written);
    });
  }

  /**
   * Starts a requested checkpoint with the next id (`start`), at once when an id is at hand, else once the id
   * source has one; rejected when a checkpoint cannot be triggered (checked again after the wait).
   */
  private requested<T>(start: (id: number) => Promise<T>): Promise<T> {
    const rejected = this.rejectRequest();
    if (rejected) return rejected;
    const id = this.options.ids.take();
    if (id !== undefined) return start(id);
    this.log.debug("no checkpoint id at hand: the requested checkpoint waits for one");
    return this.options.ids.whenAvailable().then(() => this.requested(start));
  }

  /**
   * Records a task's acknowledgement; completes the checkpoint when all are in.
   * Duplicates are ignored; a late ack of an aborted checkpoint has its state
   * discarded (the task wrote it after the abort had deleted the checkpoint's files).
   */
  acknowledge(ack: TaskAcknowledgement): void {
    const p = this.pending.get(ack.checkpointId);
    if (!p) {
      this.lateMessage(ack.checkpointId, `ack of ${ack.taskId}`);
      return;
    }
    const outcome = p.acknowledge(ack, this.options.clock.now());
    if (outcome !== "accepted") {
      this.log.debug(`ignoring ack of ${ack.taskId} for checkpoint ${ack.checkpointId}: ${outcome === "duplicate" ? "duplicate" : "not a task of this job"}`);
      return;
    }
    if (p.fullyAcknowledged) this.enqueueStore(p);
  }

  /** A task declined checkpoint `checkpointId`: it is aborted, and counts as a failure. */
  decline(checkpointId: number, taskId: string, reason: string): void {
    const p = this.pending.get(checkpointId);
    if (!p) {
      this.lateMessage(checkpointId, `decline of ${taskId}`);
      return;
    }
    if (p.phase !== "awaiting-acks") {
      this.log.debug(`ignoring decline of ${taskId} for checkpoint ${checkpointId}: not awaiting acks`);
      return;
    }
    this.abort(p, "declined", `declined by task ${taskId}: ${reason}`);
    this.slotFreed();
  }

  /**
   * A task reached end of input and finished: checkpoints can no longer be
   * triggered; pending ones still waiting for it are aborted (not counted as failures).
   */
  taskFinished(taskId: string): void {
    if (this.finishedTasks.has(taskId)) return;
    this.finishedTasks.add(taskId);
    this.stopPeriodic();
    for (const p of [...this.pending.values()]) {
      if (p.phase === "awaiting-acks" && !p.hasAcknowledged(taskId)) {
        this.abort(p, "finished-tasks", `task ${taskId} finished before acknowledging`);
      }
    }
  }

  /** The current statistics (a copy). */
  stats(): CheckpointStats {
    return this.stats_.snapshot(
      this.pending.size,
      this.failures.consecutiveFailures,
      [...this.pending.values()].map((p) => p.pendingStats()),
    );
  }

  /** A rejected promise if a requested checkpoint cannot be triggered now, else undefined. */
  private rejectRequest(): Promise<never> | undefined {
    const decision = this.decide(false);
    if (decision.kind !== "reject") return undefined;
    return Promise.reject(new CheckpointTriggerError(decision.reason, this.triggerRejectionMessage(decision.reason)));
  }

  private decide(periodic: boolean): TriggerDecision {
    const s = this.options.settings;
    return decideTrigger({
      now: this.options.clock.now(),
      periodic,
      inFlight: this.pending.size,
      maxConcurrent: s.maxConcurrent,
      lastEndedAt: this.lastEndedAt,
      minPauseMs: s.minPauseMs,
      someTaskFinished: this.finishedTasks.size > 0,
      shutDown: this.shutDown,
    });
  }

  private schedulePeriodic(delayMs: number): void {
    this.periodicTimer?.cancel();
    this.periodicTimer = this.options.clock.setTimeout(() => {
      this.periodicTimer = undefined;
      this.periodicTick();
    }, delayMs);
  }

  private periodicTick(): void {
    if (!this.periodic) return;
    const decision = this.decide(true);
    switch (decision.kind) {
      case "trigger": {
        const id = this.options.ids.take();
        // Errors are recorded in the stats and the log; nobody awaits a periodic checkpoint.
        if (id !== undefined) this.startCheckpoint(id, false).promise.catch(() => {});
        else this.log.debug("skipping this checkpoint: no checkpoint id is reserved yet (trying again at the next interval)");
        this.schedulePeriodic(this.options.settings.intervalMs);
        break;
      }
      case "wait-pause":
        this.log.debug(`postponing checkpoint by ${decision.delayMs} ms (min pause since the end of the last one)`);
        this.schedulePeriodic(decision.delayMs);
        break;
      case "wait-slot":
        this.log.debug(`postponing checkpoint until one of ${this.pending.size} in flight finishes`);
        this.waitingForSlot = true;
        break;
      case "reject":
        this.log.debug(`stopping periodic checkpoints: ${this.triggerRejectionMessage(decision.reason)}`);
        this.stopPeriodic();
        break;
    }
  }

  /** A pending checkpoint left: a periodic trigger waiting for a slot may go now. */
  private slotFreed(): void {
    if (!this.waitingForSlot) return;
    this.waitingForSlot = false;
    this.periodicTick();
  }

  private startCheckpoint(id: number, savepoint: boolean, ending?: "stop" | "drain"): PendingCheckpoint {
    const { clock, settings, allTasks, sourceTasks, gateway } = this.options;
    this.usedIds = { first: this.usedIds?.first ?? id, last: id };
    const timestamp = clock.now();
    const p = new PendingCheckpoint(id, timestamp, savepoint, allTasks);
    this.pending.set(id, p);
    this.stats_.recordTriggered();
    p.timeout = clock.setTimeout(() => {
      if (this.pending.get(id) !== p || p.phase !== "awaiting-acks") return;
      this.abort(p, "expired", `expired after ${settings.timeoutMs} ms`);
      this.slotFreed();
    }, settings.timeoutMs);
    this.log.debug(`triggering ${savepoint ? "savepoint" : "checkpoint"} ${id}`);
    const barrier = { kind: "barrier", id, timestamp, savepoint, ...(ending ? { stop: true } : {}), ...(ending === "drain" ? { drain: true } : {}) } as const;
    for (const task of sourceTasks) gateway.triggerSource(task, barrier);
    if (p.fullyAcknowledged) this.enqueueStore(p);
    return p;
  }

  private enqueueStore(p: PendingCheckpoint): void {
    p.phase = "queued";
    p.timeout?.cancel();
    const checkpoint: CompletedCheckpoint = {
      version: 1,
      jobName: this.options.jobName,
      checkpointId: p.id,
      timestamp: p.timestamp,
      completedAt: this.options.clock.now(),
      savepoint: p.savepoint,
      graphFingerprint: this.options.graphFingerprint,
      states: p.states(),
    };
    this.storeQueue = this.storeQueue
      .then(() => this.store(p, checkpoint))
      // Keeps the queue alive if a gateway or onFailure callback threw.
      .catch((e: unknown) => this.log.error(`error while completing checkpoint ${p.id}: ${e instanceof Error ? e.message : String(e)}`));
  }

  private async store(p: PendingCheckpoint, checkpoint: CompletedCheckpoint): Promise<void> {
    if (this.pending.get(p.id) !== p) return; // subsumed or shut down while queued
    p.phase = "storing";
    let stored: CompletedCheckpoint;
    try {
      stored = await this.options.store.addCompleted(checkpoint);
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      this.abort(p, "store-failed", `could not be stored: ${cause}`, error);
      this.slotFreed();
      return;
    }
    this.complete(p, stored);
    await p.whileStored?.(stored);
    p.resolve(stored);
  }

  private complete(p: PendingCheckpoint, stored: CompletedCheckpoint): void {
    const now = this.options.clock.now();
    this.pending.delete(p.id);
    this.lastEndedAt = now;
    this.failures.recordSuccess();
    const stats = { ...p.completedStats(now), ...(stored.directory === undefined ? {} : { location: stored.directory }) };
    this.stats_.recordCompleted(stats);
    this.log.debug(`completed checkpoint ${p.id} in ${stats.durationMs} ms (${stats.checkpointedSize} bytes written, ${stats.stateSize} referenced)`);
    for (const older of [...this.pending.values()]) {
      // a savepoint is never subsumed (as in Flink): someone waits for it, and it completes on its own
      if (older.id < p.id && !older.savepoint) this.abort(older, "subsumed", `subsumed by completed checkpoint ${p.id}`);
    }
    if (!this.shutDown) {
      for (const task of this.options.allTasks) this.options.gateway.notifyComplete(task, p.id);
    }
    this.slotFreed();
  }

  /**
   * Removes `p`, notifies every task (unless shut down), discards what the tasks
   * wrote, records it and rejects its promise. Counted failures may fail the job.
   */
  private abort(p: PendingCheckpoint, reason: CheckpointAbortReason, detail: string, cause?: unknown): void {
    this.pending.delete(p.id);
    this.lastEndedAt = this.options.clock.now();
    const kind = p.savepoint ? "Savepoint" : "Checkpoint";
    const error = new CheckpointAbortedError(p.id, reason, `${kind} ${p.id} of job "${this.options.jobName}" ${detail}`, cause);
    if (isFailureReason(reason)) this.log.warn(`aborted: ${error.message}`);
    else this.log.debug(`aborted: ${error.message}`);
    if (!this.shutDown) {
      for (const task of this.options.allTasks) this.options.gateway.notifyAborted(task, p.id, error.message);
    }
    this.discard(p.id);
    const isFailure = isFailureReason(reason);
    this.stats_.recordFailed({
      checkpointId: p.id,
      savepoint: p.savepoint,
      triggeredAt: p.timestamp,
      failedAt: this.options.clock.now(),
      reason,
      message: error.message,
      isFailure,
      acks: p.ackStats(),
      subtasks: p.pendingStats().subtasks,
    });
    p.reject(error);
    // Like Flink, a failed savepoint does not count towards the tolerable checkpoint failures;
    // neither does anything that fails after shutdown (the job is failing over already).
    if (!isFailure || p.savepoint || this.shutDown) return;
    const exceeded = this.failures.recordFailure(error);
    if (exceeded) {
      this.stopPeriodic();
      this.options.onFailure(exceeded);
    }
  }

  /**
   * An ack or decline of a checkpoint that is not pending. For one this coordinator
   * triggered, that is an aborted one (a completed checkpoint had every ack before it
   * completed): the task may have written state after the abort discarded the
   * checkpoint's files, so they are discarded again.
   */
  private lateMessage(checkpointId: number, what: string): void {
    if (this.usedIds === undefined || checkpointId < this.usedIds.first || checkpointId > this.usedIds.last) {
      this.log.debug(`ignoring ${what} for checkpoint ${checkpointId}: not triggered by this coordinator`);
      return;
    }
    this.log.debug(`${what} for checkpoint ${checkpointId} came after its abort: discarding what it wrote`);
    this.discard(checkpointId);
  }

  /** Deletes what the tasks wrote for aborted checkpoint `id`, in the store queue (so `whenStoresSettled` waits for it). */
  private discard(id: number): void {
    this.storeQueue = this.storeQueue
      .then(() => this.options.store.discardAborted(id))
      .catch((e: unknown) => this.log.warn(`could not discard aborted checkpoint ${id}: ${e instanceof Error ? e.message : String(e)}`));
  }

  private triggerRejectionMessage(reason: CheckpointTriggerError["reason"]): string {
    const job = `job "${this.options.jobName}"`;
    switch (reason) {
      case "shutdown":
        return `Cannot trigger a checkpoint of ${job}: the coordinator is shut down`;
      case "finished-tasks":
        return `Cannot trigger a checkpoint of ${job}: tasks have finished (${[...this.finishedTasks].join(", ")})`;
    }
  }
}
