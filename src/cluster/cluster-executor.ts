/**
 * The executor of a job submitted to a cluster's job manager: its job master
 * (in the job manager) drives one worker thread per worker index of the plan,
 * each in a task slot of a task-manager process. The worker protocol is
 * relayed over the task managers' RPC connections; deployments wait until
 * every worker has a slot (the job waits for slots, or fails its attempt after
 * `slot.request.timeout`); a worker whose task manager is lost is placed on a
 * free slot again before the next attempt is deployed.
 */
import { randomBytes } from "node:crypto";
import { deserialize, serialize } from "node:v8";
import type { Executor } from "../deploy/executor.ts";
import { WorkerDriver } from "../deploy/worker/worker-driver.ts";
import type { FromWorker, ToWorker } from "../deploy/worker/worker-protocol.ts";
import type { TaskManagerEvents, TaskManagerHandle } from "../runtime/execution/deployment.ts";
import { getLogger } from "../util/logger.ts";
import type { StartWorkers } from "./rpc-messages.ts";
import type { RegisteredTaskManager, SlotGrant, SlotPool } from "./slot-pool.ts";

/** What the job manager gives the executor of one job. */
export interface ClusterJobSettings {
  /** What the task managers import, and the job module's arguments and configuration there. */
  readonly program: Pick<StartWorkers, "module" | "args" | "configuration" | "fingerprint" | "jobName">;
  /** Worker indices (= task slots) of the plan. */
  readonly workers: number;
  readonly slotRequestTimeoutMs: number;
}

/** The job manager's side of the executors: the slots, and the routing of task managers' messages to jobs. */
export interface ClusterJobs {
  readonly pool: SlotPool;
  /** Registers the job's receiver of its workers' messages (under `job`), until `remove`. */
  add(job: string, receiver: ClusterJob): void;
  remove(job: string): void;
}

/**
 * @example
 * ```ts
 * const executor = clusterExecutor(jobs, { program, workers: 4, slotRequestTimeoutMs: 300_000 });
 * ```
 */
export function clusterExecutor(jobs: ClusterJobs, s: ClusterJobSettings): Executor {
  let job: ClusterJob | undefined;
  return {
    kind: "cluster",
    threads: s.workers,
    taskManagers: (plan, events) => {
      job = new ClusterJob(jobs, s, plan.channels.length, events);
      return job.handles;
    },
    waiting: () => job?.waitingFor(),
  };
}

/** The workers of one job on the cluster's task managers. */
export class ClusterJob {
  /** Key of the job's workers on the task managers. */
  readonly key = randomBytes(8).toString("hex");
  readonly handles: TaskManagerHandle[];
  private readonly driver: WorkerDriver;
  /** Where each placed worker runs. */
  private readonly placed = new Map<number, RegisteredTaskManager>();
  /** Deployments that wait for slots, by worker index. */
  private readonly queued = new Map<number, () => void>();
  /** The pending slot request: withdraws it. */
  private withdraw: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private waitingSince = 0;
  private shutDown = 0;
  /** The secret of the TCP links between the job's workers. */
  private readonly token = randomBytes(16).toString("hex");
  /** Where each ready worker listens for TCP links. */
  private readonly dataAddresses = new Map<number, { host: string; port: number }>();

  constructor(
    private readonly jobs: ClusterJobs,
    private readonly s: ClusterJobSettings,
    private readonly channels: number,
    events: TaskManagerEvents,
  ) {
    const indices = Array.from({ length: s.workers }, (_, i) => i);
    this.driver = new WorkerDriver(indices, events, {
      post: (i, m) => this.post(i, m),
      whenDeployable: (i, crashed, _, deploy) => this.whenDeployable(i, crashed, deploy),
      blocked: () => ({ forMs: 0, activeTask: undefined }),
      shutdown: async (i) => this.shutdown(i),
    });
    this.handles = indices.map((i) => this.driver.handle(i));
    jobs.add(this.key, this);
  }

  /** What the job waits for, while it waits for slots. */
  waitingFor(): string | undefined {
    if (!this.withdraw) return undefined;
    const need = this.s.workers - this.placed.size;
    const managers = this.jobs.pool.taskManagers;
    return (
      `waiting for ${need} task slot${need === 1 ? "" : "s"} (${this.jobs.pool.totalFree} free on ${managers.length} task manager${managers.length === 1 ? "" : "s"}; ` +
      `slot.request.timeout ${Math.round(this.s.slotRequestTimeoutMs / 1000)} s)`
    );
  }

  /** A message of worker `index` from its task manager (v8-serialized `FromWorker`). */
  fromWorker(tm: RegisteredTaskManager, index: number, payload: Uint8Array): void {
    if (this.placed.get(index) !== tm) return;
    const m = deserialize(payload) as FromWorker;
    if (m.type === "ready" && m.dataPort !== undefined) this.introduce(index, tm, m.dataPort);
    this.driver.receive(index, m);
  }

  /**
   * Worker `index` listens for TCP links at `port` on its task manager: tells it where the ready workers of the
   * other task managers listen, and them where it does (the lower index connects; a worker that comes again,
   * here or elsewhere, replaces its peers' connections to it).
   */
  private introduce(index: number, tm: RegisteredTaskManager, port: number): void {
    const self = { host: tm.host, port };
    this.dataAddresses.set(index, self);
    const others: Record<number, { host: string; port: number }> = {};
    for (const [j, address] of this.dataAddresses) {
      const where = this.placed.get(j);
      if (j === index || !where || where === tm) continue;
      others[j] = address;
      this.post(j, { type: "tcp-peers", peers: { [index]: self }, started: true });
    }
    this.post(index, { type: "tcp-peers", peers: others });
  }

