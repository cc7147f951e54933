/**
 * Weir: exactly-once stateful stream processing for TypeScript, with Apache
 * Flink's model. The public API.
 *
 * @example
 * ```ts
 * import { StreamExecutionEnvironment } from "weirjs";
 * const env = StreamExecutionEnvironment.getExecutionEnvironment();
 * env.enableCheckpointing(1_000, "exactly-once");
 * env.fromSequence(1, 1_000).keyBy((n) => n % 10).sum().print();
 * await env.execute("sums");
 * ```
 */
export { StreamExecutionEnvironment } from "./api/environment.ts";
export type { FlinkStateBackendName, StateBackendName, StateBackendSettings } from "./state/state-backend-settings.ts";
export type { EnvironmentOptions } from "./deploy/environment-options.ts";
export { Configuration } from "./config/configuration.ts";
export { ConfigurationError } from "./config/configuration-error.ts";
export { ConfigOptions, type ConfigOption, type ConfigOptionWithDefault, type OptionType, type OptionValue } from "./config/config-option.ts";
export { ENGINE_OPTIONS, engineOption } from "./config/engine-options.ts";
export * as PipelineOptions from "./config/options/pipeline-options.ts";
export * as CheckpointingOptions from "./config/options/checkpointing-options.ts";
export * as StateOptions from "./config/options/state-options.ts";
export * as RestartStrategyOptions from "./config/options/restart-options.ts";
export * as RestOptions from "./config/options/rest-options.ts";
export * as HighAvailabilityOptions from "./config/options/high-availability-options.ts";
export * as MetricOptions from "./config/options/metrics-options.ts";
export * as WeirOptions from "./config/options/weir-options.ts";
export { CheckpointConfig, DEFAULT_CHECKPOINT_SETTINGS } from "./api/checkpoint-config.ts";
export { ExecutionConfig } from "./api/execution-config.ts";
export { RecordNotPlainDataError } from "./runtime/record-not-plain-data-error.ts";
export { DataStream, DataStreamSink, KeyedStream, SingleOutputStreamOperator } from "./api/data-stream.ts";
export { NullKeyError } from "./api/checked-key-selector.ts";
export { AggregationFieldError, type AggregationArgs, type NumericField } from "./api/built-in-aggregations.ts";
export { OperatorSettings } from "./api/operator-settings.ts";
export { JobClient } from "./deploy/job-client.ts";
export { WatermarkStrategy, type WatermarkAlignmentParams } from "./time/watermark-strategy.ts";
export { getJobArgs, isWorker } from "./deploy/launch-context.ts";

export type { Collector } from "./core/collector.ts";
export { OutputTag } from "./core/output-tag.ts";
export type { RuntimeContext } from "./core/runtime-context.ts";
export { Counter } from "./metrics/counter.ts";
export { Meter } from "./metrics/meter.ts";
export { Histogram } from "./metrics/histogram.ts";
export type { MetricGroup } from "./metrics/metric-group.ts";
export type { Gauge } from "./metrics/metric-registry.ts";
export { NO_WATERMARK_VALUE, END_WATERMARK_VALUE, type MetricSnapshot, type MetricScope, type MetricKind, type HistogramStatistics } from "./metrics/metric-snapshot.ts";
export { renderPrometheus, startPrometheusServer, type PrometheusServer } from "./metrics/prometheus.ts";
export { startRestServer, type RestServer, type RestServerOptions } from "./rest/rest-server.ts";
export type { RestLeader } from "./rest/leader-forwarding.ts";
export { RestConfigError } from "./rest/rest-error.ts";
export { RichFunction } from "./core/rich-function.ts";
export type { FunctionLifecycle, FunctionObject, FunctionObjectThis } from "./core/function-object.ts";
export {
  KeyedProcessFunction,
  ProcessFunction,
  type KeyedProcessFunctionLike,
  type KeyedProcessFunctionObject,
  type ProcessFunctionLike,
  type ProcessFunctionObject,
  type KeyedProcessContext,
  type OnTimerContext,
  type ProcessContext,
  type TimeDomain,
  type TimerService,
} from "./core/process-function.ts";
export type { WatermarkGenerator, WatermarkOutput } from "./time/watermark-generator.ts";
export type { TimestampAssigner } from "./time/watermark-strategy.ts";
export type {
  FilterFunction,
  FilterFunctionObject,
  FlatMapFunction,
  FlatMapFunctionObject,
  MapFunction,
  MapFunctionObject,
  ReduceFunction,
} from "./core/functions.ts";
export type {
  CheckpointListener,
  CheckpointedFunction,
  FunctionInitializationContext,
  FunctionSnapshotContext,
  OperatorStateStore,
} from "./core/checkpointed-function.ts";
export type { Boundedness, PollStatus, ReaderOutput, Source, SourceReader, SourceReaderContext } from "./core/source.ts";
export type { Sink, SinkContext, SinkWriter } from "./core/sink.ts";
export {
  JsonDeserializationSchema,
  JsonSerializationSchema,
  SimpleStringSchema,
  type DeserializationSchema,
  type SerializationSchema,
} from "./core/serialization-schema.ts";

