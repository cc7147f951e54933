/**
 * What a JDBC sink is made of, however it was built (`JdbcSink.sink`, `exactlyOnceSink`, `forStatement`,
 * or a SQL `jdbc` table): where it connects, how it batches, its guarantee and the batch of each subtask.
 */
import type { JdbcBatch } from "./jdbc-batch.ts";
import type { JdbcConnectionOptions } from "./jdbc-connection-options.ts";
import type { JdbcExactlyOnceOptions } from "./jdbc-exactly-once-options.ts";
import type { JdbcExecutionOptions } from "./jdbc-execution-options.ts";

/** The delivery guarantees of a JDBC sink (Flink's names). */
export type JdbcDeliveryGuarantee = "none" | "at-least-once" | "exactly-once";

/** A JDBC sink's resolved settings. */
export interface JdbcSinkSettings<T> {
  /** Names the sink in messages and connections (`JdbcSink`, `jdbc table 'orders'`). */
  readonly name: string;
  readonly connection: JdbcConnectionOptions;
  readonly execution: JdbcExecutionOptions;
  readonly guarantee: JdbcDeliveryGuarantee;
  /** Used with `exactly-once`. */
  readonly exactlyOnce: JdbcExactlyOnceOptions;
  /** A new, empty batch for one subtask. */
  readonly batch: () => JdbcBatch<T>;
}
