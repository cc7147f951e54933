/**
 * StreamExecutionEnvironment: where a job is configured and built
 * (sources, settings) and from where it is executed.
 */
import { newJobId } from "../deploy/job-id.ts";
import { fileURLToPath } from "node:url";
import { isAbsolute, resolve } from "node:path";
import type { Readable } from "node:stream";
import type { CheckpointingMode, CheckpointSettings } from "../checkpoint/types.ts";
import type { Source } from "../core/source.ts";
import { elementsSource } from "../connectors/builtin/elements-source.ts";
import { sequenceSource } from "../connectors/builtin/sequence-source.ts";
import { AsyncIterableSource, type AsyncIterableInput } from "../connectors/node/async-iterable-source.ts";
import { ReadableLineSource } from "../connectors/node/readable-line-source.ts";
import type { Replayable } from "../connectors/node/replayable-input.ts";
import { buildJobGraph } from "../graph/job-graph.ts";
import { fingerprintJobGraph } from "../graph/fingerprint.ts";
import { StreamGraph, type StreamNode } from "../graph/stream-graph.ts";
import { SourceOperator } from "../runtime/operators/source-operator.ts";
import type { RestartStrategyConfig } from "../runtime/execution/restart-strategy.ts";
import type { JobExecutionResult } from "../runtime/execution/job-result.ts";
import { parseStateBackendName, stateBackendNote, type FlinkStateBackendName, type StateBackendName } from "../state/state-backend-settings.ts";
import { systemClock } from "../util/clock.ts";
import { getLogger, textLogger } from "../util/logger.ts";
import { CheckpointConfig, checkpointingModeOf, checkpointStorageOf, incrementalOf, s3SettingsOf } from "./checkpoint-config.ts";
import { isS3Location } from "../checkpoint/storage/checkpoint-location.ts";
import { restartStrategyOf, writeRestartStrategy } from "./configured-restart-strategy.ts";
import { Configuration } from "../config/configuration.ts";
import type { ConfigOption } from "../config/config-option.ts";
import {
  CHECKPOINTING_INTERVAL,
  CHECKPOINTING_MIN_PAUSE,
  CHECKPOINTING_TIMEOUT,
  MAX_CONCURRENT_CHECKPOINTS,
  NUM_RETAINED_CHECKPOINTS,
  TOLERABLE_FAILED_CHECKPOINTS,
} from "../config/options/checkpointing-options.ts";
import { AUTO_WATERMARK_INTERVAL, MAX_PARALLELISM, OBJECT_REUSE, PARALLELISM } from "../config/options/pipeline-options.ts";
import { IGNORE_UNCLAIMED_STATE, SAVEPOINT_PATH, STATE_BACKEND } from "../config/options/state-options.ts";
import { BATCH_SIZE, FRESH, WORKERS } from "../config/options/weir-options.ts";
import { ExecutionConfig } from "./execution-config.ts";
import { SingleOutputStreamOperator, type DataStream } from "./data-stream.ts";
import { checkParallelism } from "./operator-settings.ts";
import { configurationOfOptions, type EnvironmentOptions } from "../deploy/environment-options.ts";
import type { JobClient } from "../deploy/job-client.ts";
import { currentLaunch, OtherJobInWorker } from "../deploy/launch-context.ts";
import type { WatermarkStrategy } from "../time/watermark-strategy.ts";
import { startJob } from "../deploy/start-job.ts";


/**
 * The context of a streaming job.
 *
 * @example
 * ```ts
 * const env = StreamExecutionEnvironment.getExecutionEnvironment();
 * env.enableCheckpointing(1_000, "exactly-once");
 * env.fromSequence(1, 1_000_000)
 *   .keyBy((n) => (n % 2 === 0 ? "even" : "odd"))
 *   .sum()
 *   .print();
 * await env.execute("sums");
 * ```
 */