export {
  AggregatingStateDescriptor,
  ListStateDescriptor,
  MapStateDescriptor,
  ReducingStateDescriptor,
  ValueStateDescriptor,
  StateSerializationError,
  StateTtlConfig,
  StateTtlConfigBuilder,
  StateTtlMismatchError,
  StateVisibility,
  UnsupportedKeyError,
  UpdateType,
  type AggregateFunction,
  type IncrementalCleanup,
  type AggregatingState,
  type ListState,
  type MapState,
  type ReducingState,
  type ValueState,
} from "./state/index.ts";

export type { CheckpointingMode, CheckpointStorageConfig, CompletedCheckpoint } from "./checkpoint/types.ts";
export type { CheckpointStats } from "./checkpoint/coordinator/index.ts";
export {
  CheckpointDirectoryError,
  CorruptCheckpointError,
  SavepointNotFoundError,
  StateSizeLimitExceededError,
  UnsupportedCheckpointLocationError,
} from "./checkpoint/storage/index.ts";

export { collectSink } from "./connectors/builtin/collect-sink.ts";
export {
  BucketAssigners,
  DateTimeBucketAssigner,
  FileSink,
  FileSinkOptionError,
  FileSource,
  FileSourceParseError,
  FileSourcePathError,
  InvalidBucketPathError,
  PartFileExistsError,
  PendingPartFileMissingError,
  deadLetterCount,
  type BucketAssigner,
  type CsvSinkOptions,
  type DateTimeBucketOptions,
  type CsvSourceOptions,
  type DeadLetter,
  type FileRecordsOptions,
  type FileSinkOptions,
  type FileSourceOptions,
  type RollingPolicy,
  type RowFormat,
} from "./connectors/file/index.ts";
export {
  TwoPhaseCommitSink,
  InvalidTransactionTimeoutError,
  type TransactionContext,
  type TwoPhaseCommitOptions,
} from "./connectors/transactional/index.ts";
export {
  AsyncIterableSource,
  ReadableLineSource,
  SourceNotReplayableError,
  WritableSink,
  type AsyncIterableInput,
  type IterableSplit,
  type ReadableSplit,
  type Replayable,
  type WritableSinkOptions,
} from "./connectors/node/index.ts";
export { CollectResultIterator, CollectRestartError } from "./api/execute-and-collect.ts";
export {
  DeliveryGuarantee,
  KafkaConfigError,
  KafkaConnectionError,
  KafkaDeserializationError,
  KafkaRecordDeserializationSchema,
  KafkaRecordSerializationSchema,
  KafkaRecordSerializationSchemaBuilder,
  KafkaSendError,
  KafkaUnknownTopicError,
  KafkaSink,
  KafkaSinkBuilder,
  KafkaSource,
  KafkaSourceBuilder,
  KafkaSourceError,
  KafkaSourceOffsetError,
  KafkaTopicNotFoundError,
  KafkaTransactionTimeoutError,
  OffsetsInitializer,
  type KafkaConsumerRecord,
  type KafkaDiscoverySplit,
  type KafkaPartitioner,
  type KafkaPartitionSplit,
  type KafkaProducerRecord,
  type KafkaSinkContext,
  type KafkaSinkUserContext,
  type KafkaTransaction,
  type KafkaSourceSplit,
  type OffsetResetStrategy,
  type TopicPartition,
} from "./connectors/kafka/index.ts";
export {
  ChangeEventDeserializationSchema,
  JdbcConnectionOptions,
  JdbcConnectionOptionsBuilder,
  JdbcConnectionOptionsError,
  JdbcExactlyOnceOptions,
  JdbcExactlyOnceOptionsBuilder,
  JdbcExecutionOptions,
  JdbcExecutionOptionsBuilder,
  JdbcParameters,
  JdbcParametersError,
  JdbcPreparedTransactionsDisabledError,
  JdbcSink,
  JdbcSinkError,
  JdbcTransactionLostError,
  JsonDebeziumDeserializationSchema,
  parseJdbcUrl,
  PostgresCdcError,
  PostgresConnectionError,
  PostgresSource,
  PostgresSourceBuilder,
  StartupOptions,
  UNCHANGED_TOAST_VALUE,
  type DebeziumDeserializationSchema,
  type JdbcDeliveryGuarantee,
  type JdbcSinkOptions,
  type JdbcSinkUserContext,
  type JdbcStatementBuilder,
  type JdbcTransaction,
  type PostgresAddress,
  type PostgresChangeEvent,
  type PostgresChangeSource,
  type PostgresRowValues,
} from "./connectors/postgres/index.ts";
export { printSink } from "./connectors/builtin/print-sink.ts";
export { sequenceSource } from "./connectors/builtin/sequence-source.ts";
export { elementsSource } from "./connectors/builtin/elements-source.ts";
export {
  NEXMARK_DEFAULT_BASE_TIME,
  NexmarkEventType,
  NexmarkGenerator,
  NexmarkOptionError,
  NexmarkSource,
  nexmarkEventTime,
  type Auction,
  type AuctionEvent,
  type Bid,
  type BidEvent,
  type NexmarkEvent,
  type NexmarkOptions,
  type NexmarkSplit,
  type Person,
  type PersonEvent,
} from "./connectors/nexmark/index.ts";

