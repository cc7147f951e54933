/**
 * One etcd lease kept alive by its holder, with a local deadline: the lease
 * is over for its holder when etcd says so, or when no keep-alive was
 * acknowledged for a whole TTL — whether or not etcd can be reached. The
 * deadline is measured from the moment the last acknowledged keep-alive was
 * SENT (etcd renewed the lease no earlier than that), so the holder gives up
 * no later than etcd expires the lease and a standby may take over.
 */
import type { Clock, TimerHandle } from "../../util/clock.ts";
import type { Logger } from "../../util/logger.ts";
import { type EtcdClient, etcdModule } from "./etcd-client.ts";

type Lease = ReturnType<EtcdClient["lease"]>;

/** Everything a {@link LeaseKeeper} needs. */
export interface LeaseKeeperOptions {
  readonly client: EtcdClient;
  /** The lease's TTL, whole seconds in milliseconds. */
  readonly ttlMs: number;
  /** Decides the keep-alive rhythm (a third of the TTL) and the local deadline. */
  readonly clock: Clock;
  /** Called once when the lease is over for its holder (not after `close`), with why. */
  onExpired(reason: string): void;
  readonly logger?: Logger;
}

/**
 * A granted lease, renewed every third of its TTL until it expires or is closed.
 *
 * @example
 * ```ts
 * const keeper = await LeaseKeeper.grant({ client, ttlMs: 15_000, clock: systemClock, onExpired: (why) => stepDown(why) });
 * await client.put("/weir/default/leader/jobmanager").value(address).lease(keeper.leaseId);
 * // …
 * await keeper.close(true); // revoke: the key goes at once
 * ```
 */
export class LeaseKeeper {
  private deadlineAt: number;
  private over = false;
  private inFlight = false;
  private keepAliveTimer: TimerHandle | undefined;
  private deadlineTimer: TimerHandle | undefined;

  private constructor(
    private readonly options: LeaseKeeperOptions,
    private readonly lease: Lease,
    /** etcd's id of the lease (int64 decimal text). */
    readonly leaseId: string,
    grantSentAt: number,
    private readonly isLeaseInvalid: (e: unknown) => boolean,
  ) {
    this.deadlineAt = grantSentAt + options.ttlMs;
    this.armDeadline();
    this.scheduleKeepAlive();
  }

  /**
   * Grants a lease of `ttlMs` and starts keeping it alive; rejects when etcd does not grant it.
   *
   * @throws {RangeError} when `ttlMs` is not a whole number of seconds ≥ 1 s.
   */
  static async grant(options: LeaseKeeperOptions): Promise<LeaseKeeper> {
    if (options.ttlMs < 1_000 || options.ttlMs % 1_000 !== 0) throw new RangeError(`a lease TTL is a whole number of seconds ≥ 1 s, not ${options.ttlMs} ms`);
    const { EtcdLeaseInvalidError } = await etcdModule();
    const sentAt = options.clock.now();
    const lease = options.client.lease(options.ttlMs / 1_000, { autoKeepAlive: false });
    lease.on("lost", () => {}); // reported through keepaliveOnce's rejection
    const id = await lease.grant();
    return new LeaseKeeper(options, lease, id, sentAt, (e) => e instanceof EtcdLeaseInvalidError);
  }

  /** The clock time after which the holder must consider the lease gone (if no keep-alive is acknowledged before). */
  get deadline(): number {
    return this.deadlineAt;
  }

  /** Whether the lease is over for its holder (expired or closed). */
  get expired(): boolean {
    return this.over;
  }

  /** Stops keeping the lease alive; with `revoke`, tells etcd to end it now (its keys go at once; best effort). */
  async close(revoke: boolean): Promise<void> {
    if (!this.over) this.end();
    if (!revoke) return this.lease.release();
    await this.lease.revoke().catch((e: unknown) => this.options.logger?.debug(`revoking lease ${this.leaseId} failed (it expires by itself): ${String(e)}`));
  }

  private scheduleKeepAlive(): void {
    this.keepAliveTimer = this.options.clock.setTimeout(() => {
      if (this.over) return;
      this.scheduleKeepAlive();
      if (!this.inFlight) void this.keepAlive();
    }, this.options.ttlMs / 3);
  }

  private async keepAlive(): Promise<void> {
    this.inFlight = true;
    const sentAt = this.options.clock.now();
    try {
      const res = await this.lease.keepaliveOnce({ deadline: Date.now() + this.options.ttlMs / 3 });
      if (this.over) return;
      this.deadlineAt = Math.max(this.deadlineAt, sentAt + Number(res.TTL) * 1_000);
    } catch (e) {
      if (this.over) return;
      if (this.isLeaseInvalid(e)) this.expire(`etcd says lease ${this.leaseId} has expired`);
      else this.options.logger?.warn(`keep-alive of lease ${this.leaseId} failed (the lease is given up at its deadline unless one succeeds): ${String(e)}`);
    } finally {
      this.inFlight = false;
    }
  }

  private armDeadline(): void {
    this.deadlineTimer = this.options.clock.setTimeout(() => {
      if (this.over) return;
      if (this.options.clock.now() < this.deadlineAt) return this.armDeadline();
      this.expire(`no keep-alive of lease ${this.leaseId} was acknowledged within its TTL of ${this.options.ttlMs / 1_000} s (etcd unreachable or too slow)`);
    }, this.deadlineAt - this.options.clock.now());
  }

  private expire(reason: string): void {
    this.end();
    this.lease.release();
    this.options.onExpired(reason);
  }

  private end(): void {
    this.over = true;
    this.keepAliveTimer?.cancel();
    this.deadlineTimer?.cancel();
  }
}