export class StreamExecutionEnvironment {
  /** @internal */
  readonly graph = new StreamGraph();
  /** The job's own configuration: from `create`/`getExecutionEnvironment`, the setters and SQL `SET`. */
  private readonly configuration: Configuration;
  /** @internal The command line's configuration (`weir run` flags and `-D`); it wins over the job's own. */
  readonly overrides: Configuration;
  private readonly checkpointConfig: CheckpointConfig;
  private readonly config: ExecutionConfig;
  /** `setStateBackend`'s options that are not keys. */
  private stateBackendOptions: { localDirectory?: string; cacheEntries?: number } = {};

  private constructor(
    readonly options: EnvironmentOptions,
    configuration: Configuration,
    overrides: Configuration,
    private readonly defaultCheckpointDir: string | undefined,
  ) {
    this.configuration = configuration;
    this.overrides = overrides;
    this.checkpointConfig = new CheckpointConfig(configuration);
    this.config = new ExecutionConfig(configuration);
  }

  /**
   * The environment of the current run: configured by the `weir run` flags and `-D key=value` when
   * started with `weir run` (they win over `configuration` and the job's own calls), otherwise an
   * in-process environment configured by `configuration`.
   *
   * @example
   * ```ts
   * const env = StreamExecutionEnvironment.getExecutionEnvironment(
   *   new Configuration().setString("execution.checkpointing.interval", "10 s"),
   * );
   * ```
   */
  static getExecutionEnvironment(configuration?: Configuration): StreamExecutionEnvironment {
    const launch = currentLaunch();
    const overrides = Configuration.fromMap(launch?.configuration ?? {}, "the command line");
    return new StreamExecutionEnvironment({}, configuration?.clone() ?? new Configuration(), overrides, launch?.defaultCheckpointDir);
  }

  /**
   * An environment configured in code (tests, embedding): by a {@link Configuration}, or by options
   * (shorthands of configuration keys, a clock, a job module). Runs in-process unless `workers` > 0;
   * the command line's settings do not apply.
   *
   * @example
   * ```ts
   * const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 500 });
   * const same = StreamExecutionEnvironment.create(new Configuration().set(PipelineOptions.PARALLELISM, 2));
   * ```
   */
  static create(options: EnvironmentOptions | Configuration = {}): StreamExecutionEnvironment {
    const o = options instanceof Configuration ? { configuration: options } : options;
    return new StreamExecutionEnvironment(o, configurationOfOptions(o), new Configuration(), o.defaultCheckpointDir);
  }

  /**
   * The effective configuration: the job's own with the command line's on top (a copy).
   *
   * @example
   * ```ts
   * env.getConfiguration().get(CheckpointingOptions.CHECKPOINTING_INTERVAL); // e.g. 500 with --checkpoint-interval 500
   * ```
   */
  getConfiguration(): Configuration {
    return this.configuration.clone().addAll(this.overrides);
  }

  /**
   * Sets every key of `configuration` in the job's own configuration (Flink's `configure`);
   * the command line's settings still win.
   *
   * @example
   * ```ts
   * env.configure(Configuration.fromMap({ "state.backend.type": "disk" }));
   * ```
   */
  configure(configuration: Configuration): this {
    this.configuration.addAll(configuration);
    return this;
  }

  /** @internal Unsets `option` in the job's own configuration (SQL `RESET`). */
  resetConfiguration(option: ConfigOption): void {
    this.configuration.remove(option);
  }

  /** Default parallelism of operators that do not set their own. */
  setParallelism(parallelism: number): this {
    this.configuration.set(PARALLELISM, checkParallelism("parallelism", parallelism, "the environment"));
    return this;
  }
  getParallelism(): number {
    return this.getConfiguration().get(PARALLELISM);
  }

  /** Number of key groups: the highest parallelism keyed state can be rescaled to (default 128). */
  setMaxParallelism(maxParallelism: number): this {
    this.configuration.set(MAX_PARALLELISM, checkParallelism("max parallelism", maxParallelism, "the environment"));
    return this;
  }
  getMaxParallelism(): number {
    return this.getConfiguration().get(MAX_PARALLELISM);
  }