export { RestartStrategies, type RestartStrategyConfig } from "./runtime/execution/restart-strategy.ts";
export { JobExecutionResult } from "./runtime/execution/job-result.ts";
export { DamagedCheckpointError, JobCancelledError, JobFailedError } from "./runtime/execution/job-errors.ts";
export { DirectoryLockedError } from "./util/directory-locked-error.ts";
export type { JobStatus } from "./runtime/execution/job-master.ts";
export { InvalidJobError } from "./graph/job-graph.ts";
export { ManualClock, systemClock, type Clock } from "./util/clock.ts";
export { createLogger, getLogger, type LogDestination, type LogFields, type LogFormat, type Logger, type LogLevel, type LogRecord } from "./util/logger.ts";
export type { RecordCounts } from "./runtime/execution/record-counts.ts";

export { ConnectedStreams, KeyedConnectedStreams, NotKeyedStreamsError } from "./api/connected-streams.ts";
export { BroadcastStream } from "./api/broadcast-stream.ts";
export { BroadcastConnectedStream, BroadcastFunctionMismatchError, KeyedBroadcastConnectedStream } from "./api/broadcast-connected-stream.ts";
export { IntervalJoin, IntervalJoined, InvalidIntervalJoinBoundsError } from "./api/interval-join.ts";
export {
  CoProcessFunction,
  KeyedCoProcessFunction,
  type CoProcessFunctionObject,
  type KeyedCoProcessFunctionObject,
} from "./core/co-process-function.ts";
export type { CoFlatMapFunction, CoMapFunction } from "./core/co-map-function.ts";
export {
  ProcessJoinFunction,
  type ProcessJoinContext,
  type ProcessJoinFunctionLike,
  type ProcessJoinFunctionObject,
} from "./core/process-join-function.ts";
export {
  BroadcastProcessFunction,
  KeyedBroadcastProcessFunction,
  type BroadcastProcessFunctionObject,
  type KeyedBroadcastProcessFunctionObject,
  type BroadcastContext,
  type BroadcastState,
  type KeyedBroadcastContext,
  type KeyedBroadcastOnTimerContext,
  type KeyedReadOnlyBroadcastContext,
  type KeyedStateDescriptor,
  type KeyedStateOf,
  type ReadOnlyBroadcastContext,
  type ReadOnlyBroadcastState,
} from "./core/broadcast-process-function.ts";
export { UnknownBroadcastStateError } from "./runtime/operators/broadcast-state-store.ts";
export { MissingTimestampError } from "./runtime/operators/interval-join-operator.ts";

export { AsyncDataStream, DEFAULT_ASYNC_CAPACITY } from "./api/async-data-stream.ts";
export { RichAsyncFunction, type AsyncFunction, type AsyncFunctionLike, type AsyncLambda, type ResultFuture } from "./core/async-function.ts";
export { AsyncRetryStrategies, RetryPredicates, type AsyncRetryStrategy } from "./core/async-retry-strategy.ts";
export { AsyncFunctionError, AsyncPlainDataError, AsyncTimeoutError } from "./runtime/operators/async-errors.ts";

