/**
 * Leader election of one component (e.g. "jobmanager") among contenders, on
 * one etcd key (Flink's `LeaderElectionService` on Kubernetes or ZooKeeper).
 *
 * A contender grants itself a lease and creates the leader key with it, in a
 * transaction that only succeeds while the key does not exist. The key's
 * value is the leader's address (RPC and REST) for task managers and clients;
 * its create revision is the leader's epoch, the fencing token of every
 * write. The others watch the key and try again when it is deleted — when the
 * leader stops (its lease is revoked) or its lease expires.
 *
 * A leader steps down (`onLeadershipLost`) when etcd says its lease is gone,
 * when a fenced write is refused, or by itself when no keep-alive was
 * acknowledged for a TTL (etcd unreachable): by then a standby may lead.
 * After losing, it contends again with a new lease.
 */
import { randomUUID } from "node:crypto";
import { type Clock, systemClock, type TimerHandle } from "../../util/clock.ts";
import type { Logger } from "../../util/logger.ts";
import { type EtcdClient, revisionNumber } from "./etcd-client.ts";
import type { HaKeys } from "./ha-keys.ts";
import { Leadership } from "./leadership.ts";
import { LeaseKeeper } from "./lease-keeper.ts";

/** Where the leader is reached: what task managers and clients read from the leader key. */
export interface LeaderAddress {
  /** `host:port` of the RPC endpoint (task managers). */
  readonly rpcAddress: string;
  /** `http://host:port` of the REST API (clients, `weir run -m`). */
  readonly restAddress: string;
}

/** Everything a {@link LeaderElection} needs. */
export interface LeaderElectionOptions {
  readonly client: EtcdClient;
  readonly keys: HaKeys;
  /** What is led: one leader key per component. */
  readonly component: string;
  /** Published in the leader key while this contender leads. */
  readonly address: LeaderAddress;
  /** Names this contender in the leader key and in logs; default a random UUID. */
  readonly contenderId?: string;
  /** TTL of the lease (whole seconds): `high-availability.etcd.lease-ttl`. */
  readonly leaseTtlMs: number;
  /** Keep-alives, the local step-down deadline and retry pauses (default: the system clock). */
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** This contender now leads; every write of its term goes through `leadership.commit`. */
  onLeadershipGranted(leadership: Leadership): void;
  /** The term is over (lease lost, deadline passed, write refused, or `stop`): stop acting as leader at once. */
  onLeadershipLost(leadership: Leadership, reason: string): void;
}

/**
 * A contender for the leadership of one component; contends from `start()` until `stop()`.
 *
 * @example
 * ```ts
 * const election = new LeaderElection({
 *   client, keys: new HaKeys("default"), component: "jobmanager",
 *   address: { rpcAddress: "10.0.0.5:6123", restAddress: "http://10.0.0.5:8081" },
 *   leaseTtlMs: 15_000,
 *   onLeadershipGranted: (leadership) => recoverJobs(leadership),
 *   onLeadershipLost: (_leadership, reason) => suspendJobs(reason),
 * });
 * election.start();
 * // …
 * await election.stop(); // a leader revokes its lease: a standby takes over at once
 * ```
 */
export class LeaderElection {
  readonly contenderId: string;
  private readonly clock: Clock;
  private readonly key: string;
  private current: Leadership | undefined;
  private keeper: LeaseKeeper | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Aborted by `stop()`: every wait of the contender ends on it. */
  private readonly stopping = new AbortController();

  constructor(private readonly options: LeaderElectionOptions) {
    this.contenderId = options.contenderId ?? randomUUID();
    this.clock = options.clock ?? systemClock;
    this.key = options.keys.leader(options.component);
  }

  /** The leadership this contender holds now, if any. */
  get leadership(): Leadership | undefined {
    return this.current?.active ? this.current : undefined;
  }

  /** Starts contending (in the background). */
  start(): void {
    if (this.running !== undefined || this.stopped) return;
    this.running = this.contend();
  }

