/**
 * The main thread's side of worker threads: starts N workers (each imports the
 * job module again and rebuilds the graph), connects every pair of workers
 * with a link for their channels (a MessagePort and shared memory), drives
 * each one as a task manager by messages, and starts a worker again after it
 * died.
 */
import { MessageChannel, Worker } from "node:worker_threads";
import { createLinkEnds, type LinkEnd } from "../../runtime/channel/remote-link.ts";
import type { MetricSnapshot } from "../../metrics/metric-snapshot.ts";
import type { TaskManagerEvents, TaskManagerHandle } from "../../runtime/execution/deployment.ts";
import { WORKER_PROTOCOL_VERSION, type FromWorker, type ToWorker, type WorkerInit } from "./worker-protocol.ts";
import { readTaskActivity, TASK_ACTIVITY_BYTES } from "../../runtime/task/task-activity.ts";
import { ownModule } from "../../util/own-files.ts";
import { compiledJob } from "../job-loader.ts";
import { currentLogSettings, getLogger, writeLogRecord } from "../../util/logger.ts";

/** A worker thread's entry: the compiled worker main, or from source a bootstrap that enables tsx before loading it. */
const WORKER_ENTRY = ownModule("deploy/worker/worker-bootstrap.mjs", "worker-main.js");

/** What the pool needs to start (and restart) a worker. */
interface PoolOptions {
  workers: number;
  /** Channels of the execution plan (sizes the shared credit counters of each link). */
  channels: number;
  jobModule: string;
  args: readonly string[];
  /** The client's command-line configuration as strings. */
  configuration: Readonly<Record<string, string>>;
  fingerprint: string;
  jobName: string;
  events: TaskManagerEvents;
}

/** Starts `workers` worker threads for the job in `jobModule`. */
export function startWorkerTaskManagers(o: PoolOptions): TaskManagerHandle[] {
  const pool = new WorkerPool(o);
  return Array.from({ length: o.workers }, (_, i) => pool.handle(i));
}

/** One worker thread and what the main thread knows of it. */
interface Slot {
  worker: Worker;
  metrics: readonly MetricSnapshot[];
  cancels: Map<number, (positions: Record<string, unknown[]>) => void>;
  /** crashed: died with an error (restarted at the next deploy); fatal: cannot run the job; stopped: shut down. */
  state: "alive" | "crashed" | "fatal" | "stopped";
  /** Attempt of its last deployment (a crash fails that attempt). */
  attempt: number;
  /** Its heartbeat and the task that runs on it (task-activity.ts). */
  activity: SharedArrayBuffer;
}

/**
 * The worker threads of a job. A worker that dies (an uncaught error outside task
 * code) fails the current attempt like a task failure; it is started again, with new
 * links to every other worker, before the next attempt is deployed.
 */
class WorkerPool {
  private readonly slots: Slot[] = [];
  /** Origin of the workers' heartbeats. */
  private readonly epoch = Date.now();

  constructor(private readonly o: PoolOptions) {
    const links: Record<number, LinkEnd>[] = Array.from({ length: o.workers }, () => ({}));
    for (let i = 0; i < o.workers; i++)
      for (let j = i + 1; j < o.workers; j++) {
        const { port1, port2 } = new MessageChannel();
        [links[i]![j], links[j]![i]] = createLinkEnds(o.channels, port1, port2);
      }
    for (let i = 0; i < o.workers; i++) this.slots.push(this.spawn(i, links[i]!));
  }