  /** Interval of periodic watermarks of the sources in ms (default 200; 0 disables periodic watermarks). */
  setAutoWatermarkInterval(ms: number): this {
    if (!(ms >= 0)) throw new RangeError(`auto-watermark interval must be ≥ 0 ms, got ${ms}`);
    this.configuration.set(AUTO_WATERMARK_INTERVAL, ms);
    return this;
  }

  /** Job-wide record handling, e.g. `getConfig().enableObjectReuse()` (see {@link ExecutionConfig}). */
  getConfig(): ExecutionConfig {
    return this.config;
  }

  /** Takes a checkpoint every `intervalMs` with the given guarantee (default exactly-once). */
  enableCheckpointing(intervalMs: number, mode: CheckpointingMode = "exactly-once"): this {
    this.checkpointConfig.setCheckpointInterval(intervalMs).setCheckpointingMode(mode);
    return this;
  }

  getCheckpointConfig(): CheckpointConfig {
    return this.checkpointConfig;
  }

  /**
   * What happens after a failure (the `restart-strategy.*` keys). Default: with checkpointing,
   * exponential delay (1 s, 2 s, 4 s) for at most 3 restarts in a row, then the job fails with the
   * last error; without checkpointing, no restart. `weir run --restart-attempts N` wins over this.
   *
   * @example
   * ```ts
   * env.setRestartStrategy(RestartStrategies.exponentialDelayRestart({ attempts: 10 }));
   * ```
   */
  setRestartStrategy(strategy: RestartStrategyConfig): this {
    writeRestartStrategy(this.configuration, strategy);
    return this;
  }

  /**
   * The keyed state backend (`state.backend.type`): `"heap"` (default: JavaScript maps, copy-on-write
   * snapshots; state must fit in memory) or `"disk"` (an embedded store on
   * local disk behind a cache of hot keys: state larger than memory,
   * incremental checkpoints by default, local recovery). Flink's names work
   * too: `"hashmap"` is `"heap"`, `"rocksdb"` is `"disk"` (with a one-line
   * note that Weir's disk backend is lmdb-based). `weir run
   * --state-backend` wins over this.
   *
   * @example
   * ```ts
   * env.setStateBackend("disk", { cacheEntries: 50_000 });
   * ```
   */
  setStateBackend(backend: StateBackendName | FlinkStateBackendName, options: { localDirectory?: string; cacheEntries?: number } = {}): this {
    const type = parseStateBackendName(backend, "setStateBackend");
    const note = stateBackendNote(backend);
    if (note && currentLaunch()?.role !== "worker") getLogger().info(note);
    if (options.cacheEntries !== undefined && !(Number.isInteger(options.cacheEntries) && options.cacheEntries > 0))
      throw new RangeError(`setStateBackend: cacheEntries must be a whole number > 0, got ${options.cacheEntries}`);
    this.configuration.set(STATE_BACKEND, type);
    this.stateBackendOptions = options;
    return this;
  }

  /** A stream read from a source. */
  fromSource<T>(source: Source<T, unknown>, watermarks: WatermarkStrategy<T> | undefined, name: string): SingleOutputStreamOperator<T> {
    const node = this.addNode({
      type: "source",
      name,
      inputs: [],
      isSource: true,
      createOperator: () => new SourceOperator(source, watermarks),
      ...(source.copyRecord && !watermarks?.seesRecords ? { copyRecord: (r: unknown) => source.copyRecord!(r as T) } : {}),
      ...(watermarks?.alignment ? { alignmentGroup: watermarks.alignment.group } : {}),
    });
    return new SingleOutputStreamOperator<T>(this, node);
  }

  /** The numbers `from` to `to` (inclusive), read in parallel; replayable. */
  fromSequence(from: number, to: number): SingleOutputStreamOperator<number> {
    return this.fromSource(sequenceSource(from, to), undefined, "Sequence");
  }

  /** The given values in order, from a single reader (parallelism 1). */
  fromElements<T>(...values: T[]): SingleOutputStreamOperator<T> {
    return this.fromSource(elementsSource(values), undefined, "Elements").setParallelism(1);
  }

