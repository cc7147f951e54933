/**
 * The task managers registered with the job manager and their task slots.
 * A job asks for one slot per worker index of its plan; a request that
 * cannot be granted waits until task managers register or slots are freed,
 * in the order the requests came. Slots of one request are spread round-robin
 * over the task managers with free slots, the one with the most free first.
 */
import type { RpcConnection } from "./rpc-connection.ts";
import type { FromTaskManager, TaskManagerHardware, ToTaskManager } from "./rpc-messages.ts";

/** A registered task manager. */
export interface RegisteredTaskManager {
  readonly id: string;
  /** Address other task managers reach its workers at (`taskmanager.host`). */
  readonly host: string;
  readonly slots: number;
  readonly pid: number;
  /** Its host's cores and memory (free memory as of its last heartbeat). */
  hardware: TaskManagerHardware;
  readonly rpc: RpcConnection<ToTaskManager, FromTaskManager>;
  readonly registeredAt: number;
  lastHeartbeat: number;
  /** Slots in use: the job and worker index each runs. */
  readonly used: Set<string>;
}

/** A granted slot: worker `index` of a job on `taskManager`. */
export interface SlotGrant {
  readonly index: number;
  readonly taskManager: RegisteredTaskManager;
}

interface SlotRequest {
  readonly job: string;
  readonly indices: readonly number[];
  readonly grant: (grants: SlotGrant[]) => void;
}

const slotKey = (job: string, index: number) => `${job}#${index}`;

/**
 * @example
 * ```ts
 * const pool = new SlotPool();
 * pool.add(taskManager);
 * const withdraw = pool.request("job-1", [0, 1], (grants) => start(grants));
 * ```
 */
export class SlotPool {
  private readonly managers = new Map<string, RegisteredTaskManager>();
  private readonly requests: SlotRequest[] = [];

  get taskManagers(): RegisteredTaskManager[] {
    return [...this.managers.values()];
  }

  freeSlots(tm: RegisteredTaskManager): number {
    return tm.slots - tm.used.size;
  }

  /** Free slots on every task manager. */
  get totalFree(): number {
    return this.taskManagers.reduce((n, tm) => n + this.freeSlots(tm), 0);
  }

  add(tm: RegisteredTaskManager): void {
    this.managers.set(tm.id, tm);
    this.serve();
  }

  /** Removes a task manager (lost): its slots are gone with it. */
  remove(id: string): RegisteredTaskManager | undefined {
    const tm = this.managers.get(id);
    this.managers.delete(id);
    return tm;
  }

  /**
   * Asks for a slot for each of `indices` of `job`; `grant` is called once they are all free (maybe at once).
   * Returns a function that withdraws the request if it is still waiting.
   */
  request(job: string, indices: readonly number[], grant: (grants: SlotGrant[]) => void): () => void {
    const r: SlotRequest = { job, indices, grant };
    this.requests.push(r);
    this.serve();
    return () => {
      const i = this.requests.indexOf(r);
      if (i >= 0) this.requests.splice(i, 1);
    };
  }

  /** Frees the slots of `job` on `tm` (all of the job's there when `indices` is absent). */
  release(job: string, tm: RegisteredTaskManager, indices?: readonly number[]): void {
    for (const key of [...tm.used]) if (key.startsWith(`${job}#`) && (!indices || indices.some((i) => key === slotKey(job, i)))) tm.used.delete(key);
    this.serve();
  }

  /** Grants the waiting requests that fit now, oldest first (a later one may fit when an earlier does not). */
  private serve(): void {
    for (const r of [...this.requests]) {
      const grants = this.place(r);
      if (!grants) continue;
      this.requests.splice(this.requests.indexOf(r), 1);
      for (const g of grants) g.taskManager.used.add(slotKey(r.job, g.index));
      r.grant(grants);
    }
  }

  private place(r: SlotRequest): SlotGrant[] | undefined {
    const free = this.taskManagers.map((tm) => ({ tm, free: this.freeSlots(tm) })).filter((f) => f.free > 0);
    if (free.reduce((n, f) => n + f.free, 0) < r.indices.length) return undefined;
    // round-robin over the task managers (the one with the most free slots first), skipping full ones
    const order = free.sort((a, b) => b.free - a.free);
    const grants: SlotGrant[] = [];
    let k = 0;
    for (const index of r.indices) {
      while (order[k % order.length]!.free === 0) k++;
      const pick = order[k++ % order.length]!;
      pick.free--;
      grants.push({ index, taskManager: pick.tm });
    }
    return grants;
  }
}