export { WindowedStream } from "./api/windowed-stream.ts";
export { AllWindowedStream } from "./api/all-windowed-stream.ts";
export {
  JoinedStreams,
  JoinWithWindow,
  type FlatJoinFunction,
  type FlatJoinFunctionObject,
  type JoinFunction,
  type JoinFunctionObject,
} from "./api/join.ts";
export {
  CoGroupedStreams,
  CoGroupWhereEqual,
  CoGroupWithWindow,
  type CoGroupFunction,
  type CoGroupFunctionObject,
  type TaggedUnion,
} from "./api/co-group.ts";
export { TimeWindow, GlobalWindow, type Window } from "./time/windows/window.ts";
export { WindowAssigner, MergingWindowAssigner, type WindowAssignerContext, type MergeCallback } from "./time/windows/window-assigner.ts";
export { TumblingEventTimeWindows, TumblingProcessingTimeWindows } from "./time/windows/tumbling-windows.ts";
export { SlidingEventTimeWindows, SlidingProcessingTimeWindows } from "./time/windows/sliding-windows.ts";
export { EventTimeSessionWindows, ProcessingTimeSessionWindows, type SessionGapExtractor } from "./time/windows/session-windows.ts";
export { GlobalWindows } from "./time/windows/global-windows.ts";
export { Trigger, TriggerResult, type TriggerContext, type OnMergeContext, type WindowStateStore } from "./time/windows/trigger.ts";
export { EventTimeTrigger } from "./time/windows/event-time-trigger.ts";
export { ProcessingTimeTrigger } from "./time/windows/processing-time-trigger.ts";
export { CountTrigger } from "./time/windows/count-trigger.ts";
export { ContinuousEventTimeTrigger, ContinuousProcessingTimeTrigger } from "./time/windows/continuous-triggers.ts";
export { PurgingTrigger } from "./time/windows/purging-trigger.ts";
export { NeverTrigger } from "./time/windows/never-trigger.ts";
export { CountEvictor, TimeEvictor, DeltaEvictor, type Evictor, type EvictorContext, type TimestampedValue, type DeltaFunction } from "./time/windows/evictor.ts";
export {
  ProcessWindowFunction,
  type KeyedStateStore,
  type ProcessWindowContext,
  type ProcessWindowFunctionLike,
  type ProcessWindowFunctionLiteral,
  type ProcessWindowFunctionObject,
  type WindowFunction,
} from "./time/windows/window-functions.ts";
export {
  ProcessAllWindowFunction,
  type AllWindowFunction,
  type ProcessAllWindowFunctionLike,
  type ProcessAllWindowFunctionLiteral,
  type ProcessAllWindowFunctionObject,
} from "./time/windows/all-window-functions.ts";
export { MissingWindowTimestampError, WindowMergeError } from "./time/windows/window-errors.ts";
export { WINDOW_METRICS } from "./runtime/operators/window-operator.ts";

// Table API and SQL
export { StreamTableEnvironment } from "./table/api/table-environment.ts";
export { registerTableFactory } from "./table/connectors/table-factory-registry.ts";
export type { DynamicTableContext, DynamicTableFactory, TableFactoryOptions, TableSink, TableSource } from "./table/connectors/dynamic-table-factory.ts";
export { Table } from "./table/api/table.ts";
export { TableResult, type ResultKind, type ResultColumn } from "./table/api/table-result.ts";
export { StatementSet } from "./table/api/statement-set.ts";
export { Schema, SchemaBuilder } from "./table/api/schema.ts";
export { TableConfig } from "./table/api/table-config.ts";
export { RecordConversionError } from "./table/api/to-sql-value.ts";
export { Row, RowFieldError } from "./table/data/row.ts";
export { RowKind, type RowKindName } from "./table/data/row-kind.ts";
export { ChangelogMode } from "./table/plan/changelog-mode.ts";
export { SqlParseError } from "./table/sql/sql-parse-error.ts";
export { SqlValidationError } from "./table/validation/sql-validation-error.ts";
export { SqlRuntimeError } from "./table/expr/sql-runtime-error.ts";
export type { SqlValue } from "./table/types/sql-value.ts";
export type { Decimal } from "./table/types/decimal.ts";
export { ScalarFunction, type ScalarFunctionDefinition } from "./table/functions/scalar-function.ts";
export { TableFunction, type TableFunctionDefinition } from "./table/functions/table-function.ts";
export { SqlAggregateFunction, type AggregateFunctionSpec, type AggregateFunctionDefinition } from "./table/functions/aggregate-function.ts";
