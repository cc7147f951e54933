/**
 * Flink's `JdbcSink` for PostgreSQL: `JdbcSink.sink` (at-least-once: batches, retries, reconnects; with an
 * upsert statement the table ends exact), `JdbcSink.exactlyOnceSink` (two-phase commit with prepared
 * transactions), and `JdbcSink.forStatement`, the same with a parameters function and one options object.
 */
import type { Sink, SinkContext, SinkWriter } from "../../core/sink.ts";
import { JdbcStatementBatch } from "./jdbc-batch.ts";
import { JdbcConnectionOptions } from "./jdbc-connection-options.ts";
import { JdbcExactlyOnceOptions } from "./jdbc-exactly-once-options.ts";
import { JdbcSubtaskTransactions } from "./jdbc-exactly-once-sink.ts";
import { JdbcExecutionOptions } from "./jdbc-execution-options.ts";
import type { JdbcDeliveryGuarantee, JdbcSinkSettings } from "./jdbc-sink-settings.ts";
import { jdbcStatement } from "./jdbc-statement.ts";
import { arrayParameters, builderParameters, type JdbcStatementBuilder } from "./jdbc-statement-builder.ts";
import { JdbcWriter } from "./jdbc-writer.ts";

/** The options of {@link JdbcSink.forStatement}. */
export interface JdbcSinkOptions {
  /** `jdbc:postgresql://host:port/database`, or built connection options. */
  url: string | JdbcConnectionOptions;
  username?: string;
  password?: string;
  /** Rows per batch (default 5000). */
  batchSize?: number;
  /** The longest a row waits in a batch, in ms (default 0: by size, at checkpoints and at the end). */
  batchIntervalMs?: number;
  /** Retries of a batch after a transient error (default 3; at-least-once only). */
  maxRetries?: number;
  /** `at-least-once` (default), `exactly-once` (prepared transactions committed with checkpoints) or `none` (no flush at barriers). */
  deliveryGuarantee?: JdbcDeliveryGuarantee;
  /** Exactly-once: the prefix of the prepared transactions' ids (default `weir-<operator uid>`). */
  transactionIdPrefix?: string;
}

/**
 * A sink writing each record with one SQL statement into PostgreSQL.
 *
 * @example
 * ```ts
 * const connection = JdbcConnectionOptions.builder().withUrl("jdbc:postgresql://localhost:5432/shop").withUsername("weir").build();
 * orders.sinkTo(
 *   JdbcSink.sink<Order>(
 *     "INSERT INTO orders (id, amount) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET amount = EXCLUDED.amount",
 *     (ps, o) => { ps.setLong(1, o.id); ps.setBigDecimal(2, o.amount); },
 *     JdbcExecutionOptions.builder().withBatchSize(1000).withBatchIntervalMs(200).build(),
 *     connection,
 *   ),
 * );
 * ```
 */
export class JdbcSink<T> implements Sink<T> {
  /** Use `JdbcSink.sink`, `JdbcSink.exactlyOnceSink` or `JdbcSink.forStatement`. */
  constructor(readonly settings: JdbcSinkSettings<T>) {}

  /**
   * At-least-once (Flink's `JdbcSink.sink`): `sql` with `?` placeholders, filled per record by
   * `statementBuilder`; rows are written in batches, every row before a checkpoint completes.
   */
  static sink<T>(sql: string, statementBuilder: JdbcStatementBuilder<T>, connectionOptions: JdbcConnectionOptions): JdbcSink<T>;
  static sink<T>(sql: string, statementBuilder: JdbcStatementBuilder<T>, executionOptions: JdbcExecutionOptions, connectionOptions: JdbcConnectionOptions): JdbcSink<T>;
  static sink<T>(
    sql: string,
    statementBuilder: JdbcStatementBuilder<T>,
    executionOrConnection: JdbcExecutionOptions | JdbcConnectionOptions,
    connectionOptions?: JdbcConnectionOptions,
  ): JdbcSink<T> {
    const [execution, connection] =
      executionOrConnection instanceof JdbcConnectionOptions ? [JdbcExecutionOptions.defaults(), executionOrConnection] : [executionOrConnection, connectionOptions];
    if (connection === undefined) throw new TypeError("JdbcSink.sink: the connection options are missing");
    return JdbcSink.build(sql, statementBuilder, execution, connection, "at-least-once", JdbcExactlyOnceOptions.defaults());
  }

