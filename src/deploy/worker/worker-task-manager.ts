/**
 * The worker threads of a job in this process: starts one worker per hosted
 * worker index (each imports the job module again and rebuilds the graph),
 * connects every pair of them with a link for their channels (a MessagePort
 * and shared memory, or — an internal option for tests and the benchmark —
 * TCP over 127.0.0.1, as between task manager processes), and starts a worker
 * again after it died. A local run hosts every index of the plan; a cluster's
 * task manager hosts the indices of its slots (`src/cluster/`), linked by TCP
 * to the workers of the other task managers.
 */
import { randomBytes } from "node:crypto";
import { MessageChannel, Worker } from "node:worker_threads";
import { createLinkEnds, type LinkEnd } from "../../runtime/channel/remote-link.ts";
import type { TaskManagerEvents, TaskManagerHandle } from "../../runtime/execution/deployment.ts";
import { WORKER_PROTOCOL_VERSION, type FromWorker, type ToWorker, type WorkerInit } from "./worker-protocol.ts";
import { readTaskActivity, TASK_ACTIVITY_BYTES } from "../../runtime/task/task-activity.ts";
import { ownModule } from "../../util/own-files.ts";
import { compiledJob } from "../job-loader.ts";
import { currentLogSettings, getLogger } from "../../util/logger.ts";
import { WorkerDriver } from "./worker-driver.ts";

/** A worker thread's entry: the compiled worker main, or from source a bootstrap that enables tsx before loading it. */
const WORKER_ENTRY = ownModule("deploy/worker/worker-bootstrap.mjs", "worker-main.js");

/** What the pool needs to start (and restart) a worker. */
export interface WorkerPoolOptions {
  /** Worker indices this pool hosts (every index of the plan in a local run). */
  indices: readonly number[];
  /** Workers of the plan in all. */
  workers: number;
  /** Channels of the execution plan (sizes the shared credit counters of each link). */
  channels: number;
  jobModule: string;
  args: readonly string[];
  /** The client's command-line configuration as strings. */
  configuration: Readonly<Record<string, string>>;
  fingerprint: string;
  jobName: string;
  /** A message of worker `index`. */
  onMessage(index: number, m: FromWorker): void;
  /** Worker `index` died (an uncaught error outside task code, or it exited). */
  onCrash(index: number, error: Error): void;
  /** How the pool's own workers are linked: shared memory (default) or TCP (the data plane between processes, measured in one). */
  links?: WorkerLinks;
  /**
   * Links to the workers of the plan this pool does not host (those of other task managers): over TCP, each worker
   * listening on `host` (its port in `ready`), connections authenticated by `token`. Their addresses come in
   * `tcp-peers` messages from the job manager.
   */
  remote?: { readonly host: string; readonly token: string };
}

/** How the pool links its own workers. */
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

/** The interface the workers' TCP data servers listen on when the pool links its own workers by TCP. */
const TCP_HOST = "127.0.0.1";

/** Starts the worker threads of every worker of the plan, driven as task managers. */
export function startWorkerTaskManagers(o: Omit<WorkerPoolOptions, "indices" | "onMessage" | "onCrash" | "remote"> & { events: TaskManagerEvents }): TaskManagerHandle[] {
  const indices = Array.from({ length: o.workers }, (_, i) => i);
  let driver: WorkerDriver | undefined;
  const pool = new WorkerPool({ ...o, indices, onMessage: (i, m) => driver!.receive(i, m), onCrash: (i, e) => driver!.crashed(i, e) });
  driver = new WorkerDriver(indices, o.events, {
    post: (i, m) => pool.post(i, m),
    whenDeployable: (_, crashed, __, deploy) => {
      // every crashed worker first, so that each live worker has its new links before its deployment arrives
      for (const i of crashed) {
        pool.start(i);
        driver!.restarted(i);
      }
      deploy();
    },
    blocked: (i) => pool.blocked(i),
    shutdown: (i) => pool.stop(i),
  });
  return indices.map((i) => driver.handle(i));
}

/** One worker thread. */
interface Thread {
  worker: Worker;
  alive: boolean;
  /** Its heartbeat and the task that runs on it (task-activity.ts). */
  activity: SharedArrayBuffer;
  /** Port of its TCP data server, once it is ready (TCP links only). */
  dataPort?: number;
}

/**
 * The worker threads of a job hosted in this process, by worker index. A worker that dies is reported
 * (`onCrash`) and started again by `start`, with new links to every other live worker (which replace
 * their old link to it).
 *
 * @example
 * ```ts
 * const pool = new WorkerPool({ indices: [0, 1], workers: 2, channels, jobModule, args: [], configuration: {}, fingerprint, jobName, onMessage, onCrash });
 * pool.post(0, { type: "deploy", deployment });
 * ```
 */
export class WorkerPool {
  private readonly threads = new Map<number, Thread>();
  /** Origin of the workers' heartbeats. */
  private readonly epoch = Date.now();
  /** Whether the pool's own workers are linked by TCP. */
  private readonly ownByTcp: boolean;
  /** Where the workers listen for TCP links, and the links' secret (when any worker has a TCP link). */
  private readonly tcp: { readonly host: string; readonly token: string } | undefined;

