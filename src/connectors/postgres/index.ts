/**
 * PostgreSQL connectors (on `pg`, loaded lazily).
 */
// --- connection ---
export { JdbcConnectionOptions, JdbcConnectionOptionsBuilder, JdbcConnectionOptionsError, parseJdbcUrl, type PostgresAddress } from "./jdbc-connection-options.ts";
export { PostgresConnectionError } from "./postgres-errors.ts";
// --- sink ---
export { JdbcSink, type JdbcSinkOptions } from "./jdbc-sink.ts";
export { JdbcExecutionOptions, JdbcExecutionOptionsBuilder } from "./jdbc-execution-options.ts";
export { JdbcExactlyOnceOptions, JdbcExactlyOnceOptionsBuilder } from "./jdbc-exactly-once-options.ts";
export { JdbcParameters, JdbcParametersError, type JdbcStatementBuilder } from "./jdbc-statement-builder.ts";
export type { JdbcDeliveryGuarantee } from "./jdbc-sink-settings.ts";
export type { JdbcSinkUserContext, JdbcTransaction } from "./jdbc-exactly-once-sink.ts";
export { JdbcPreparedTransactionsDisabledError, JdbcSinkError, JdbcTransactionLostError } from "./jdbc-sink-errors.ts";
// --- CDC source ---
export { PostgresSource, PostgresSourceBuilder, StartupOptions } from "./postgres-source.ts";
export {
  ChangeEventDeserializationSchema,
  JsonDebeziumDeserializationSchema,
  UNCHANGED_TOAST_VALUE,
  type DebeziumDeserializationSchema,
  type PostgresChangeEvent,
  type PostgresChangeSource,
  type PostgresRowValues,
} from "./postgres-change-event.ts";
export { PostgresCdcError } from "./postgres-cdc-errors.ts";
