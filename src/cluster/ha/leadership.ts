/**
 * One term of leadership of one contender: its epoch (the create revision of
 * the leader key it created) and whether it still holds. Every write of the
 * leader goes through {@link Leadership.commit}, an etcd transaction that only
 * applies while the leader key still has this epoch's create revision
 * (fencing): a deposed leader's write never lands, even if it does not know
 * yet that it was deposed.
 */
import type { IOperation } from "etcd3";
import { type EtcdClient, revisionNumber } from "./etcd-client.ts";
import { FencingError } from "./fencing-error.ts";

/** A further condition of a fenced write: `[key, target, comparison, value]` as etcd compares (Create and Mod are revisions, 0 when the key does not exist). */
export type FenceCompare = readonly [key: string, target: "Create" | "Mod" | "Version" | "Value", cmp: "==" | "!=" | "<" | ">", value: string | number];

/** A fenced write: the operations to apply when every compare holds, and to read otherwise. */
export interface FencedTransaction {
  /** Says what the write is in a refusal ("add checkpoint 7 of job …"). */
  readonly operation: string;
  readonly compares?: readonly FenceCompare[];
  readonly then: readonly IOperation[];
  /** Read (or written) when a compare of `compares` fails while the fence holds. */
  readonly otherwise?: readonly IOperation[];
}

/** What a fenced transaction did; `responses` are those of `then` or of `otherwise`. */
export interface FencedResult {
  readonly succeeded: boolean;
  readonly responses: readonly import("etcd3").IResponseOp[];
  /** The revision of etcd after the transaction. */
  readonly revision: number;
}

/**
 * The leadership a contender was granted; it ends once (lost or given up) and
 * is never granted again: a contender elected again gets a new one with a
 * higher epoch.
 *
 * @example
 * ```ts
 * const result = await leadership.commit({
 *   operation: "put job 3f…e1",
 *   then: [client.put(keys.jobGraph(jobId)).value(json)],
 * }); // throws FencingError if this leader was deposed
 * ```
 */
export class Leadership {
  private lost: string | undefined;
  private resolveLost!: (reason: string) => void;
  /** Resolves with the reason once the leadership is over. */
  readonly whenLost: Promise<string> = new Promise((resolve) => (this.resolveLost = resolve));

  constructor(
    private readonly client: EtcdClient,
    /** The component led ("jobmanager"). */
    readonly component: string,
    /** The leader key. */
    readonly leaderKey: string,
    /** The create revision of the leader key: higher for every later leader. */
    readonly epoch: number,
    /** Who holds it (the contender's id). */
    readonly contenderId: string,
  ) {}

  /** Whether this contender still considers itself the leader (etcd may know better: writes are fenced). */
  get active(): boolean {
    return this.lost === undefined;
  }

  /** Why the leadership ended, if it did. */
  get lostReason(): string | undefined {
    return this.lost;
  }

  /** Ends the leadership (idempotent): the contender stops acting as leader and writes are refused locally. */
  lose(reason: string): void {
    if (this.lost !== undefined) return;
    this.lost = reason;
    this.resolveLost(reason);
  }

  /**
   * Applies `txn` in one etcd transaction guarded by this epoch: the leader
   * key's create revision must equal {@link Leadership.epoch}. A refusal
   * (locally, or by etcd because another leader holds the key or none does)
   * throws and ends this leadership; a failed further compare resolves with
   * `succeeded: false` and the responses of `otherwise`.
   *
   * @throws {FencingError} when this leadership is over.
   */
  async commit(txn: FencedTransaction): Promise<FencedResult> {
    if (this.lost !== undefined) throw new FencingError(this.component, this.epoch, txn.operation);
    let builder = this.client.if(this.leaderKey, "Create", "==", this.epoch);
    for (const [key, target, cmp, value] of txn.compares ?? []) builder = builder.and(key, target, cmp, value);
    const res = await builder
      .then(...txn.then)
      .else(this.client.get(this.leaderKey), ...(txn.otherwise ?? []))
      .commit();
    const revision = revisionNumber(res.header.revision);
    if (res.succeeded) return { succeeded: true, responses: res.responses, revision };
    const leader = res.responses[0]?.response_range.kvs[0];
    const current = leader === undefined ? null : revisionNumber(leader.create_revision);
    if (current !== this.epoch) {
      const error = new FencingError(this.component, this.epoch, txn.operation, current);
      this.lose(error.message);
      throw error;
    }
    return { succeeded: false, responses: res.responses.slice(1), revision };
  }
}
