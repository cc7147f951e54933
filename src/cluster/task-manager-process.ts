/**
 * A cluster's task manager (`weir taskmanager`): connects to the job manager,
 * registers its task slots, heartbeats, and runs the worker threads the job
 * manager places on its slots (one per worker index, the worker pool of
 * `deploy/worker/`), relaying the worker protocol between them and the job
 * manager. Job bundles are fetched from the job manager by sha256 and cached.
 */
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { availableParallelism, freemem, totalmem } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";
import type { ToWorker } from "../deploy/worker/worker-protocol.ts";
import { WorkerPool } from "../deploy/worker/worker-task-manager.ts";
import { getLogger } from "../util/logger.ts";
import { ownModule } from "../util/own-files.ts";
import { JarStore } from "./jar-store.ts";
import { RpcConnection } from "./rpc-connection.ts";
import { RPC_PROTOCOL_VERSION, type FromTaskManager, type StartWorkers, type TaskManagerHardware, type ToTaskManager } from "./rpc-messages.ts";

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
  /**
   * `heartbeat.timeout`: how long a connection to the job manager may take to be accepted and registered. A
   * job manager that does not answer (a host cut off: packets dropped, the connection attempt hangs) is given up
   * then, and under high availability the leader is looked for again.
   */
  readonly registrationTimeoutMs: number;
}

/** Where the leading job manager's RPC is now (high availability), or null while none leads. */
export type LeaderLocator = () => Promise<{ host: string; port: number } | null>;

/** Pause between two looks for a leading job manager that accepts this task manager. */
const LEADER_RETRY_MS = 500;

/** The workers of one job on this task manager; its messages are handled one after another. */
interface HostedJob {
  pool: WorkerPool | undefined;
  chain: Promise<void>;
}