  handle(index: number): TaskManagerHandle {
    const slot = () => this.slots[index]!;
    const post = (m: ToWorker) => slot().worker.postMessage(m);
    return {
      deploy: (deployment) => {
        // Every crashed worker first, so that each live worker has its new links before its deployment arrives.
        for (let i = 0; i < this.slots.length; i++) if (this.slots[i]!.state === "crashed") this.respawn(i);
        slot().attempt = deployment.attempt;
        post({ type: "deploy", deployment });
      },
      cancel: (attempt, graceful = false) =>
        slot().state !== "alive"
          ? Promise.resolve({})
          : new Promise((resolve) => {
              slot().cancels.set(attempt, resolve);
              post({ type: "cancel", attempt, graceful });
            }),
      trigger: (attempt, taskId, barrier) => post({ type: "trigger", attempt, taskId, barrier }),
      notifyComplete: (attempt, taskId, checkpointId) => post({ type: "complete", attempt, taskId, checkpointId }),
      notifyAborted: (attempt, taskId, checkpointId) => post({ type: "aborted", attempt, taskId, checkpointId }),
      terminate: (attempt) => post({ type: "terminate", attempt }),
      resumeSources: (attempt) => post({ type: "resume-sources", attempt }),
      metrics: () => slot().metrics,
      blocked: () => {
        const { lastBeatAt, activeTask } = readTaskActivity(slot().activity, this.epoch);
        return { forMs: slot().state === "alive" ? Math.max(0, Date.now() - lastBeatAt) : 0, activeTask };
      },
      shutdown: async () => {
        const s = slot();
        s.state = "stopped";
        await s.worker.terminate();
      },
    };
  }

  private spawn(index: number, links: Record<number, LinkEnd>): Slot {
    const o = this.o;
    const activity = new SharedArrayBuffer(TASK_ACTIVITY_BYTES);
    new Int32Array(activity)[0] = Date.now() - this.epoch;
    const init: WorkerInit = {
      version: WORKER_PROTOCOL_VERSION,
      workerIndex: index,
      workers: o.workers,
      jobModule: o.jobModule,
      args: o.args,
      configuration: o.configuration,
      logLevel: currentLogSettings().level,
      fingerprint: o.fingerprint,
      jobName: o.jobName,
      links,
      activity,
      epoch: this.epoch,
      compiledJob: compiledJob(),
    };
    const worker = new Worker(WORKER_ENTRY, { workerData: init, transferList: Object.values(links).map((l) => l.port), argv: [...o.args] });
    getLogger().debug({ component: "workers", worker: index }, `worker thread ${index} started (importing ${o.jobModule})`);
    const slot: Slot = { worker, metrics: [], cancels: new Map(), state: "alive", attempt: -1, activity };
    const settleCancels = () => {
      for (const resolve of slot.cancels.values()) resolve({});
      slot.cancels.clear();
    };
    worker.on("message", (m: FromWorker) => {
      switch (m.type) {
        case "ack": return o.events.acknowledge(m.attempt, m.ack);
        case "decline": return o.events.decline(m.attempt, m.checkpointId, m.taskId, m.reason);
        case "running": return o.events.running(m.attempt, m.taskId);
        case "end-of-data": return o.events.endOfData(m.attempt, m.taskId);
        case "finished": return o.events.finished(m.attempt, m.taskId, m.results);
        case "failed": return o.events.failed(m.attempt, m.taskId, m.error);
        case "fatal":
          slot.state = "fatal";
          settleCancels();
          return o.events.fatal(m.error);
        case "cancelled":
          slot.cancels.get(m.attempt)?.(m.positions);
          slot.cancels.delete(m.attempt);
          return;
        case "metrics":
          slot.metrics = m.metrics;
          return;
        case "log":
          return writeLogRecord(m.record);
        case "ready":
          return;
      }
    });
    const crashed = (error: Error) => {
      if (slot.state !== "alive") return;
      slot.state = "crashed";
      settleCancels();
      o.events.failed(slot.attempt, `worker-${index}`, { name: error.name, message: `worker thread ${index} died: ${error.message}`, stack: error.stack });
    };
    worker.on("error", crashed);
    worker.on("exit", (code) => crashed(new Error(`it exited with code ${code}`)));
    return slot;
  }

  /** Starts worker `index` again, with new links to every other worker (which replace their old link to it). */
  private respawn(index: number): void {
    const links: Record<number, LinkEnd> = {};
    for (let j = 0; j < this.o.workers; j++) {
      if (j === index) continue;
      const { port1, port2 } = new MessageChannel();
      const [mine, theirs] = createLinkEnds(this.o.channels, port1, port2);
      links[j] = mine;
      const peer = this.slots[j]!;
      if (peer.state === "alive") peer.worker.postMessage({ type: "relink", peer: index, link: theirs } satisfies ToWorker, [port2]);
      else port2.close();
    }
    this.slots[index] = this.spawn(index, links);
  }
}
