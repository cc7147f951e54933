/**
 * The checkpoint id counter of one job in etcd (Flink's
 * `CheckpointIDCounter`): the next id to use, raised by compare-and-swap in
 * fenced transactions, so ids are never reused — not across failovers and not
 * across leaders — and a deposed leader cannot take one.
 */
import type { IKeyValue } from "etcd3";
import { type EtcdClient, revisionNumber } from "./etcd-client.ts";
import type { HaKeys } from "./ha-keys.ts";
import type { Leadership } from "./leadership.ts";

/** The first checkpoint id of a job (Flink's `INITIAL_CHECKPOINT_ID`). */
export const INITIAL_CHECKPOINT_ID = 1;

/** The counter as read: the next id, and the revision that last changed it (0: no counter yet). */
interface CounterState {
  readonly next: number;
  readonly modRevision: number;
}

/** A counter raised concurrently this many times in a row gives up (only one leader writes, so this means a bug). */
const MAX_CONFLICTS = 100;

/**
 * The next checkpoint id of job `jobId`; writes are fenced by `leadership`.
 *
 * @example
 * ```ts
 * const counter = new CheckpointIdCounter(client, keys, jobId, leadership);
 * await counter.advanceTo(highestIdInStorage + 1); // after a restore from storage
 * const id = await counter.getAndIncrement();      // for every checkpoint triggered
 * const first = await counter.reserve(16, id + 1); // or ids first … first + 15 at once, ahead of use
 * ```
 */
export class CheckpointIdCounter {
  private readonly key: string;

  constructor(
    private readonly client: EtcdClient,
    keys: HaKeys,
    private readonly jobId: string,
    private readonly leadership: Leadership,
  ) {
    this.key = keys.checkpointCounter(jobId);
  }

  /** The id `getAndIncrement` would return now. */
  async get(): Promise<number> {
    return (await this.read()).next;
  }

  /**
   * Takes the next id: returns it and raises the counter past it.
   *
   * @throws {FencingError} when the leadership is over (the id is not taken).
   */
  getAndIncrement(): Promise<number> {
    return this.swap("take a checkpoint id", (next) => next + 1).then(({ before }) => before);
  }

  /**
   * Takes `count` consecutive ids at once, none below `from`: returns the first
   * (the counter, or `from` when that is higher) and raises the counter past the last.
   *
   * @throws {FencingError} when the leadership is over (no id is taken).
   */
  reserve(count: number, from = INITIAL_CHECKPOINT_ID): Promise<number> {
    if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`ids are reserved by a whole number ≥ 1, not ${count}`);
    if (!Number.isSafeInteger(from) || from < INITIAL_CHECKPOINT_ID) throw new RangeError(`a checkpoint id is a whole number ≥ 1, not ${from}`);
    return this.swap(`reserve ${count} checkpoint ids from ${from}`, (next) => Math.max(next, from) + count).then(({ after }) => after - count);
  }

  /**
   * Raises the counter so the next id is at least `next` (never lowers it), e.g.
   * above the ids a restored job finds in its checkpoint storage; returns the next id.
   * A counter already there is left alone (nothing is written).
   *
   * @throws {FencingError} when the counter must be raised and the leadership is over.
   */
  advanceTo(next: number): Promise<number> {
    if (!Number.isSafeInteger(next) || next < INITIAL_CHECKPOINT_ID) throw new RangeError(`a checkpoint id is a whole number ≥ 1, not ${next}`);
    return this.swap(`raise the checkpoint id counter to ${next}`, (current) => Math.max(current, next)).then(({ after }) => after);
  }

  /**
   * Deletes the counter (the job reached a globally terminal state: its ids are never needed again).
   *
   * @throws {FencingError} when the leadership is over.
   */
  async remove(): Promise<void> {
    await this.leadership.commit({ operation: `remove the checkpoint id counter of job ${this.jobId}`, then: [this.client.delete().key(this.key)] });
  }

  private async read(): Promise<CounterState> {
    return this.stateOf((await this.client.get(this.key).exec()).kvs[0]);
  }

  private stateOf(kv: IKeyValue | undefined): CounterState {
    if (kv === undefined) return { next: INITIAL_CHECKPOINT_ID, modRevision: 0 };
    const text = kv.value.toString("utf8");
    const next = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(next)) throw new Error(`the checkpoint id counter of job ${this.jobId} holds '${text}', not a checkpoint id`);
    return { next, modRevision: revisionNumber(kv.mod_revision) };
  }

  /** Compare-and-swap: writes `update(current)` if the counter did not change since it was read (and the fence holds). */
  private async swap(operation: string, update: (next: number) => number): Promise<{ before: number; after: number }> {
    let state = await this.read();
    for (let conflicts = 0; conflicts < MAX_CONFLICTS; conflicts++) {
      const after = update(state.next);
      if (after === state.next) return { before: state.next, after };
      const result = await this.leadership.commit({
        operation: `${operation} of job ${this.jobId}`,
        compares: [[this.key, "Mod", "==", state.modRevision]],
        then: [this.client.put(this.key).value(String(after))],
        otherwise: [this.client.get(this.key)],
      });
      if (result.succeeded) return { before: state.next, after };
      state = this.stateOf(result.responses[0]?.response_range.kvs[0]);
    }
    throw new Error(`${operation} of job ${this.jobId}: the counter changed ${MAX_CONFLICTS} times in a row while being raised`);
  }
}
