/**
 * Moves a sink's batch to PostgreSQL with one batch in flight: a batch leaves when it holds `batchSize`
 * rows or when asked (`send`: the interval timer, a barrier, the end); while one is in flight the next
 * fills, and the task is held back (`blocked`) once it is full too. A failed batch fails every later call.
 *
 * An optional gate holds batches back while it returns a promise (the exactly-once sink: until the
 * subtask's earlier prepared transactions are committed, whose row locks would block the statements);
 * `drained({ force: true })` sends through it.
 */
import type { JdbcBatch, JdbcWork } from "./jdbc-batch.ts";

export class JdbcBatchPump<T> {
  private running: Promise<void> | undefined;
  private failure: Error | undefined;
  private stopped = false;
  /** A send was asked while a batch was in flight or the gate was closed: the rows leave right after. */
  private sendNext = false;
  /** The closed gate being waited for. */
  private gated: Promise<void> | undefined;

  constructor(
    readonly batch: JdbcBatch<T>,
    private readonly batchSize: number,
    private readonly run: (work: JdbcWork) => Promise<void>,
    private readonly gate: () => Promise<void> | undefined = () => undefined,
  ) {}

  /** Adds a record; a full batch leaves at once (or when the one in flight is done). */
  add(value: T): void {
    if (this.failure !== undefined) throw this.failure;
    this.batch.add(value);
    if (this.batch.size >= this.batchSize) this.send();
  }

  /** Undefined while the next batch is not full; else resolves when the batch in flight (or the gate) is done. */
  blocked(): Promise<void> | undefined {
    if (this.batch.size < this.batchSize) return undefined;
    return (this.running ?? this.gated)?.catch(() => undefined);
  }

  /** Sends what waits now (unless a batch is in flight or the gate is closed: then it leaves right after). */
  send(force = false): void {
    if (this.running !== undefined || this.gated !== undefined) this.sendNext = true;
    if (this.running !== undefined || this.stopped || this.failure !== undefined || this.batch.size === 0) return;
    const closed = force ? undefined : this.gate();
    if (closed !== undefined) {
      if (this.gated === undefined) {
        this.sendNext = true;
        this.gated = closed.then(() => {
          this.gated = undefined;
          if (this.sendNext) this.send();
        });
      }
      return;
    }
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

  /** Resolves once every row added so far is written (with `force`, through a closed gate); rejects with the error of a failed batch. */
  async drained(options: { force?: boolean } = {}): Promise<void> {
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      if (this.running !== undefined) await this.running;
      else if (this.batch.size > 0 && !this.stopped) {
        if (!options.force && this.gated !== undefined) await this.gated;
        else this.send(options.force);
      } else return;
    }
  }

  /** Sends nothing more; resolves once no batch is in flight (its outcome ignored). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }
}