  /**
   * The values of an array or another finite iterable, in order, from a single
   * reader (parallelism 1; Flink's `fromCollection`). The iterable is read
   * into an array when the stream is defined (in every thread that builds the
   * job), so a restart replays it from any checkpoint.
   *
   * @example
   * ```ts
   * env.fromCollection(new Set(["a", "b"])).map((s) => s.toUpperCase()).print();
   * ```
   */
  fromCollection<T>(values: readonly T[] | Iterable<T>): SingleOutputStreamOperator<T> {
    return this.fromSource(elementsSource([...values]), undefined, "Collection").setParallelism(1);
  }

  /**
   * The values of an async (or sync) iterable, in order, from a single reader
   * (parallelism 1). Pass a function that creates the iterable: a restart then
   * creates it again and skips the values before the checkpoint (it must give
   * the same values every time). An iterable object itself is read once: a
   * restart that needs it again fails with `SourceNotReplayableError` rather
   * than lose or repeat values.
   *
   * @example
   * ```ts
   * async function* pages() { for (let p = 1; p <= 3; p++) yield* await fetchPage(p); }
   * env.fromAsyncIterable(() => pages()).print();
   * ```
   */
  fromAsyncIterable<T>(input: AsyncIterableInput<T>): SingleOutputStreamOperator<T> {
    return this.fromSource(new AsyncIterableSource<T>(input), undefined, "AsyncIterable").setParallelism(1);
  }

  /**
   * The lines of a Node `Readable` of bytes or strings (without `\n` or
   * `\r\n`), from a single reader (parallelism 1), read only as fast as the
   * job takes them. Pass a function that creates the stream: a restart then
   * creates it again and skips the lines before the checkpoint. A stream object
   * itself is read once (see `fromAsyncIterable`). The source destroys the
   * stream when it closes.
   *
   * @example
   * ```ts
   * import { createReadStream } from "node:fs";
   * env.fromReadable(() => createReadStream("access.log")).filter((l) => l.includes(" 500 ")).print();
   * ```
   */
  fromReadable(input: Replayable<Readable>): SingleOutputStreamOperator<string> {
    return this.fromSource(new ReadableLineSource(input), undefined, "Readable").setParallelism(1);
  }

  /** @internal The checkpoint settings of a run of `jobName` under `c` (the effective configuration). */
  checkpointSettings(c: Configuration = this.getConfiguration(), jobName?: string): CheckpointSettings {
    const storage = checkpointStorageOf(c, this.defaultCheckpointDir, jobName, this.checkpointConfig.jobManagerMaxStateSize());
    const type = parseStateBackendName(c.get(STATE_BACKEND), "state.backend.type");
    const backend = { ...this.stateBackendOptions, type, incremental: incrementalOf(c) };
    const s3 = s3SettingsOf(c);
    // beside a local checkpoint directory (local recovery); with S3 checkpoints a temporary one (as Flink's default)
    if (backend.localDirectory === undefined && storage.type === "filesystem" && !isS3Location(storage.directory)) backend.localDirectory = `${resolve(storage.directory)}.local`;
    return {
      intervalMs: c.get(CHECKPOINTING_INTERVAL) ?? 0,
      mode: checkpointingModeOf(c),
      timeoutMs: c.get(CHECKPOINTING_TIMEOUT),
      minPauseMs: c.get(CHECKPOINTING_MIN_PAUSE),
      maxConcurrent: c.get(MAX_CONCURRENT_CHECKPOINTS),
      tolerableFailures: c.get(TOLERABLE_FAILED_CHECKPOINTS),
      retained: c.get(NUM_RETAINED_CHECKPOINTS),
      storage,
      stateBackend: backend,
      ...(s3 === undefined ? {} : { s3 }),
    };
  }

  /** Runs the job and resolves with its result when it finishes (bounded jobs). */
  async execute(jobName = "weir-job"): Promise<JobExecutionResult> {
    const client = await this.executeAsync(jobName);
    return client.getJobExecutionResult();
  }

