/**
 * Runs the subtasks that the plan assigns to one thread: creates their
 * channels (in-thread queues, or remote links to the other threads), deploys
 * them for an attempt with the checkpoint to restore, routes the job master's
 * triggers and notifications to them, and cancels them.
 */
import { createCheckpointStorage, type CheckpointStorage } from "../../checkpoint/storage/index.ts";
import type { CheckpointBarrier } from "../../checkpoint/types.ts";
import type { Clock, TimerHandle } from "../../util/clock.ts";
import type { InputChannel, OutputChannel } from "../channel/channel.ts";
import { LocalChannel } from "../channel/local-channel.ts";
import type { Link } from "../channel/link.ts";
import { StreamTask } from "../task/stream-task.ts";
import type { GroupLowest } from "../task/source-alignment.ts";
import { MetricRegistry } from "../../metrics/metric-registry.ts";
import type { MetricSnapshot } from "../../metrics/metric-snapshot.ts";
import { errorInfo, type Deployment, type TaskManagerEvents } from "./deployment.ts";
import type { ExecutionPlan } from "./execution-plan.ts";

/** Longest wait for tasks to run their queued mails in a graceful stop. */
const GRACEFUL_STOP_TIMEOUT_MS = 10_000;

export class TaskManager {
  private tasks = new Map<string, StreamTask>();
  private runs: Promise<void>[] = [];
  private attempt = -1;
  /** Tasks whose run has not ended (of whichever attempt). */
  private running = 0;
  private storage: CheckpointStorage | null = null;
  /** The metrics of this thread's tasks (those of the last attempt stay until the next one is deployed). */
  private readonly registry = new MetricRegistry();

  /**
   * @param worker this thread's index in the plan
   * @param links links to the other workers (threads of this process or other processes), by worker index
   * @param taskManagerId the thread in metric scopes: "worker-0", … or "in-process"
   */
  constructor(
    private readonly worker: number,
    private readonly plan: ExecutionPlan,
    private readonly links: ReadonlyMap<number, Link>,
    private readonly events: TaskManagerEvents,
    private readonly clock: Clock,
    private readonly taskManagerId = `worker-${worker}`,
  ) {}

  /** Creates and starts this thread's tasks for a new attempt. */
  deploy(d: Deployment): void {
    // an attempt starts only once the one before it was cancelled and its tasks ended: two instances of a
    // subtask would both write (one sink's transactions shared) and both read
    if (this.running > 0)
      throw new Error(`worker ${this.worker}: attempt ${d.attempt} was deployed while ${this.running} task(s) of attempt ${this.attempt} still run (it was not cancelled first)`);
    this.attempt = d.attempt;
    const attempt = d.attempt;
    this.storage ??= createCheckpointStorage(d.checkpointing.storage, { retained: d.checkpointing.retained, s3: d.checkpointing.s3 });
    for (const link of this.links.values()) link.reset(attempt);
    for (const t of this.tasks.values()) t.metrics.close();
    const metrics = { registry: this.registry, jobId: d.jobId, jobName: d.jobName, taskManagerId: this.taskManagerId };
    const local = new Map<number, LocalChannel>();
    const localChannel = (id: number) => {
      let c = local.get(id);
      if (!c) local.set(id, (c = new LocalChannel()));
      return c;
    };
    const mine = this.plan.tasks.filter((t) => t.worker === this.worker);
    const created: StreamTask[] = [];
    for (const t of mine) {
      const inputs: InputChannel[] = this.plan.inputsOf
        .get(t.taskId)!
        .map((ch) => (ch.from.worker === this.worker ? localChannel(ch.id) : this.links.get(ch.from.worker)!.input(ch.id)));
      const outputs: OutputChannel[][] = this.plan.outputsOf
        .get(t.taskId)!
        .map((edge) => edge.map((ch) => (ch.to.worker === this.worker ? localChannel(ch.id) : this.links.get(ch.to.worker)!.output(ch.id))));
      const ev = this.events;
      const sides = this.plan.inputsOf.get(t.taskId)!.map((ch) => ch.edge.inputSide);
      const task = new StreamTask(t, inputs, sides, outputs, {
        jobId: d.jobId,
        attempt,
        clock: this.clock,
        checkpointing: d.checkpointing,
        storage: this.storage,
        restore: d.restore,
        sourceOverrides: d.sourceOverrides,
        batchSize: d.batchSize,
        autoWatermarkIntervalMs: d.autoWatermarkIntervalMs,
        metrics,
        acknowledge: (ack) => ev.acknowledge(attempt, ack),
        decline: (id, taskId, reason) => ev.decline(attempt, id, taskId, reason),
        running: (taskId) => ev.running(attempt, taskId),
        endOfData: (taskId) => ev.endOfData(attempt, taskId),
        finished: (taskId, results) => ev.finished(attempt, taskId, results),
        failed: (taskId, error) => ev.failed(attempt, taskId, errorInfo(error)),
        reportWatermark: (taskId, group, watermark) => ev.watermark(attempt, taskId, group, watermark),
      });
      created.push(task);
    }
    for (const link of this.links.values()) link.replayEarly();
    this.tasks = new Map(created.map((t) => [t.taskId, t]));
    this.running += created.length;
    this.runs = created.map((t) => t.run().finally(() => this.running--));
  }