  /** Worker `index` died on its task manager. */
  workerDied(tm: RegisteredTaskManager, index: number, error: Error): void {
    if (this.placed.get(index) === tm) this.driver.crashed(index, error, `worker ${index} on task manager ${tm.id}`);
  }

  /** The task manager could not start workers of this job (e.g. no bundle): the job cannot run. */
  startFailed(tm: RegisteredTaskManager, indices: readonly number[], message: string): void {
    const index = indices.find((i) => this.placed.get(i) === tm);
    if (index !== undefined) this.driver.receive(index, { type: "fatal", error: { name: "Error", message: `task manager ${tm.id}: ${message}` } });
  }

  /** A task manager was lost: its workers fail their attempt and are placed on free slots again. */
  taskManagerLost(tm: RegisteredTaskManager, reason: string): void {
    for (const [index, where] of [...this.placed]) {
      if (where !== tm) continue;
      this.placed.delete(index);
      this.dataAddresses.delete(index);
      this.driver.crashed(index, new Error(`task manager ${tm.id} was lost (${reason})`), `worker ${index}`);
    }
  }

  private post(index: number, m: ToWorker): void {
    const tm = this.placed.get(index);
    if (m.type === "cancel" && (!tm || this.queued.has(index))) {
      // never deployed: nothing to cancel
      this.queued.delete(index);
      queueMicrotask(() => this.driver.receive(index, { type: "cancelled", attempt: m.attempt, positions: {} }));
      return;
    }
    tm?.rpc.send({ type: "to-worker", job: this.key, index, payload: serialize(m) });
  }

  private whenDeployable(index: number, crashed: ReadonlySet<number>, deploy: () => void): void {
    // workers that died on a live task manager start again there first (their peers get new links before deployments)
    const restart = new Map<RegisteredTaskManager, number[]>();
    for (const i of crashed) {
      const tm = this.placed.get(i);
      if (tm) restart.set(tm, [...(restart.get(tm) ?? []), i]);
    }
    for (const [tm, indices] of restart) this.startWorkers(tm, indices);
    const unplaced = Array.from({ length: this.s.workers }, (_, i) => i).filter((i) => !this.placed.has(i));
    if (unplaced.length === 0 && !this.withdraw) return deploy();
    this.queued.set(index, deploy);
    if (!this.withdraw && unplaced.length > 0) this.requestSlots(unplaced);
  }

  private requestSlots(indices: number[]): void {
    const log = getLogger().child({ component: "cluster" });
    this.waitingSince = Date.now();
    let granted = false;
    const withdraw = this.jobs.pool.request(this.key, indices, (grants) => {
      granted = true;
      this.withdraw = undefined;
      clearTimeout(this.timer);
      this.placeOn(grants);
    });
    // granted at once (within the call), or later
    if (granted) return;
    this.withdraw = withdraw;
    log.info(`job '${this.s.program.jobName}' is ${this.waitingFor()}`);
    this.timer = setTimeout(() => {
      this.withdraw?.();
      this.withdraw = undefined;
      const waited = Math.round((Date.now() - this.waitingSince) / 1000);
      const error = new Error(
        `could not get ${indices.length} task slot${indices.length === 1 ? "" : "s"} within slot.request.timeout (${waited} s): ` +
          `${this.jobs.pool.totalFree} free on ${this.jobs.pool.taskManagers.length} task manager(s)`,
      );
      error.name = "NoResourceAvailableException";
      this.queued.clear();
      this.driver.fail(indices[0]!, error);
    }, this.s.slotRequestTimeoutMs);
    this.timer.unref();
  }

  private placeOn(grants: SlotGrant[]): void {
    const byTm = new Map<RegisteredTaskManager, number[]>();
    for (const g of grants) {
      this.placed.set(g.index, g.taskManager);
      byTm.set(g.taskManager, [...(byTm.get(g.taskManager) ?? []), g.index]);
    }
    for (const [tm, indices] of byTm) this.startWorkers(tm, indices);
    getLogger()
      .child({ component: "cluster" })
      .info(`job '${this.s.program.jobName}': ${[...byTm].map(([tm, i]) => `workers ${i.join(", ")} on task manager ${tm.id}`).join("; ")}`);
    const deploys = [...this.queued].sort(([a], [b]) => a - b);
    this.queued.clear();
    for (const [, deploy] of deploys) deploy();
  }

  private startWorkers(tm: RegisteredTaskManager, indices: number[]): void {
    tm.rpc.send({ type: "start-workers", job: this.key, indices, workers: this.s.workers, channels: this.channels, token: this.token, ...this.s.program });
    for (const i of indices) {
      this.dataAddresses.delete(i);
      this.driver.restarted(i);
    }
  }

  private shutdown(index: number): void {
    this.queued.delete(index);
    const tm = this.placed.get(index);
    if (tm) {
      tm.rpc.send({ type: "stop-workers", job: this.key, indices: [index] });
      this.jobs.pool.release(this.key, tm, [index]);
    }
    if (++this.shutDown < this.s.workers) return;
    this.withdraw?.();
    this.withdraw = undefined;
    clearTimeout(this.timer);
    this.jobs.remove(this.key);
  }
}