/**
 * @example
 * ```ts
 * const tm = await ClusterTaskManager.start({ jobManagerHost: "127.0.0.1", jobManagerPort: 6123, slots: 2, host: "127.0.0.1", cacheDir: ".weir/blobs", registrationTimeoutMs: 50_000 });
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
  /** Bundles being fetched, by id. */
  private readonly bundles = new Map<string, Promise<string>>();
  private heartbeat: NodeJS.Timeout | undefined;
  private lastHeard = Date.now();
  private rpc!: RpcConnection<FromTaskManager, ToTaskManager>;
  /** Where the job manager is: fixed, or the leader's (high availability). */
  private where: { host: string; port: number };
  private closed = false;
  /** Connections already handled as lost. */
  private readonly left = new WeakSet<RpcConnection<FromTaskManager, ToTaskManager>>();
  /** Connections on which this task manager registered. */
  private readonly registered = new WeakSet<RpcConnection<FromTaskManager, ToTaskManager>>();
  private readonly log = getLogger().child({ component: "taskmanager" });

  private constructor(
    private readonly o: TaskManagerOptions,
    /** Under high availability: finds the leader, and a lost job manager is not the end (the next leader is looked for). */
    private readonly locate?: LeaderLocator,
  ) {
    this.where = { host: o.jobManagerHost, port: o.jobManagerPort };
    this.cache = new JarStore(o.cacheDir);
    this.ended = new Promise((resolve) => (this.end = resolve));
    void this.ended.then(() => this.stopAll());
  }

  /** Connects to the job manager and registers; resolves once registered. */
  static async start(o: TaskManagerOptions): Promise<ClusterTaskManager> {
    const tm = new ClusterTaskManager(o);
    await tm.connect();
    return tm;
  }

  /**
   * Under high availability: registers with the leading job manager that `locate` finds (waiting for one), and
   * with each next leader when it loses its job manager (its workers stop: the next leader redeploys the jobs).
   */
  static async follow(o: TaskManagerOptions, locate: LeaderLocator): Promise<ClusterTaskManager> {
    const tm = new ClusterTaskManager(o, locate);
    await tm.findLeader();
    return tm;
  }

  /** Stops the workers and leaves the job manager. */
  close(): void {
    this.closed = true;
    this.end("closed");
    this.rpc?.close();
  }

  /** Looks for the leader until one accepts this task manager (or it is closed). */
  private async findLeader(): Promise<void> {
    let told = false;
    while (!this.closed) {
      const leader = await this.locate!().catch((e: unknown) => {
        this.log.warn(`looking for the leading job manager: ${String(e)}`);
        return null;
      });
      if (leader) {
        this.where = leader;
        try {
          await this.connect();
          return;
        } catch (e) {
          if (!told) this.log.warn(`${(e as Error).message}; looking for the leader again`);
        }
      } else if (!told) this.log.info("no job manager leads yet: waiting for one");
      told = true;
      await sleep(LEADER_RETRY_MS);
    }
  }

  /** Connects to the job manager at `where` and registers; resolves once registered, rejects after `registrationTimeoutMs`. */
  private async connect(): Promise<void> {
    const { host, port } = this.where;
    const ms = this.o.registrationTimeoutMs;
    const socket = connect({ host, port });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`cannot reach the job manager at ${host}:${port}: no answer within ${ms} ms (heartbeat.timeout)`));
      }, ms);
    });
    const connected = new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    }).catch((e: Error) => {
      throw new Error(`cannot reach the job manager at ${host}:${port}: ${e.message}`);
    });
    try {
      await Promise.race([connected, timedOut]);
      this.rpc = new RpcConnection<FromTaskManager, ToTaskManager>(socket);
      this.lastHeard = Date.now();
      await Promise.race([this.register(this.rpc), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The job manager is lost: the end, or under high availability the workers stop and the next leader is looked for. */
  private lost(rpc: RpcConnection<FromTaskManager, ToTaskManager>, why: string): void {
    // a connection lost before it registered is the registration's failure (findLeader tries again)
    if (rpc !== this.rpc || this.closed || this.left.has(rpc) || !this.registered.has(rpc)) return;
    this.left.add(rpc);
    if (!this.locate) return this.end(why);
    this.log.warn(`${why}: stopping this task manager's workers and registering with the leading job manager`);
    clearInterval(this.heartbeat);
    const stopping = this.stopWorkers();
    void stopping.then(() => this.findLeader());
  }

  private register(rpc: RpcConnection<FromTaskManager, ToTaskManager>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      rpc.onClose((e) => {
        reject(new Error(`the job manager closed the connection${e ? `: ${e.message}` : ""}`));
        this.lost(rpc, `the connection to the job manager closed${e ? `: ${e.message}` : ""}`);
      });
      rpc.onMessage((m) => {
        if (rpc !== this.rpc) return;
        this.lastHeard = Date.now();
        if (m.type === "registered") {
          this.registered.add(rpc);
          this.log.info(`registered with the job manager at ${this.where.host}:${this.where.port} as ${this.id} with ${this.o.slots} slot${this.o.slots === 1 ? "" : "s"}`);
          this.startHeartbeats(m.heartbeatIntervalMs, m.heartbeatTimeoutMs);
          resolve();
        } else if (m.type === "refused") {
          reject(new Error(`the job manager refused this task manager: ${m.reason}`));
          rpc.close();
        } else this.receive(m);
      });
      rpc.send({ type: "register", version: RPC_PROTOCOL_VERSION, id: this.id, slots: this.o.slots, host: this.o.host, pid: process.pid, hardware: hostHardware() });
    });
  }

  private startHeartbeats(intervalMs: number, timeoutMs: number): void {
    clearInterval(this.heartbeat);
    const rpc = this.rpc;
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastHeard > timeoutMs) {
        // lost first: closing calls the close handler at once, which would report a closed connection instead
        this.lost(rpc, `no heartbeat from the job manager for ${Date.now() - this.lastHeard} ms (heartbeat.timeout ${timeoutMs} ms)`);
        rpc.close();
        return;
      }
      this.rpc.send({ type: "heartbeat", freeMemory: freemem() });
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
        if (!this.jobs.has(m.job)) this.jobs.set(m.job, { pool: undefined, chain: Promise.resolve() });
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

  /**
   * Runs `step` after every earlier message of job `key` (a bundle fetch makes starting workers asynchronous);
   * nothing for a job whose workers were all stopped here (what is left of it in flight).
   */
  private inOrder(key: string, step: (job: HostedJob) => void | Promise<void>): void {
    const job = this.jobs.get(key);
    if (!job) return;
    job.chain = job.chain.then(() => step(job)).catch((e: Error) => this.log.error({ err: e }, `job ${key}: ${e.message}`));
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
        remote: { host: this.o.host, token: m.token },
        onMessage: (index, w) => this.rpc.send({ type: "from-worker", job: m.job, index, payload: serialize(w) }),
        onCrash: (index, e) => this.rpc.send({ type: "worker-died", job: m.job, index, message: e.message, stack: e.stack }),
      });
    }
    this.log.info(`job '${m.jobName}': started worker${m.indices.length === 1 ? "" : "s"} ${m.indices.join(", ")} of ${m.workers}`);
  }

  /** The cached path of job bundle `sha`, fetched from the job manager when not cached (once for jobs starting together). */
  private bundle(sha: string, ext: string): Promise<string> {
    const id = `${sha}.${ext}`;
    if (this.cache.has(id)) return Promise.resolve(this.cache.path(id));
    let fetching = this.bundles.get(id);
    if (!fetching) {
      fetching = new Promise<Uint8Array>((resolve, reject) => {
        this.fetches.set(sha, { resolve, reject });
        this.rpc.send({ type: "fetch-jar", jar: sha, ext });
      }).then((bytes) => {
        this.log.info(`fetched job bundle ${id} (${bytes.length} bytes) into ${this.cache.dir}`);
        return this.cache.addFetched(sha, ext, bytes);
      });
      this.bundles.set(id, fetching);
      const forget = () => this.bundles.delete(id);
      fetching.then(forget, forget);
    }
    return fetching;
  }

  private async stopAll(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.stopWorkers();
  }

  /** Stops every worker and forgets the jobs (and pending bundle fetches) of the job manager left. */
  private async stopWorkers(): Promise<void> {
    for (const f of this.fetches.values()) f.reject(new Error("the job manager was left"));
    this.fetches.clear();
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    await Promise.all(jobs.flatMap((j) => (j.pool ? j.pool.indices.map((i) => j.pool!.stop(i)) : [])));
  }
}

/** This host's cores and memory, as registration reports them. */
function hostHardware(): TaskManagerHardware {
  return { cpuCores: availableParallelism(), physicalMemory: totalmem(), freeMemory: freemem() };
}
