/**
 * Checkpoint ids reserved ahead in a shared counter — under high availability
 * the job's checkpoint id counter in etcd — so that every id is reserved
 * before its barrier is triggered (as Flink takes each id from its
 * `CheckpointIDCounter` before triggering) while the coordinator, which
 * triggers synchronously, never waits for the counter: a block of ids is
 * reserved before the first is taken, the next block once half of the
 * current one is taken. A new leader reads the counter past every reserved
 * id, so it never numbers a checkpoint with an id an old leader may be using.
 */
import type { CheckpointIdSource } from "./ports.ts";

/** Options of {@link ReservedCheckpointIds.start}. */
export interface ReservedCheckpointIdsOptions {
  /** The first id wanted (above everything in storage and everything used before). */
  readonly from: number;
  /** Ids reserved at a time (at least 2). */
  readonly blockSize: number;
  /**
   * Reserves `count` consecutive ids, none below `from`, in the counter (raised past the last): resolves with the
   * first, rejects when the counter could not be raised (the reservation of a deposed leader is fenced).
   */
  reserve(from: number, count: number): Promise<number>;
  /** Told when a reservation ahead of use failed (it is tried again when the next id is taken). */
  onReserveFailed(error: unknown): void;
}

/**
 * @example
 * ```ts
 * const ids = await ReservedCheckpointIds.start({
 *   from: 8, blockSize: 16,
 *   reserve: (from, count) => jobHa.reserve(from, count), // counter ≥ from + 16 in etcd before 8 is used
 *   onReserveFailed: (e) => log.warn(`could not reserve checkpoint ids: ${e}`),
 * });
 * ids.take(); // 8 (the next block is reserved once 8 ids are taken)
 * ```
 */
export class ReservedCheckpointIds implements CheckpointIdSource {
  /** The ids at hand: `next` up to `end` (exclusive). */
  private next: number;
  private end: number;
  /** The block reserved after the current one, when there is one. */
  private ahead: { readonly first: number; readonly end: number } | undefined;
  /** The reservation under way. */
  private reserving: Promise<void> | undefined;

  /** Reserves the first block; rejects when that reservation does. */
  static async start(options: ReservedCheckpointIdsOptions): Promise<ReservedCheckpointIds> {
    const ids = new ReservedCheckpointIds(options);
    await ids.whenAvailable();
    return ids;
  }

  private constructor(private readonly options: ReservedCheckpointIdsOptions) {
    if (!Number.isSafeInteger(options.blockSize) || options.blockSize < 2) throw new RangeError(`a block of checkpoint ids holds at least 2, not ${options.blockSize}`);
    this.next = this.end = options.from;
  }

  take(): number | undefined {
    if (this.next >= this.end && this.ahead !== undefined) {
      ({ first: this.next, end: this.end } = this.ahead);
      this.ahead = undefined;
    }
    if (this.next >= this.end) {
      this.reserveAhead().catch(() => {}); // told through onReserveFailed
      return undefined;
    }
    const id = this.next++;
    if (this.end - this.next <= this.options.blockSize / 2) this.reserveAhead().catch(() => {});
    return id;
  }

  whenAvailable(): Promise<void> {
    return this.next < this.end || this.ahead !== undefined ? Promise.resolve() : this.reserveAhead();
  }

  /** Reserves the block after everything reserved so far, unless one is reserved or under way. */
  private reserveAhead(): Promise<void> {
    if (this.ahead !== undefined) return Promise.resolve();
    this.reserving ??= this.options.reserve(this.end, this.options.blockSize).then(
      (first) => {
        this.reserving = undefined;
        this.ahead = { first, end: first + this.options.blockSize };
      },
      (error: unknown) => {
        this.reserving = undefined;
        this.options.onReserveFailed(error);
        throw error;
      },
    );
    return this.reserving;
  }
}
