/**
 * The main thread's side of worker threads: starts N workers (each imports the
 * job module again and rebuilds the graph), connects every pair of workers
 * with a link for their channels (a MessagePort and shared memory, or — an
 * internal option for tests and the benchmark — TCP over 127.0.0.1, as
 * between task manager processes), drives each one as a task manager by
 * messages, and starts a worker again after it died.
 */
import { randomBytes } from "node:crypto";
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
  /** How workers are linked: shared memory (default) or TCP over 127.0.0.1 (the data plane between processes, measured in one). */
  links?: WorkerLinks;
}

/** How the pool links its workers. */
export type WorkerLinks = "shared-memory" | "tcp";

/**
 * Environment variable that makes the pool link its workers by TCP (`tcp`): an internal switch for tests and
 * the benchmark, which compare the data plane between processes with the one between threads.
 */
export const WORKER_LINKS_ENV = "WEIR_WORKER_LINKS";

/** The links the environment asks for (`WORKER_LINKS_ENV`). */
export function workerLinksFromEnv(): WorkerLinks {
  const v = process.env[WORKER_LINKS_ENV];
  if (v === undefined || v === "" || v === "shared-memory") return "shared-memory";
  if (v === "tcp") return "tcp";
  throw new Error(`${WORKER_LINKS_ENV} must be shared-memory or tcp, not '${v}'`);
}

/** The interface the workers' TCP data servers listen on in the pool. */
const TCP_HOST = "127.0.0.1";

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
  /** Port of its TCP data server, once it is ready (TCP links only). */
  dataPort?: number;
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
  /** The secret of the workers' TCP links (TCP links only). */
  private readonly token: string | undefined;

  constructor(private readonly o: PoolOptions) {
    this.token = o.links === "tcp" ? randomBytes(16).toString("hex") : undefined;
    const links: Record<number, LinkEnd>[] = Array.from({ length: o.workers }, () => ({}));
    if (!this.token)
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
      ...(this.token
        ? { tcp: { host: TCP_HOST, peers: Array.from({ length: o.workers }, (_, j) => j).filter((j) => j !== index), token: this.token } }
        : {}),
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
          if (m.dataPort !== undefined) {
            slot.dataPort = m.dataPort;
            this.introduce(index);
          }
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

  /**
   * Worker `index` listens for TCP links: tells it where the other ready workers listen, and them where it
   * does (each connects to those of a higher index; a worker started again replaces its peers' connections).
   */
  private introduce(index: number): void {
    const self = this.slots[index]!;
    const others: Record<number, { host: string; port: number }> = {};
    for (let j = 0; j < this.slots.length; j++) {
      const s = this.slots[j]!;
      if (j === index || s.state !== "alive" || s.dataPort === undefined) continue;
      others[j] = { host: TCP_HOST, port: s.dataPort };
      s.worker.postMessage({ type: "tcp-peers", peers: { [index]: { host: TCP_HOST, port: self.dataPort! } } } satisfies ToWorker);
    }
    self.worker.postMessage({ type: "tcp-peers", peers: others } satisfies ToWorker);
  }

  /** Starts worker `index` again, with new links to every other worker (which replace their old link to it). */
  private respawn(index: number): void {
    if (this.token) {
      // TCP: its peers keep their link to it; their connection is replaced once it is ready (introduce)
      this.slots[index] = this.spawn(index, {});
      return;
    }
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
