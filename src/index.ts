/**
 * Weir: exactly-once stateful stream processing for TypeScript, with Apache
 * Flink's model. The public API.
 *
 * @example
 * ```ts
 * import { StreamExecutionEnvironment } from "weir";
 * const env = StreamExecutionEnvironment.getExecutionEnvironment();
 * env.enableCheckpointing(1_000, "exactly-once");
 * env.fromSequence(1, 1_000).keyBy((n) => n % 10).sum().print();
 * await env.execute("sums");
 * ```
 */
export { StreamExecutionEnvironment, type StateBackendName } from "./api/environment.ts";
export type { EnvironmentOptions } from "./api/environment-options.ts";
export { CheckpointConfig, DEFAULT_CHECKPOINT_SETTINGS } from "./api/checkpoint-config.ts";
export { DataStream, DataStreamSink, KeyedStream, SingleOutputStreamOperator } from "./api/data-stream.ts";
export { JobClient } from "./api/job-client.ts";
export { WatermarkStrategy } from "./time/watermark-strategy.ts";
export { getJobArgs, isWorker } from "./api/launch-context.ts";

export type { Collector } from "./core/collector.ts";
export { OutputTag } from "./core/output-tag.ts";
export type { RuntimeContext } from "./core/runtime-context.ts";
export { RichFunction } from "./core/rich-function.ts";
export {
  KeyedProcessFunction,
  ProcessFunction,
  type KeyedProcessContext,
  type OnTimerContext,
  type ProcessContext,
  type TimeDomain,
  type TimerService,
} from "./core/process-function.ts";
export type { WatermarkGenerator, WatermarkOutput } from "./time/watermark-generator.ts";
export type { TimestampAssigner } from "./time/watermark-strategy.ts";
export type { FilterFunction, FlatMapFunction, MapFunction, ReduceFunction } from "./core/functions.ts";
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
  AggregatingStateDescriptor,
  ListStateDescriptor,
  MapStateDescriptor,
  ReducingStateDescriptor,
  ValueStateDescriptor,
  StateSerializationError,
  UnsupportedKeyError,
  type AggregateFunction,
  type AggregatingState,
  type ListState,
  type MapState,
  type ReducingState,
  type ValueState,
} from "./state/index.ts";

export type { CheckpointingMode, CheckpointStorageConfig, CompletedCheckpoint } from "./checkpoint/types.ts";
export type { CheckpointStats } from "./checkpoint/coordinator/index.ts";
export { StateSizeLimitExceededError, CorruptCheckpointError } from "./checkpoint/storage/index.ts";

export { collectSink } from "./connectors/builtin/collect-sink.ts";
export {
  BucketAssigners,
  FileSink,
  FileSinkOptionError,
  FileSource,
  FileSourceParseError,
  FileSourcePathError,
  InvalidBucketPathError,
  deadLetterCount,
  type BucketAssigner,
  type CsvSinkOptions,
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
export { printSink } from "./connectors/builtin/print-sink.ts";
export { sequenceSource } from "./connectors/builtin/sequence-source.ts";
export { elementsSource } from "./connectors/builtin/elements-source.ts";

export { RestartStrategies, type RestartStrategyConfig } from "./runtime/execution/restart-strategy.ts";
export { JobExecutionResult } from "./runtime/execution/job-result.ts";
export { JobCancelledError, JobFailedError, type JobStatus } from "./runtime/execution/job-master.ts";
export { ManualClock, systemClock, type Clock } from "./util/clock.ts";
