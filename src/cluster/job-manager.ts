/**
 * A cluster's job manager (`weir jobmanager`): the RPC endpoint task managers
 * register with (their slots, heartbeats, the relayed worker protocol, job
 * bundles fetched by sha256), the slot pool, and the jobs it runs. A job runs
 * as under `weir run`: its module is imported here with a launch context whose
 * executor places the workers on task slots (`cluster-executor.ts`).
 */
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { resolve as resolvePath, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { JobClient } from "../deploy/job-client.ts";
import type { JobHa } from "../runtime/execution/job-ha.ts";
import { setLaunch } from "../deploy/launch-context.ts";
import { getLogger } from "../util/logger.ts";
import { clusterExecutor, type ClusterJob, type ClusterJobs } from "./cluster-executor.ts";
import { JarStore } from "./jar-store.ts";
import { RpcConnection } from "./rpc-connection.ts";
import { RPC_PROTOCOL_VERSION, type FromTaskManager, type StartWorkers, type ToTaskManager } from "./rpc-messages.ts";
import { SlotPool, type RegisteredTaskManager } from "./slot-pool.ts";

/** Job statuses of an ended job. */
const TERMINAL = new Set(["FINISHED", "FAILED", "CANCELED"]);

/** Settings of a job manager. */
export interface JobManagerOptions {
  /** `jobmanager.rpc.address` and `jobmanager.rpc.port` (0: any free port). */
  readonly rpcHost: string;
  readonly rpcPort: number;
  readonly heartbeatIntervalMs: number;
  readonly heartbeatTimeoutMs: number;
  readonly slotRequestTimeoutMs: number;
  /** `web.upload.dir`. */
  readonly uploadDir: string;
  /** Under high availability: `high-availability.storageDir`/jars, where every upload is copied for the next leader. */
  readonly highAvailabilityJarDir?: string;
}

/** A program to run on the cluster: the module imported here, and what the task managers import. */
export interface ClusterProgram {
  /** How messages name it (the bundle's name). */
  readonly label: string;
  /** Absolute path of the module this process imports (its `env.execute()` starts the job). */
  readonly module: string;
  readonly args: readonly string[];
  /** The run request's configuration as strings (wins over the job's own settings, as `-D` does). */
  readonly configuration: Readonly<Record<string, string>>;
  /** What the task managers' workers import. */
  readonly workerModule: StartWorkers["module"];
  /** The job's id (a recovered job keeps its own); default a new one. */
  readonly jobId?: string;
  /** The job's checkpoints in the high-availability store (a leading job manager under high availability). */
  readonly ha?: (jobId: string) => JobHa;
}

/**
 * @example
 * ```ts
 * const jm = await JobManager.start({ rpcHost: "127.0.0.1", rpcPort: 6123, heartbeatIntervalMs: 10_000, heartbeatTimeoutMs: 50_000, slotRequestTimeoutMs: 300_000, uploadDir: ".weir/jars" });
 * const client = await jm.submit({ label: "job.mjs", module, args: [], configuration: {}, workerModule: { jar, ext: "mjs" } });
 * ```
 */
export class JobManager implements ClusterJobs {
  readonly pool = new SlotPool();
  readonly jars: JarStore;
  private readonly clusterJobs = new Map<string, ClusterJob>();
  private readonly clients: JobClient[] = [];
  private readonly connections = new Set<RpcConnection<ToTaskManager, FromTaskManager>>();
  /** Imports of job modules, one at a time: each sets the process's launch context. */
  private imports: Promise<unknown> = Promise.resolve();
  private runs = 0;
  /** Whether task managers may register: false for a standby under high availability (they look for the leader). */
  private accepting = true;
  private readonly monitor: NodeJS.Timeout;
  private readonly log = getLogger().child({ component: "jobmanager" });

  private constructor(
    private readonly o: JobManagerOptions,
    private readonly server: Server,
    readonly rpcPort: number,
  ) {
    this.jars = new JarStore(o.uploadDir, o.highAvailabilityJarDir);
    server.on("connection", (socket) => this.accept(new RpcConnection<ToTaskManager, FromTaskManager>(socket)));
    this.monitor = setInterval(() => this.checkHeartbeats(), Math.max(10, Math.min(o.heartbeatIntervalMs, o.heartbeatTimeoutMs / 4)));
    this.monitor.unref();
  }

  /** Starts listening for task managers. */
  static async start(o: JobManagerOptions): Promise<JobManager> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(o.rpcPort, o.rpcHost, () => {
        server.off("error", reject);
        resolve();
      });
    });
    return new JobManager(o, server, (server.address() as AddressInfo).port);
  }

  /** Every job submitted, running or ended, oldest first. */
  jobs(): readonly JobClient[] {
    return this.clients;
  }

  add(job: string, receiver: ClusterJob): void {
    this.clusterJobs.set(job, receiver);
  }

  remove(job: string): void {
    this.clusterJobs.delete(job);
  }

  /**
   * Runs a program: imports its module (one import at a time) under a launch context whose executor places
   * the job on task slots; resolves with the client of the job it started, rejects when the module failed or
   * started none. The same bundle runs again on each submission (imported with a query of its own).
   */
  submit(p: ClusterProgram): Promise<JobClient> {
    const run = this.imports.then(() => this.importProgram(p));
    this.imports = run.catch(() => {});
    return run;
  }

  /**
   * Under high availability: whether this job manager leads, so takes task managers. When it stops leading, it
   * stops acting at once: it cancels the attempts of its jobs (they run on under the next leader, which recovers
   * them), forgets them, and drops its task managers (they register with the next leader).
   */
  setLeading(leading: boolean, reason: string): void {
    this.accepting = leading;
    if (leading) return;
    const suspended = this.clients.splice(0).filter((c) => !TERMINAL.has(c.getJobStatus()));
    for (const c of suspended) {
      this.log.warn({ jobId: c.getJobId() }, `job '${c.jobName}' (${c.getJobId()}) suspended: ${reason}`);
      void c.cancel().catch(() => {});
    }
    for (const c of this.connections) c.close();
  }

  /** Stops listening and closes the task managers' connections (jobs are not cancelled). */
  async close(): Promise<void> {
    clearInterval(this.monitor);
    for (const c of this.connections) c.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private importProgram(p: ClusterProgram): Promise<JobClient> {
    return new Promise<JobClient>((resolve, reject) => {
      let started: JobClient | undefined;
      setLaunch({
        role: "client",
        jobModule: p.module,
        args: p.args,
        configuration: p.configuration,
        // absolute: the task managers' workers write there too (a directory every host shares)
        defaultCheckpointDir: join(resolvePath(".weir/checkpoints"), "<job>"),
        command: `weir jobmanager: ${p.label}`,
        jobId: p.jobId,
        ha: p.ha,
        executor: (job) =>
          clusterExecutor(this, {
            program: { module: p.workerModule, args: job.args, configuration: job.configuration, fingerprint: job.fingerprint, jobName: job.graph.name },
            workers: Math.max(1, ...job.graph.vertices.map((v) => v.parallelism)),
            slotRequestTimeoutMs: this.o.slotRequestTimeoutMs,
          }),
        onJobStarted: (client) => {
          this.clients.push(client);
          this.log.info({ jobId: client.getJobId() }, `job '${client.jobName}' (${client.getJobId()}) submitted from ${p.label}`);
          started = client;
          resolve(client);
        },
      });
      import(`${pathToFileURL(p.module).href}?run=${++this.runs}`).then(
        () => {
          if (!started) reject(new Error(`${p.label} did not call env.execute(): no job ran`));
        },
        (e: unknown) => {
          if (!started) reject(e instanceof Error ? e : new Error(String(e)));
          // its job failed or was cancelled (its `await env.execute()` rejects): the job master said so already
          else if (TERMINAL.has(started.getJobStatus())) this.log.debug(`${p.label} ended with its job: ${(e as Error)?.message ?? e}`);
          else this.log.error({ err: e }, `${p.label} failed after its job started: ${(e as Error)?.message ?? e}`);
        },
      );
    });
  }

  private accept(rpc: RpcConnection<ToTaskManager, FromTaskManager>): void {
    this.connections.add(rpc);
    let tm: RegisteredTaskManager | undefined;
    rpc.onMessage((m) => {
      if (m.type === "register") {
        if (m.version !== RPC_PROTOCOL_VERSION) {
          rpc.send({ type: "refused", reason: `RPC protocol ${m.version} is not the job manager's ${RPC_PROTOCOL_VERSION}: run the same Weir version` });
          return;
        }
        if (!this.accepting) {
          rpc.send({ type: "refused", reason: "this job manager does not lead (a standby): register with the leader" });
          return;
        }
        tm = { id: m.id, host: m.host, slots: m.slots, pid: m.pid, hardware: m.hardware, rpc, registeredAt: Date.now(), lastHeartbeat: Date.now(), used: new Set() };
        rpc.send({ type: "registered", heartbeatIntervalMs: this.o.heartbeatIntervalMs, heartbeatTimeoutMs: this.o.heartbeatTimeoutMs });
        this.log.info({ taskManager: m.id }, `task manager ${m.id} registered from ${rpc.socket.remoteAddress} with ${m.slots} slot${m.slots === 1 ? "" : "s"} (host ${m.host}, pid ${m.pid})`);
        this.pool.add(tm);
        return;
      }
      if (!tm) return;
      this.receive(tm, m);
    });
    rpc.onClose((error) => {
      this.connections.delete(rpc);
      if (tm) this.lost(tm, error ? `its connection failed: ${error.message}` : "its connection closed");
    });
  }

  private receive(tm: RegisteredTaskManager, m: FromTaskManager): void {
    switch (m.type) {
      case "heartbeat":
        tm.lastHeartbeat = Date.now();
        if (m.freeMemory !== undefined) tm.hardware = { ...tm.hardware, freeMemory: m.freeMemory };
        tm.rpc.send({ type: "heartbeat" });
        return;
      case "fetch-jar": {
        const id = `${m.jar}.${m.ext}`;
        this.jars.read(id).then(
          (bytes) => tm.rpc.send({ type: "jar", jar: m.jar, bytes }),
          (e: Error) => tm.rpc.send({ type: "jar", jar: m.jar, bytes: null, error: e.message }),
        );
        return;
      }
      case "from-worker":
        return this.clusterJobs.get(m.job)?.fromWorker(tm, m.index, m.payload);
      case "worker-died": {
        const error = new Error(m.message);
        if (m.stack) error.stack = m.stack;
        return this.clusterJobs.get(m.job)?.workerDied(tm, m.index, error);
      }
      case "start-failed":
        return this.clusterJobs.get(m.job)?.startFailed(tm, m.indices, m.message);
      case "register":
        return;
    }
  }

  private checkHeartbeats(): void {
    const now = Date.now();
    for (const tm of this.pool.taskManagers)
      if (now - tm.lastHeartbeat > this.o.heartbeatTimeoutMs) this.lost(tm, `no heartbeat for ${now - tm.lastHeartbeat} ms (heartbeat.timeout ${this.o.heartbeatTimeoutMs} ms)`);
  }

  /** A task manager is gone: its slots leave the pool and the jobs with workers on it fail over. */
  private lost(tm: RegisteredTaskManager, reason: string): void {
    if (!this.pool.remove(tm.id)) return;
    this.log.warn({ taskManager: tm.id }, `task manager ${tm.id} lost: ${reason}`);
    tm.rpc.close();
    for (const job of [...this.clusterJobs.values()]) job.taskManagerLost(tm, reason);
  }
}
