/**
 * Moves a sink's batch to PostgreSQL with one batch in flight: a batch leaves when it holds `batchSize`
 * rows or when asked (`send`: the interval timer, a barrier, the end); while one is in flight the next
 * fills, and the task is held back (`blocked`) once it is full too. A failed batch fails every later call.
 */
import type { JdbcBatch, JdbcWork } from "./jdbc-batch.ts";

export class JdbcBatchPump<T> {
  private running: Promise<void> | undefined;
  private failure: Error | undefined;
  private stopped = false;
  /** A send was asked while a batch was in flight: the rows leave right after it. */
  private sendNext = false;

  constructor(
    readonly batch: JdbcBatch<T>,
    private readonly batchSize: number,
    private readonly run: (work: JdbcWork) => Promise<void>,
  ) {}

  /** Adds a record; a full batch leaves at once (or when the one in flight is done). */
  add(value: T): void {
    if (this.failure !== undefined) throw this.failure;
    this.batch.add(value);
    if (this.batch.size >= this.batchSize) this.send();
  }

  /** Undefined while the next batch is not full; else resolves when the batch in flight is done. */
  blocked(): Promise<void> | undefined {
    if (this.running === undefined || this.batch.size < this.batchSize) return undefined;
    return this.running.catch(() => undefined);
  }

  /** Sends what waits now (unless a batch is in flight: then it leaves right after). */
  send(): void {
    if (this.running !== undefined) this.sendNext = true;
    if (this.running !== undefined || this.stopped || this.failure !== undefined || this.batch.size === 0) return;
    this.sendNext = false;
    const work = this.batch.take();
    this.running = this.run(work).then(
      () => {
        this.running = undefined;
        if (this.sendNext || this.batch.size >= this.batchSize) this.send();
      },
      (e: unknown) => {
        this.running = undefined;
        this.failure = e instanceof Error ? e : new Error(String(e));
      },
    );
  }

  /** Resolves once every row added so far is written; rejects with the error of a failed batch. */
  async drained(): Promise<void> {
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      if (this.running !== undefined) await this.running;
      else if (this.batch.size > 0 && !this.stopped) this.send();
      else return;
    }
  }

  /** Sends nothing more; resolves once no batch is in flight (its outcome ignored). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }

  /** The error of a failed batch, if any. */
  get failed(): Error | undefined {
    return this.failure;
  }
}
