/**
 * The job master's side of worker threads, wherever they run: turns the
 * worker protocol (`ToWorker` / `FromWorker`) into task-manager handles. The
 * messages go through a transport: straight to the threads of this process
 * (`worker-task-manager.ts`), or relayed to the threads of a task-manager
 * process of a cluster (`src/cluster/`).
 */
import type { MetricSnapshot } from "../../metrics/metric-snapshot.ts";
import type { Deployment, TaskManagerEvents, TaskManagerHandle } from "../../runtime/execution/deployment.ts";
import { writeLogRecord } from "../../util/logger.ts";
import type { FromWorker, ToWorker } from "./worker-protocol.ts";

/** How the driver reaches the workers. */
export interface WorkerTransport {
  post(index: number, m: ToWorker): void;
  /**
   * Calls `deploy` once worker `index` can take a deployment: at once in this process (after starting every
   * crashed worker of `crashed` again), or once a cluster placed it on a slot.
   */
  whenDeployable(index: number, crashed: ReadonlySet<number>, deployment: Deployment, deploy: () => void): void;
  /** How long worker `index`'s event loop has not turned, and its last task (see `TaskManagerHandle.blocked`). */
  blocked(index: number): { forMs: number; activeTask: number | undefined };
  /** Stops worker `index` for good. */
  shutdown(index: number): Promise<void>;
}

/** What the driver knows of one worker. */
interface WorkerState {
  metrics: readonly MetricSnapshot[];
  cancels: Map<number, (positions: Record<string, unknown[]>) => void>;
  /** crashed: died (started again before the next deployment); fatal: cannot run the job; stopped: shut down. */
  state: "alive" | "crashed" | "fatal" | "stopped";
  /** Attempt of its last deployment (a crash fails that attempt). */
  attempt: number;
}

/**
 * @example
 * ```ts
 * const driver = new WorkerDriver([0, 1], events, transport);
 * worker.on("message", (m) => driver.receive(0, m));
 * const handles = [driver.handle(0), driver.handle(1)];
 * ```
 */
export class WorkerDriver {
  private readonly workers = new Map<number, WorkerState>();

  constructor(
    indices: readonly number[],
    private readonly events: TaskManagerEvents,
    private readonly transport: WorkerTransport,
  ) {
    for (const i of indices) this.workers.set(i, { metrics: [], cancels: new Map(), state: "alive", attempt: -1 });
  }

  /** The task-manager handle of worker `index`. */
  handle(index: number): TaskManagerHandle {
    const w = this.worker(index);
    const post = (m: ToWorker) => this.transport.post(index, m);
    return {
      deploy: (deployment) => {
        w.attempt = deployment.attempt;
        const crashed = new Set([...this.workers].filter(([, s]) => s.state === "crashed").map(([i]) => i));
        this.transport.whenDeployable(index, crashed, deployment, () => post({ type: "deploy", deployment }));
      },
      cancel: (attempt, graceful = false) => {
        if (w.state !== "alive") {
          // a crashed worker runs nothing, but a deployment of the attempt may wait for it (a cluster's, for a slot):
          // the cancellation withdraws it, so it cannot start once the worker is placed again
          if (w.state === "crashed") post({ type: "cancel", attempt, graceful });
          return Promise.resolve({});
        }
        return new Promise((resolve) => {
          w.cancels.set(attempt, resolve);
          post({ type: "cancel", attempt, graceful });
        });
      },
      trigger: (attempt, taskId, barrier) => post({ type: "trigger", attempt, taskId, barrier }),
      notifyComplete: (attempt, taskId, checkpointId) => post({ type: "complete", attempt, taskId, checkpointId }),
      notifyAborted: (attempt, taskId, checkpointId) => post({ type: "aborted", attempt, taskId, checkpointId }),
      terminate: (attempt) => post({ type: "terminate", attempt }),
      resumeSources: (attempt) => post({ type: "resume-sources", attempt }),
      alignWatermarks: (attempt, group, lowest) => post({ type: "align-watermarks", attempt, group, lowest }),
      metrics: () => w.metrics,
      blocked: () => (w.state === "alive" ? this.transport.blocked(index) : { forMs: 0, activeTask: undefined }),
      shutdown: async () => {
        w.state = "stopped";
        this.settleCancels(w);
        await this.transport.shutdown(index);
      },
    };
  }

  /** A message of worker `index`. */
  receive(index: number, m: FromWorker): void {
    const w = this.worker(index);
    const e = this.events;
    switch (m.type) {
      case "ack": return e.acknowledge(m.attempt, m.ack);
      case "decline": return e.decline(m.attempt, m.checkpointId, m.taskId, m.reason);
      case "running": return e.running(m.attempt, m.taskId);
      case "end-of-data": return e.endOfData(m.attempt, m.taskId);
      case "finished": return e.finished(m.attempt, m.taskId, m.results);
      case "failed": return e.failed(m.attempt, m.taskId, m.error);
      case "watermark": return e.watermark(m.attempt, m.taskId, m.group, m.watermark);
      case "fatal":
        w.state = "fatal";
        this.settleCancels(w);
        return e.fatal(m.error);
      case "cancelled":
        w.cancels.get(m.attempt)?.(m.positions);
        w.cancels.delete(m.attempt);
        return;
      case "metrics":
        w.metrics = m.metrics;
        return;
      case "log":
        return writeLogRecord(m.record);
      case "ready":
        return;
    }
  }

  /** Worker `index` died (`error` says how): fails its attempt; it is started again before the next deployment. */
  crashed(index: number, error: Error, what = `worker thread ${index}`): void {
    const w = this.worker(index);
    if (w.state !== "alive") return;
    w.state = "crashed";
    this.settleCancels(w);
    this.events.failed(w.attempt, `worker-${index}`, { name: error.name, message: `${what} died: ${error.message}`, stack: error.stack });
  }

  /** Worker `index` was started again. */
  restarted(index: number): void {
    const w = this.worker(index);
    if (w.state === "crashed") w.state = "alive";
  }

  /** Fails the attempt of worker `index` without a crash (e.g. no slot for it in time). */
  fail(index: number, error: Error): void {
    const w = this.worker(index);
    this.events.failed(w.attempt, `worker-${index}`, { name: error.name, message: error.message, stack: error.stack });
  }

  private worker(index: number): WorkerState {
    const w = this.workers.get(index);
    if (!w) throw new Error(`worker ${index} is not driven here`);
    return w;
  }

  private settleCancels(w: WorkerState): void {
    for (const resolve of w.cancels.values()) resolve({});
    w.cancels.clear();
  }
}
