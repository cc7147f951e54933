/**
 * The writer of the JDBC sink without transactions across batches (Flink's `JdbcOutputFormat`): rows are
 * written in batches (by size, and by the batch interval), each batch atomically; a batch that fails with a
 * transient error (a lost connection, a server restarting, a serialization failure) is tried again on a
 * new connection after a back-off of 1 s × the attempt, up to `maxRetries` times; any other error fails
 * the job at once. At a checkpoint barrier (at-least-once) and at the end every row is written: after a
 * failure the job replays the rows since the last checkpoint, so an upsert statement gives the exact table.
 */
import type * as Pg from "pg";
import type { SinkContext, SinkWriter } from "../../core/sink.ts";
import type { TimerHandle } from "../../util/clock.ts";
import { runSteps, type JdbcWork } from "./jdbc-batch.ts";
import { JdbcBatchPump } from "./jdbc-batch-pump.ts";
import type { JdbcSinkSettings } from "./jdbc-sink-settings.ts";
import { JdbcSinkError } from "./jdbc-sink-errors.ts";
import { connect } from "./postgres-connect.ts";
import { errorCode, isTransientPostgresError } from "./postgres-errors.ts";

/** Writes one subtask's records in batches, with retries. */
export class JdbcWriter<T> implements SinkWriter<T> {
  private readonly pump: JdbcBatchPump<T>;
  private readonly where: string;
  private client: Pg.Client | undefined;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly settings: JdbcSinkSettings<T>,
    private readonly ctx: SinkContext,
  ) {
    this.where = `${settings.name} '${ctx.operatorUid}' subtask ${ctx.subtaskIndex + 1}/${ctx.parallelism} (${settings.connection.describe()})`;
    this.pump = new JdbcBatchPump(settings.batch(), settings.execution.batchSize, (work) => this.writeBatch(work));
  }

  /** Connects and checks the statements (unknown table or column) before the first record. */
  async open(): Promise<void> {
    const client = await this.connection();
    try {
      await this.pump.batch.check(client);
    } catch (e) {
      throw errorCode(e) === undefined ? e : new JdbcSinkError(this.where, this.pump.batch.describe(), e);
    }
  }

  write(value: T): void {
    this.pump.add(value);
    const interval = this.settings.execution.batchIntervalMs;
    if (interval > 0 && this.timer === undefined && this.pump.batch.size > 0) {
      this.timer = this.ctx.clock.setTimeout(() => {
        this.timer = undefined;
        this.pump.send();
      }, interval);
    }
  }

  blocked(): Promise<void> | undefined {
    return this.pump.blocked();
  }

  /** At-least-once: the barrier waits until every row so far is written. */
  flush(): Promise<void> | undefined {
    return this.settings.guarantee === "none" ? undefined : this.pump.drained();
  }

  finish(): Promise<void> {
    return this.pump.drained();
  }

  async close(): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    await this.pump.stop();
    this.dropConnection();
  }

  private async connection(): Promise<Pg.Client> {
    this.client ??= await connect(this.settings.connection, { purpose: `weir ${this.settings.name} ${this.ctx.operatorUid}#${this.ctx.subtaskIndex}` });
    return this.client;
  }

  private dropConnection(): void {
    const client = this.client;
    this.client = undefined;
    void client?.end().catch(() => undefined);
  }

  private async writeBatch(work: JdbcWork): Promise<void> {
    const retries = this.settings.execution.maxRetries;
    for (let attempt = 0; ; attempt++) {
      try {
        await runSteps(await this.connection(), work.steps, false);
        return;
      } catch (e) {
        if (!isTransientPostgresError(e) || attempt >= retries) throw new JdbcSinkError(this.where, this.pump.batch.describe(), e, attempt + 1);
        this.dropConnection();
        const backoff = 1000 * attempt;
        this.ctx.logger.warn(`writing ${work.rows} rows failed (${String(e)}), attempt ${attempt + 2} of ${retries + 1} in ${backoff} ms on a new connection`);
        if (backoff > 0) await new Promise<void>((resolve) => this.ctx.clock.setTimeout(resolve, backoff));
      }
    }
  }
}
