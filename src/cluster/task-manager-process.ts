/**
 * A cluster's task manager (`weir taskmanager`): connects to the job manager,
 * registers its task slots, heartbeats, and runs the worker threads the job
 * manager places on its slots (one per worker index, the worker pool of
 * `deploy/worker/`), relaying the worker protocol between them and the job
 * manager. Job bundles are fetched from the job manager by sha256 and cached.
 */
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";
import type { ToWorker } from "../deploy/worker/worker-protocol.ts";
import { WorkerPool } from "../deploy/worker/worker-task-manager.ts";
import { getLogger } from "../util/logger.ts";
import { ownModule } from "../util/own-files.ts";
import { JarStore } from "./jar-store.ts";
import { RpcConnection } from "./rpc-connection.ts";
import { RPC_PROTOCOL_VERSION, type FromTaskManager, type StartWorkers, type ToTaskManager } from "./rpc-messages.ts";

/** Settings of a task manager. */
export interface TaskManagerOptions {
  /** The job manager's `jobmanager.rpc.address` and `jobmanager.rpc.port`. */
  readonly jobManagerHost: string;
  readonly jobManagerPort: number;
  /** `taskmanager.numberOfTaskSlots`. */
  readonly slots: number;
  /** `taskmanager.host`. */
  readonly host: string;
  /** `blob.storage.directory`: the cache of job bundles. */
  readonly cacheDir: string;
}

/** The workers of one job on this task manager; its messages are handled one after another. */
interface HostedJob {
  pool: WorkerPool | undefined;
  chain: Promise<void>;
}

/**
 * @example
 * ```ts
 * const tm = await ClusterTaskManager.start({ jobManagerHost: "127.0.0.1", jobManagerPort: 6123, slots: 2, host: "127.0.0.1", cacheDir: ".weir/blobs" });
 * await tm.ended; // the job manager was lost (or close() was called)
 * ```
 */
export class ClusterTaskManager {
  /** Flink's resource id of this task manager: 32 hex digits. */
  readonly id = randomBytes(16).toString("hex");
  /** Resolves with why the task manager ended (its job manager lost, or `close()`). */
  readonly ended: Promise<string>;
  private end!: (why: string) => void;
  private readonly jobs = new Map<string, HostedJob>();
  private readonly cache: JarStore;
  private readonly fetches = new Map<string, { resolve: (bytes: Uint8Array) => void; reject: (e: Error) => void }>();
  private heartbeat: NodeJS.Timeout | undefined;
  private lastHeard = Date.now();
  private readonly log = getLogger().child({ component: "taskmanager" });

  private constructor(
    private readonly o: TaskManagerOptions,
    private readonly rpc: RpcConnection<FromTaskManager, ToTaskManager>,
  ) {
    this.cache = new JarStore(o.cacheDir);
    this.ended = new Promise((resolve) => (this.end = resolve));
    void this.ended.then(() => this.stopAll());
  }