  /** Starts the job and returns a client to watch, checkpoint or cancel it. */
  executeAsync(jobName = "weir-job"): Promise<JobClient> {
    return this.launch(jobName, currentLaunch()?.jobId ?? newJobId());
  }

  /**
   * @internal Starts the job as run `jobId` (`executeAndCollect` listens for its results before it starts):
   * the whole program, or the nodes that `roots` consume (a SQL job of the table API).
   */
  async launch(jobName: string, jobId: string, roots?: readonly number[]): Promise<JobClient> {
    const launch = currentLaunch();
    const streamGraph = roots === undefined ? this.graph.attached() : this.graph.subgraph(roots);
    const effective = this.getConfiguration();
    const graph = buildJobGraph(streamGraph, jobName, {
      parallelism: effective.get(PARALLELISM),
      maxParallelism: effective.get(MAX_PARALLELISM),
      objectReuse: effective.get(OBJECT_REUSE),
    });
    const fingerprint = fingerprintJobGraph(graph);
    if (launch?.role === "worker") {
      if (launch.onWorkerGraph?.(graph, fingerprint) === false) throw new OtherJobInWorker(jobName);
      return new Promise<JobClient>(() => {}); // a worker only runs its tasks; the client owns the job
    }
    const checks = streamGraph.nodes.flatMap((n) => (n.launchCheck === undefined ? [] : [n.launchCheck()]));
    if (checks.length > 0) await Promise.all(checks); // (without checks the job starts in this call, as before)
    const o = this.options;
    const settings = this.checkpointSettings(effective, jobName);
    const client = startJob({
      jobId,
      graph,
      fingerprint,
      checkpointing: settings,
      restartStrategy: restartStrategyOf(effective, settings.intervalMs > 0),
      workers: effective.get(WORKERS) ?? 0,
      jobModule: launch?.jobModule ?? moduleOf(o),
      args: launch?.args ?? [],
      configuration: this.overrides.toMap(),
      jobConfiguration: effective.toMap(),
      fresh: effective.get(FRESH),
      fromSavepoint: effective.get(SAVEPOINT_PATH) || undefined,
      allowNonRestoredState: effective.get(IGNORE_UNCLAIMED_STATE),
      batchSize: effective.get(BATCH_SIZE),
      autoWatermarkIntervalMs: effective.get(AUTO_WATERMARK_INTERVAL),
      clock: o.clock ?? systemClock,
      random: o.random,
      logger: o.log ? textLogger(o.log) : getLogger(),
      command: launch?.command,
      executor: launch?.role === "client" ? launch.executor : undefined,
      ha: launch?.role === "client" ? launch.ha?.(jobId) : undefined,
    });
    launch?.onJobStarted?.(client);
    return client;
  }

  /**
   * @internal Adds a check that the client runs before a job with `stream`'s operator starts (never in a
   * worker): a connector's look at its external system, so a missing table or a refused login fails the
   * launch, not a task.
   */
  addLaunchCheck<T>(stream: DataStream<T>, check: () => Promise<void>): void {
    const node = this.graph.node(stream.upstreams[0]!.node);
    const before = node.launchCheck;
    node.launchCheck = before === undefined ? check : () => Promise.all([before(), check()]).then(() => undefined);
  }

  /** @internal Adds a node to the stream graph. */
  addNode(spec: {
    type: string;
    name: string;
    inputs: StreamNode["inputs"];
    createOperator: () => object;
    keySelector?: StreamNode["keySelector"];
    keySelector2?: StreamNode["keySelector2"];
    isSource?: boolean;
    copyRecord?: StreamNode["copyRecord"];
  }): StreamNode {
    return this.graph.add({ chainable: true, isSource: false, ...spec });
  }
}

function moduleOf(o: EnvironmentOptions): string | undefined {
  const m = o.jobModule;
  if (!m) return undefined;
  return m.startsWith("file:") ? fileURLToPath(m) : isAbsolute(m) ? m : resolve(m);
}