  /**
   * Exactly-once (Flink's `JdbcSink.exactlyOnceSink`): each subtask writes into one transaction per
   * checkpoint, prepared at the barrier (`PREPARE TRANSACTION`) and committed when the checkpoint
   * completes. Needs checkpoints and `max_prepared_transactions` > 0 on the server.
   *
   * @example
   * ```ts
   * orders.sinkTo(
   *   JdbcSink.exactlyOnceSink<Order>(
   *     "INSERT INTO orders (id, amount) VALUES (?, ?)",
   *     (ps, o) => { ps.setLong(1, o.id); ps.setBigDecimal(2, o.amount); },
   *     JdbcExecutionOptions.builder().withBatchSize(1000).build(),
   *     JdbcExactlyOnceOptions.builder().withTransactionIdPrefix("orders-job").build(),
   *     connection,
   *   ),
   * );
   * ```
   */
  static exactlyOnceSink<T>(
    sql: string,
    statementBuilder: JdbcStatementBuilder<T>,
    executionOptions: JdbcExecutionOptions,
    exactlyOnceOptions: JdbcExactlyOnceOptions,
    connectionOptions: JdbcConnectionOptions,
  ): JdbcSink<T> {
    return JdbcSink.build(sql, statementBuilder, executionOptions, connectionOptions, "exactly-once", exactlyOnceOptions);
  }

  /**
   * The TypeScript-friendly form: `parameters` returns a record's values for the `?` placeholders, in order.
   *
   * @example
   * ```ts
   * orders.sinkTo(
   *   JdbcSink.forStatement<Order>(
   *     "INSERT INTO orders (id, amount) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET amount = EXCLUDED.amount",
   *     (o) => [o.id, o.amount],
   *     { url: "jdbc:postgresql://localhost:5432/shop", username: "weir", batchSize: 1000, deliveryGuarantee: "exactly-once" },
   *   ),
   * );
   * ```
   */
  static forStatement<T>(sql: string, parameters: (value: T) => readonly unknown[], options: JdbcSinkOptions): JdbcSink<T> {
    let connection = options.url;
    if (typeof connection === "string") {
      const b = JdbcConnectionOptions.builder().withUrl(connection);
      if (options.username !== undefined) b.withUsername(options.username);
      if (options.password !== undefined) b.withPassword(options.password);
      connection = b.build();
    }
    const execution = JdbcExecutionOptions.builder();
    if (options.batchSize !== undefined) execution.withBatchSize(options.batchSize);
    if (options.batchIntervalMs !== undefined) execution.withBatchIntervalMs(options.batchIntervalMs);
    if (options.maxRetries !== undefined) execution.withMaxRetries(options.maxRetries);
    const eo = JdbcExactlyOnceOptions.builder();
    if (options.transactionIdPrefix !== undefined) eo.withTransactionIdPrefix(options.transactionIdPrefix);
    const statement = jdbcStatement(sql);
    const exec = execution.build();
    const where = "JdbcSink";
    return new JdbcSink<T>({
      name: "JdbcSink",
      connection,
      execution: exec,
      guarantee: options.deliveryGuarantee ?? "at-least-once",
      exactlyOnce: eo.build(),
      batch: () => new JdbcStatementBatch(statement, arrayParameters(parameters, statement.parameterCount, where), exec.batchSize),
    });
  }

  private static build<T>(
    sql: string,
    builder: JdbcStatementBuilder<T>,
    execution: JdbcExecutionOptions,
    connection: JdbcConnectionOptions,
    guarantee: JdbcDeliveryGuarantee,
    exactlyOnce: JdbcExactlyOnceOptions,
  ): JdbcSink<T> {
    const statement = jdbcStatement(sql);
    return new JdbcSink<T>({
      name: "JdbcSink",
      connection,
      execution,
      guarantee,
      exactlyOnce,
      batch: () => new JdbcStatementBatch(statement, builderParameters(builder, statement.parameterCount, "JdbcSink"), execution.batchSize),
    });
  }

  createWriter(context: SinkContext): SinkWriter<T> {
    if (this.settings.guarantee === "exactly-once") return new JdbcSubtaskTransactions(this.settings, context).createWriter(context);
    return new JdbcWriter(this.settings, context);
  }
}