  constructor(private readonly o: WorkerPoolOptions) {
    this.ownByTcp = o.links === "tcp";
    this.tcp = o.remote ?? (this.ownByTcp ? { host: TCP_HOST, token: randomBytes(16).toString("hex") } : undefined);
    const links = new Map<number, Record<number, LinkEnd>>(o.indices.map((i) => [i, {}]));
    if (!this.ownByTcp)
      for (const i of o.indices)
        for (const j of o.indices) {
          if (j <= i) continue;
          const { port1, port2 } = new MessageChannel();
          [links.get(i)![j], links.get(j)![i]] = createLinkEnds(o.channels, port1, port2);
        }
    for (const i of o.indices) this.threads.set(i, this.spawn(i, links.get(i)!));
  }

  /** The indices of the workers this pool hosts (live or not). */
  get indices(): number[] {
    return [...this.threads.keys()];
  }

  /** The indices of the workers alive now. */
  get live(): number[] {
    return [...this.threads].filter(([, t]) => t.alive).map(([i]) => i);
  }

  post(index: number, m: ToWorker): void {
    const t = this.threads.get(index);
    if (t?.alive) t.worker.postMessage(m);
  }

  /** Starts worker `index` (again, or for the first time here), with new links to every live worker of the pool. */
  start(index: number): void {
    const old = this.threads.get(index);
    if (old?.alive) {
      old.alive = false;
      void old.worker.terminate();
    }
    const links: Record<number, LinkEnd> = {};
    // TCP: its peers keep their link to it; their connection is replaced once it is ready (introduce)
    for (const [j, peer] of this.ownByTcp ? [] : this.threads) {
      if (j === index || !peer.alive) continue;
      const { port1, port2 } = new MessageChannel();
      const [mine, theirs] = createLinkEnds(this.o.channels, port1, port2);
      links[j] = mine;
      peer.worker.postMessage({ type: "relink", peer: index, link: theirs } satisfies ToWorker, [port2]);
    }
    this.threads.set(index, this.spawn(index, links));
  }

  /** Stops worker `index` for good. */
  async stop(index: number): Promise<void> {
    const t = this.threads.get(index);
    if (!t) return;
    t.alive = false;
    await t.worker.terminate();
  }

  /** See `TaskManagerHandle.blocked`. */
  blocked(index: number): { forMs: number; activeTask: number | undefined } {
    const t = this.threads.get(index);
    if (!t?.alive) return { forMs: 0, activeTask: undefined };
    const { lastBeatAt, activeTask } = readTaskActivity(t.activity, this.epoch);
    return { forMs: Math.max(0, Date.now() - lastBeatAt), activeTask };
  }

  private spawn(index: number, links: Record<number, LinkEnd>): Thread {
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
      ...(this.tcp ? { tcp: { host: this.tcp.host, peers: this.tcpPeers(index), token: this.tcp.token } } : {}),
    };
    const worker = new Worker(WORKER_ENTRY, { workerData: init, transferList: Object.values(links).map((l) => l.port), argv: [...o.args] });
    getLogger().debug({ component: "workers", worker: index }, `worker thread ${index} started (importing ${o.jobModule})`);
    const thread: Thread = { worker, alive: true, activity };
    worker.on("message", (m: FromWorker) => {
      if (this.threads.get(index) !== thread) return;
      if (m.type === "ready" && m.dataPort !== undefined && this.ownByTcp) {
        thread.dataPort = m.dataPort;
        this.introduce(index);
      }
      o.onMessage(index, m);
    });
    const crashed = (error: Error) => {
      if (!thread.alive) return;
      thread.alive = false;
      o.onCrash(index, error);
    };
    worker.on("error", crashed);
    worker.on("exit", (code) => crashed(new Error(`it exited with code ${code}`)));
    return thread;
  }

  /** The workers worker `index` links to by TCP: those of other processes, and with `links: "tcp"` the pool's own. */
  private tcpPeers(index: number): number[] {
    const own = new Set(this.o.indices);
    for (const i of this.threads.keys()) own.add(i);
    return Array.from({ length: this.o.workers }, (_, j) => j).filter((j) => j !== index && (this.ownByTcp || !own.has(j)));
  }

  /**
   * Own worker `index` listens for TCP links: tells it where the pool's other ready workers listen, and them where
   * it does (each connects to those of a higher index; a worker started again replaces its peers' connections).
   */
  private introduce(index: number): void {
    const self = this.threads.get(index)!;
    const others: Record<number, { host: string; port: number }> = {};
    for (const [j, t] of this.threads) {
      if (j === index || !t.alive || t.dataPort === undefined) continue;
      others[j] = { host: TCP_HOST, port: t.dataPort };
      t.worker.postMessage({ type: "tcp-peers", peers: { [index]: { host: TCP_HOST, port: self.dataPort! } }, started: true } satisfies ToWorker);
    }
    self.worker.postMessage({ type: "tcp-peers", peers: others } satisfies ToWorker);
  }
}