  trigger(attempt: number, taskId: string, barrier: CheckpointBarrier): void {
    if (attempt === this.attempt) this.tasks.get(taskId)?.triggerCheckpoint(barrier);
  }

  notifyComplete(attempt: number, taskId: string, checkpointId: number): void {
    if (attempt === this.attempt) this.tasks.get(taskId)?.notifyCheckpointComplete(checkpointId);
  }

  notifyAborted(attempt: number, taskId: string, checkpointId: number): void {
    if (attempt === this.attempt) this.tasks.get(taskId)?.notifyCheckpointAborted(checkpointId);
  }

  /** Ends the attempt's tasks after the final checkpoint. */
  terminate(attempt: number): void {
    if (attempt === this.attempt) for (const t of this.tasks.values()) t.terminate();
  }

  /** A failed stop with savepoint: the attempt's source tasks read again. */
  resumeSources(attempt: number): void {
    if (attempt === this.attempt) for (const t of this.tasks.values()) t.resumeSource();
  }

  /** The lowest watermarks of alignment group `group`: the attempt's source tasks of that group pause ahead of them. */
  alignWatermarks(attempt: number, group: string, lowest: GroupLowest): void {
    if (attempt === this.attempt) for (const t of this.tasks.values()) t.alignWatermarks(group, lowest);
  }

  /** Cancels the attempt's tasks and waits for them; returns the sources' positions at that moment. */
  async cancel(attempt: number, graceful = false): Promise<Record<string, unknown[]>> {
    if (attempt !== this.attempt) return {};
    const positions: Record<string, unknown[]> = {};
    const cancel = (t: StreamTask) => {
      const p = t.sourcePositions();
      if (p) positions[p[0]] = p[1];
      t.cancel();
    };
    if (graceful) {
      // Sources stop emitting, so every task drains its input and reaches its mailbox,
      // where the queued notifications (the savepoint's) run before the cancellation.
      // If a task cannot get there in time, it is cancelled anyway: the savepoint is complete,
      // and a sink that missed its notification commits on restore (recoverAndCommit).
      for (const t of this.tasks.values()) t.suspendSource();
      let timer: TimerHandle | undefined;
      await Promise.race([
        // a task whose loop already ended runs no more mails: its end counts as done
        Promise.all([...this.tasks.values()].map((t, i) => Promise.race([t.whenMailsRun(), this.runs[i]]))),
        new Promise<void>((r) => (timer = this.clock.setTimeout(r, GRACEFUL_STOP_TIMEOUT_MS))),
      ]);
      timer?.cancel();
    }
    for (const t of this.tasks.values()) cancel(t);
    await Promise.all(this.runs);
    return positions;
  }

  /** The current value of every metric of this thread's tasks. */
  metrics(): MetricSnapshot[] {
    return this.registry.snapshot();
  }
}
