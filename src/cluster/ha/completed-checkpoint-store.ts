/**
 * The completed checkpoints of one job in etcd (Flink's
 * `CompletedCheckpointStore` on Kubernetes or ZooKeeper): small handles — a
 * checkpoint id and a pointer to its metadata in checkpoint storage — never
 * the state itself. A checkpoint is complete when its handle is committed
 * here (by a fenced transaction of the leader), which gives object stores,
 * that have no atomic rename, an atomic completion.
 */
import type { IKeyValue } from "etcd3";
import type { EtcdClient } from "./etcd-client.ts";
import type { HaKeys } from "./ha-keys.ts";
import type { Leadership } from "./leadership.ts";

/** What etcd holds of a completed checkpoint. */
export interface CheckpointHandle {
  readonly checkpointId: number;
  /** Where its metadata is in checkpoint storage: the checkpoint's directory (`<state.checkpoints.dir>/chk-7`, later an `s3://` prefix). */
  readonly pointer: string;
  /** When it completed (coordinator time, milliseconds since the epoch). */
  readonly completedAt: number;
}

/**
 * The completed checkpoints of job `jobId`, the newest `retained` of them
 * (`execution.checkpointing.num-retained`); writes are fenced by `leadership`.
 *
 * @example
 * ```ts
 * const store = new EtcdCompletedCheckpointStore(client, keys, jobId, leadership, 1);
 * const subsumed = await store.add({ checkpointId: 7, pointer: "/ckpt/job/chk-7", completedAt: Date.now() });
 * for (const old of subsumed) await deleteCheckpointData(old.pointer); // no longer referenced
 * const latest = await store.latest(); // what a new leader restores from
 * ```
 */
export class EtcdCompletedCheckpointStore {
  constructor(
    private readonly client: EtcdClient,
    private readonly keys: HaKeys,
    private readonly jobId: string,
    private readonly leadership: Leadership,
    /** How many completed checkpoints are kept (at least 1). */
    private readonly retained: number,
  ) {
    if (!Number.isSafeInteger(retained) || retained < 1) throw new RangeError(`checkpoints retained is a whole number ≥ 1, not ${retained}`);
  }

  /**
   * Commits `handle` (the checkpoint is complete once this resolves) and, in
   * the same transaction, removes the handles beyond the newest `retained`;
   * resolves with those (oldest first): their data in storage may go, unless
   * a retained checkpoint shares it. Adds run one at a time (as the
   * coordinator stores checkpoints): the retention is decided from a list read first.
   *
   * @throws {FencingError} when the leadership is over: nothing was added or removed.
   * @throws {Error} when the checkpoint is not newer than every stored one.
   */
  async add(handle: CheckpointHandle): Promise<CheckpointHandle[]> {
    const stored = await this.list();
    const newest = stored.at(-1);
    if (newest !== undefined && newest.checkpointId >= handle.checkpointId) {
      throw new Error(`checkpoint ${handle.checkpointId} of job ${this.jobId} is not newer than its completed checkpoint ${newest.checkpointId}`);
    }
    const subsumed = stored.slice(0, Math.max(0, stored.length + 1 - this.retained));
    const key = this.keys.checkpoint(this.jobId, handle.checkpointId);
    const result = await this.leadership.commit({
      operation: `add checkpoint ${handle.checkpointId} of job ${this.jobId}`,
      compares: [[key, "Create", "==", 0]],
      then: [this.client.put(key).value(JSON.stringify(handle)), ...subsumed.map((h) => this.client.delete().key(this.keys.checkpoint(this.jobId, h.checkpointId)))],
    });
    if (!result.succeeded) throw new Error(`checkpoint ${handle.checkpointId} of job ${this.jobId} is already in the store`);
    return subsumed;
  }

  /** The stored handles, oldest first. */
  async list(): Promise<CheckpointHandle[]> {
    const res = await this.client.getAll().prefix(this.keys.checkpoints(this.jobId)).sort("Key", "Ascend").exec();
    return res.kvs.map(handleOf);
  }

  /** The newest stored handle, or null when there is none (the job has not completed a checkpoint, or it is a new job). */
  async latest(): Promise<CheckpointHandle | null> {
    const res = await this.client.getAll().prefix(this.keys.checkpoints(this.jobId)).sort("Key", "Descend").limit(1).exec();
    const kv = res.kvs[0];
    return kv === undefined ? null : handleOf(kv);
  }

  /**
   * Removes one handle (a checkpoint found damaged, say).
   *
   * @throws {FencingError} when the leadership is over.
   */
  async remove(checkpointId: number): Promise<void> {
    await this.leadership.commit({
      operation: `remove checkpoint ${checkpointId} of job ${this.jobId}`,
      then: [this.client.delete().key(this.keys.checkpoint(this.jobId, checkpointId))],
    });
  }

  /**
   * Removes every handle of the job (it reached a globally terminal state); resolves with them, oldest first.
   *
   * @throws {FencingError} when the leadership is over.
   */
  async removeAll(): Promise<CheckpointHandle[]> {
    const stored = await this.list();
    await this.leadership.commit({
      operation: `remove the checkpoints of job ${this.jobId}`,
      then: [this.client.delete().prefix(this.keys.checkpoints(this.jobId))],
    });
    return stored;
  }
}

function handleOf(kv: IKeyValue): CheckpointHandle {
  const { checkpointId, pointer, completedAt } = JSON.parse(kv.value.toString("utf8")) as CheckpointHandle;
  return { checkpointId, pointer, completedAt };
}
