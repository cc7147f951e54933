/**
 * How a JDBC sink batches and retries (Flink's `JdbcExecutionOptions`): rows per batch, the longest a row
 * waits in a batch, and how often a batch is tried again after a transient error.
 */
import { JdbcConnectionOptionsError } from "./jdbc-connection-options.ts";

/** Flink's defaults: 5000 rows, no interval, 3 retries. */
export const DEFAULT_BATCH_SIZE = 5000;
export const DEFAULT_MAX_RETRIES = 3;

/**
 * Batching and retries of a JDBC sink.
 *
 * @example
 * ```ts
 * const execution = JdbcExecutionOptions.builder().withBatchSize(1000).withBatchIntervalMs(200).withMaxRetries(5).build();
 * ```
 */
export class JdbcExecutionOptions {
  private constructor(
    /** A batch is written when it holds this many rows (default 5000). */
    readonly batchSize: number,
    /** A batch is written at the latest this many ms after its first row (0, the default: only by size, at checkpoints and at the end). */
    readonly batchIntervalMs: number,
    /** Attempts after the first one for a batch that failed with a transient error (default 3). */
    readonly maxRetries: number,
  ) {}

  /** Flink's `JdbcExecutionOptions.builder()`. */
  static builder(): JdbcExecutionOptionsBuilder {
    return new JdbcExecutionOptionsBuilder();
  }

  /** The defaults (`JdbcExecutionOptions.defaults()` in Flink). */
  static defaults(): JdbcExecutionOptions {
    return new JdbcExecutionOptionsBuilder().build();
  }

  /** @internal Used by the builder. */
  static create(batchSize: number, batchIntervalMs: number, maxRetries: number): JdbcExecutionOptions {
    return new JdbcExecutionOptions(batchSize, batchIntervalMs, maxRetries);
  }
}

/** Builds `JdbcExecutionOptions` (Flink's names). */
export class JdbcExecutionOptionsBuilder {
  private size = DEFAULT_BATCH_SIZE;
  private intervalMs = 0;
  private retries = DEFAULT_MAX_RETRIES;

  /** Rows per batch (≥ 1). */
  withBatchSize(size: number): this {
    if (!(Number.isInteger(size) && size >= 1)) throw new JdbcConnectionOptionsError(`JdbcExecutionOptions: batch size must be an integer ≥ 1, got ${size}`);
    this.size = size;
    return this;
  }

  /** The longest a row waits in a batch, in ms (0: no timer). */
  withBatchIntervalMs(ms: number): this {
    if (!(Number.isFinite(ms) && ms >= 0)) throw new JdbcConnectionOptionsError(`JdbcExecutionOptions: batch interval must be ≥ 0 ms, got ${ms}`);
    this.intervalMs = ms;
    return this;
  }

  /** Retries of a batch after a transient error (≥ 0). */
  withMaxRetries(retries: number): this {
    if (!(Number.isInteger(retries) && retries >= 0)) throw new JdbcConnectionOptionsError(`JdbcExecutionOptions: max retries must be an integer ≥ 0, got ${retries}`);
    this.retries = retries;
    return this;
  }

  build(): JdbcExecutionOptions {
    return JdbcExecutionOptions.create(this.size, this.intervalMs, this.retries);
  }
}