  /** Stops contending; a leader steps down (`onLeadershipLost` with "stopped") and revokes its lease so another takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.lose("the contender stopped");
    this.stopping.abort();
    await this.running;
  }

  private async contend(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.attempt();
      } catch (e) {
        if (this.stopped) break;
        this.options.logger?.warn(`leader election of '${this.options.component}': ${String(e)}; trying again`);
        await this.pause(Math.min(1_000, this.options.leaseTtlMs / 3));
      } finally {
        await this.keeper?.close(true);
        this.keeper = undefined;
      }
    }
  }

  /** One round: grant a lease, try to create the leader key; lead until lost, or wait until the key is deleted. */
  private async attempt(): Promise<void> {
    const { client, component, address } = this.options;
    let leadership: Leadership | undefined;
    let expiredEarly: string | undefined;
    const keeper = await LeaseKeeper.grant({
      client,
      ttlMs: this.options.leaseTtlMs,
      clock: this.clock,
      logger: this.options.logger,
      onExpired: (reason) => (leadership ? leadership.lose(reason) : (expiredEarly = reason)),
    });
    this.keeper = keeper;
    if (this.stopped) return;
    const value = JSON.stringify({ contenderId: this.contenderId, ...address, leaseId: keeper.leaseId });
    const res = await client
      .if(this.key, "Create", "==", 0)
      .then(client.put(this.key).value(value).lease(keeper.leaseId))
      .else(client.get(this.key))
      .commit();
    const revision = revisionNumber(res.header.revision);
    if (!res.succeeded) {
      await keeper.close(true);
      this.keeper = undefined;
      await this.waitForDeletion(revision + 1);
      return;
    }
    leadership = new Leadership(client, component, this.key, revision, this.contenderId);
    if (expiredEarly !== undefined) leadership.lose(expiredEarly);
    if (this.stopped) leadership.lose("the contender stopped");
    this.current = leadership;
    if (!leadership.active) return; // over before it began: nobody was told
    this.options.logger?.info(`${this.contenderId} leads '${component}' with epoch ${revision}`);
    try {
      this.options.onLeadershipGranted(leadership);
    } catch (e) {
      leadership.lose(`onLeadershipGranted failed: ${String(e)}`);
    }
    const reason = await leadership.whenLost;
    this.options.logger?.warn(`${this.contenderId} no longer leads '${component}' (epoch ${revision}): ${reason}`);
    try {
      this.options.onLeadershipLost(leadership, reason);
    } catch (e) {
      this.options.logger?.error(`onLeadershipLost of '${component}' failed: ${String(e)}`);
    }
  }

  /** Resolves when the leader key is deleted at or after `fromRevision`, the watch fails, or the contender stops. */
  private async waitForDeletion(fromRevision: number): Promise<void> {
    const creating = this.options.client.watch().key(this.key).startRevision(String(fromRevision)).create();
    const watcher = await this.untilStopped(creating);
    if (watcher === undefined) {
      void creating.then((w) => w.cancel(), () => {}); // etcd may be unreachable: do not wait for it
      return;
    }
    try {
      await this.untilStopped(
        new Promise<void>((resolve) => {
          watcher.on("delete", () => resolve());
          watcher.on("error", (e) => {
            this.options.logger?.warn(`watching the leader key of '${this.options.component}' failed: ${String(e)}`);
            resolve();
          });
        }),
      );
    } finally {
      void watcher.cancel().catch(() => {});
    }
  }

  private pause(ms: number): Promise<void> {
    let timer: TimerHandle | undefined;
    return this.untilStopped(new Promise<void>((resolve) => (timer = this.clock.setTimeout(resolve, ms)))).finally(() => timer?.cancel());
  }

  /** `promise`'s value, or undefined as soon as the contender stops. */
  private untilStopped<T>(promise: Promise<T>): Promise<T | undefined> {
    const signal = this.stopping.signal;
    if (signal.aborted) return Promise.resolve(undefined);
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<undefined>((resolve) => signal.addEventListener("abort", (onAbort = () => resolve(undefined)), { once: true }));
    return Promise.race([promise, stopped]).finally(() => signal.removeEventListener("abort", onAbort!));
  }
}