  /** Connects to the job manager and registers; resolves once registered. */
  static async start(o: TaskManagerOptions): Promise<ClusterTaskManager> {
    const socket = connect({ host: o.jobManagerHost, port: o.jobManagerPort });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    }).catch((e: Error) => {
      throw new Error(`cannot reach the job manager at ${o.jobManagerHost}:${o.jobManagerPort}: ${e.message}`);
    });
    const rpc = new RpcConnection<FromTaskManager, ToTaskManager>(socket);
    const tm = new ClusterTaskManager(o, rpc);
    await tm.register();
    return tm;
  }

  /** Stops the workers and leaves the job manager. */
  close(): void {
    this.rpc.close();
    this.end("closed");
  }

  private register(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.rpc.onClose((e) => {
        reject(new Error(`the job manager closed the connection${e ? `: ${e.message}` : ""}`));
        this.end(`the connection to the job manager closed${e ? `: ${e.message}` : ""}`);
      });
      this.rpc.onMessage((m) => {
        this.lastHeard = Date.now();
        if (m.type === "registered") {
          this.log.info(`registered with the job manager at ${this.o.jobManagerHost}:${this.o.jobManagerPort} as ${this.id} with ${this.o.slots} slot${this.o.slots === 1 ? "" : "s"}`);
          this.startHeartbeats(m.heartbeatIntervalMs, m.heartbeatTimeoutMs);
          resolve();
        } else if (m.type === "refused") {
          reject(new Error(`the job manager refused this task manager: ${m.reason}`));
          this.rpc.close();
        } else this.receive(m);
      });
      this.rpc.send({ type: "register", version: RPC_PROTOCOL_VERSION, id: this.id, slots: this.o.slots, host: this.o.host, pid: process.pid });
    });
  }

  private startHeartbeats(intervalMs: number, timeoutMs: number): void {
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastHeard > timeoutMs) {
        this.rpc.close();
        this.end(`no heartbeat from the job manager for ${Date.now() - this.lastHeard} ms (heartbeat.timeout ${timeoutMs} ms)`);
        return;
      }
      this.rpc.send({ type: "heartbeat" });
    }, intervalMs);
  }

  private receive(m: ToTaskManager): void {
    switch (m.type) {
      case "heartbeat":
        return;
      case "jar": {
        const f = this.fetches.get(m.jar);
        this.fetches.delete(m.jar);
        if (m.bytes) f?.resolve(m.bytes);
        else f?.reject(new Error(`the job manager has no job bundle ${m.jar}: ${m.error ?? "unknown"}`));
        return;
      }
      case "start-workers":
        return this.inOrder(m.job, () => this.startWorkers(m));
      case "to-worker":
        return this.inOrder(m.job, (job) => job.pool?.post(m.index, deserialize(m.payload) as ToWorker));
      case "stop-workers":
        return this.inOrder(m.job, async (job) => {
          if (!job.pool) return;
          await Promise.all((m.indices ?? job.pool.indices).map((i) => job.pool!.stop(i)));
          if (job.pool.live.length === 0) this.jobs.delete(m.job);
        });
      case "registered":
      case "refused":
        return;
    }
  }

  /** Runs `step` after every earlier message of job `key` (a bundle fetch makes starting workers asynchronous). */
  private inOrder(key: string, step: (job: HostedJob) => void | Promise<void>): void {
    let job = this.jobs.get(key);
    if (!job) this.jobs.set(key, (job = { pool: undefined, chain: Promise.resolve() }));
    const j = job;
    j.chain = j.chain.then(() => step(j)).catch((e: Error) => this.log.error({ err: e }, `job ${key}: ${e.message}`));
  }

  private async startWorkers(m: StartWorkers & { job: string }): Promise<void> {
    const job = this.jobs.get(m.job)!;
    let jobModule: string;
    try {
      jobModule = "own" in m.module ? fileURLToPath(ownModule(m.module.own[0], m.module.own[1])) : await this.bundle(m.module.jar, m.module.ext);
    } catch (e) {
      this.rpc.send({ type: "start-failed", job: m.job, indices: m.indices, message: (e as Error).message });
      return;
    }
    if (job.pool) {
      for (const i of m.indices) job.pool.start(i);
    } else {
      job.pool = new WorkerPool({
        indices: m.indices,
        workers: m.workers,
        channels: m.channels,
        jobModule,
        args: m.args,
        configuration: m.configuration,
        fingerprint: m.fingerprint,
        jobName: m.jobName,
        onMessage: (index, w) => this.rpc.send({ type: "from-worker", job: m.job, index, payload: serialize(w) }),
        onCrash: (index, e) => this.rpc.send({ type: "worker-died", job: m.job, index, message: e.message, stack: e.stack }),
      });
    }
    this.log.info(`job '${m.jobName}': started worker${m.indices.length === 1 ? "" : "s"} ${m.indices.join(", ")} of ${m.workers}`);
  }

  /** The cached path of job bundle `sha`, fetched from the job manager when not cached. */
  private async bundle(sha: string, ext: string): Promise<string> {
    const id = `${sha}.${ext}`;
    if (this.cache.has(id)) return this.cache.path(id);
    const bytes = await new Promise<Uint8Array>((resolve, reject) => {
      this.fetches.set(sha, { resolve, reject });
      this.rpc.send({ type: "fetch-jar", jar: sha, ext });
    });
    this.log.info(`fetched job bundle ${id} (${bytes.length} bytes) into ${this.cache.dir}`);
    return this.cache.addFetched(sha, ext, bytes);
  }

  private async stopAll(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const f of this.fetches.values()) f.reject(new Error("the task manager stopped"));
    await Promise.all([...this.jobs.values()].flatMap((j) => (j.pool ? j.pool.indices.map((i) => j.pool!.stop(i)) : [])));
  }
}
