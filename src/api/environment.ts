/**
 * StreamExecutionEnvironment: where a job is configured and built
 * (sources, settings) and from where it is executed.
 */
import { newJobId } from "../deploy/job-id.ts";
import { fileURLToPath } from "node:url";
import { isAbsolute, resolve } from "node:path";
import type { Readable } from "node:stream";
import type { CheckpointingMode, CheckpointSettings } from "../checkpoint/types.ts";
import { checkpointDirectoryOf } from "../checkpoint/storage/checkpoint-location.ts";
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
import { defaultRestartStrategy, type RestartStrategyConfig } from "../runtime/execution/restart-strategy.ts";
import type { JobExecutionResult } from "../runtime/execution/job-result.ts";
import { DEFAULT_MAX_PARALLELISM } from "../state/index.ts";
import { parseStateBackendName, stateBackendNote, type FlinkStateBackendName, type StateBackendName } from "../state/state-backend-settings.ts";
import { systemClock } from "../util/clock.ts";
import { getLogger, textLogger } from "../util/logger.ts";
import { CheckpointConfig } from "./checkpoint-config.ts";
import { ExecutionConfig } from "./execution-config.ts";
import { SingleOutputStreamOperator, type DataStream } from "./data-stream.ts";
import { checkParallelism } from "./operator-settings.ts";
import type { EnvironmentOptions } from "../deploy/environment-options.ts";
import type { JobClient } from "../deploy/job-client.ts";
import { currentLaunch, OtherJobInWorker } from "../deploy/launch-context.ts";
import type { WatermarkStrategy } from "../time/watermark-strategy.ts";
import { startJob } from "../deploy/start-job.ts";
import { DEFAULT_BATCH_SIZE } from "../runtime/channel/channel.ts";


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
  private parallelism: number;
  private maxParallelism: number;
  private readonly checkpointConfig = new CheckpointConfig();
  private readonly config = new ExecutionConfig();
  private restartStrategy: RestartStrategyConfig | undefined;
  private autoWatermarkInterval: number;
  private restoreSavepoint: string | undefined;
  /** @internal Settings given from outside the job code (command line); they win over the job's calls. */
  readonly overrides: EnvironmentOptions;

  private constructor(readonly options: EnvironmentOptions, overrides: EnvironmentOptions) {
    this.overrides = overrides;
    this.parallelism = options.parallelism ?? 1;
    this.maxParallelism = options.maxParallelism ?? DEFAULT_MAX_PARALLELISM;
    this.autoWatermarkInterval = options.autoWatermarkInterval ?? 200;
    if (options.checkpointInterval !== undefined) this.checkpointConfig.setCheckpointInterval(options.checkpointInterval);
    if (options.mode) this.checkpointConfig.setCheckpointingMode(options.mode);
  }

  /**
   * The environment of the current run: configured by the `weir run` flags when
   * started with `weir run`, otherwise an in-process environment with defaults.
   */
  static getExecutionEnvironment(): StreamExecutionEnvironment {
    const launch = currentLaunch();
    return new StreamExecutionEnvironment(launch?.options ?? {}, launch?.options ?? {});
  }

  /** An environment configured in code (tests, embedding). Runs in-process unless `workers` > 0. */
  static create(options: EnvironmentOptions = {}): StreamExecutionEnvironment {
    return new StreamExecutionEnvironment(options, {});
  }

  /** Default parallelism of operators that do not set their own. */
  setParallelism(parallelism: number): this {
    this.parallelism = checkParallelism("parallelism", parallelism, "the environment");
    return this;
  }
  getParallelism(): number {
    return this.overrides.parallelism ?? this.parallelism;
  }

  /** Number of key groups: the highest parallelism keyed state can be rescaled to (default 128). */
  setMaxParallelism(maxParallelism: number): this {
    this.maxParallelism = checkParallelism("max parallelism", maxParallelism, "the environment");
    return this;
  }
  getMaxParallelism(): number {
    return this.overrides.maxParallelism ?? this.maxParallelism;
  }

  /** Interval of periodic watermarks of the sources in ms (default 200; 0 disables periodic watermarks). */
  setAutoWatermarkInterval(ms: number): this {
    if (!(ms >= 0)) throw new RangeError(`auto-watermark interval must be ≥ 0 ms, got ${ms}`);
    this.autoWatermarkInterval = ms;
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
   * What happens after a failure. Default: with checkpointing, exponential delay (1 s, 2 s,
   * 4 s) for at most 3 restarts in a row, then the job fails with the last error; without
   * checkpointing, no restart. `weir run --restart-attempts N` wins over this.
   *
   * @example
   * ```ts
   * env.setRestartStrategy(RestartStrategies.exponentialDelayRestart({ attempts: 10 }));
   * ```
   */
  setRestartStrategy(strategy: RestartStrategyConfig): this {
    this.restartStrategy = strategy;
    return this;
  }

  /**
   * The keyed state backend: `"heap"` (default: JavaScript maps, copy-on-write
   * snapshots; state must fit in memory) or `"disk"` (an embedded store on
   * local disk behind a cache of hot keys: state larger than memory,
   * incremental checkpoints by default, local recovery). Flink's names work
   * too: `"hashmap"` is `"heap"`, `"rocksdb"` is `"disk"` (with a one-line
   * note that Weir's disk backend is lmdb-based). `weir run
   * --state-backend` and SQL's `SET 'state.backend'` win over this.
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
    const s = this.checkpointConfig.settings;
    s.stateBackend = { ...s.stateBackend, type, incremental: false, ...options };
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

  /** @internal The checkpoint settings of a run: the job's, with the command line's interval and mode. */
  checkpointSettings(): CheckpointSettings {
    const settings = { ...this.checkpointConfig.settings };
    if (this.overrides.checkpointInterval !== undefined) settings.intervalMs = this.overrides.checkpointInterval;
    if (this.overrides.mode) settings.mode = this.overrides.mode;
    const type = this.overrides.stateBackend ?? settings.stateBackend?.type ?? "heap";
    const incremental = this.checkpointConfig.incremental ?? type === "disk";
    settings.stateBackend = { ...settings.stateBackend, type, incremental };
    return settings;
  }

  /**
   * @internal The savepoint the jobs started afterwards restore (SQL's `SET
   * 'execution.savepoint.path'`); `undefined` forgets it. `--from-savepoint` wins.
   */
  setRestoreSavepoint(path: string | undefined): this {
    this.restoreSavepoint = path === "" ? undefined : path;
    return this;
  }

  /** Runs the job and resolves with its result when it finishes (bounded jobs). */
  async execute(jobName = "weir-job"): Promise<JobExecutionResult> {
    const client = await this.executeAsync(jobName);
    return client.getJobExecutionResult();
  }

  /** Starts the job and returns a client to watch, checkpoint or cancel it. */
  executeAsync(jobName = "weir-job"): Promise<JobClient> {
    return this.launch(jobName, newJobId());
  }

  /**
   * @internal Starts the job as run `jobId` (`executeAndCollect` listens for its results before it starts):
   * the whole program, or the nodes that `roots` consume (a SQL job of the table API).
   */
  async launch(jobName: string, jobId: string, roots?: readonly number[]): Promise<JobClient> {
    const launch = currentLaunch();
    const streamGraph = roots === undefined ? this.graph.attached() : this.graph.subgraph(roots);
    const graph = buildJobGraph(streamGraph, jobName, {
      parallelism: this.getParallelism(),
      maxParallelism: this.getMaxParallelism(),
      objectReuse: this.config.isObjectReuseEnabled(),
    });
    const fingerprint = fingerprintJobGraph(graph);
    if (launch?.role === "worker") {
      if (launch.onWorkerGraph?.(graph, fingerprint) === false) throw new OtherJobInWorker(jobName);
      return new Promise<JobClient>(() => {}); // a worker only runs its tasks; the client owns the job
    }
    const checks = streamGraph.nodes.flatMap((n) => (n.launchCheck === undefined ? [] : [n.launchCheck()]));
    if (checks.length > 0) await Promise.all(checks); // (without checks the job starts in this call, as before)
    const o = { ...this.options, ...this.overrides };
    const settings = this.checkpointSettings();
    const dir = o.checkpointDir ?? (this.checkpointConfig.storageSet ? undefined : o.defaultCheckpointDir);
    if (dir !== undefined) settings.storage = { type: "filesystem", directory: checkpointDirectoryOf(dir.replaceAll("<job>", jobName)) };
    const backend = settings.stateBackend!;
    if (backend.localDirectory === undefined && settings.storage.type === "filesystem") {
      settings.stateBackend = { ...backend, localDirectory: `${resolve(settings.storage.directory)}.local` };
    }
    const restartStrategy =
      o.restartAttempts === undefined && this.restartStrategy
        ? this.restartStrategy
        : defaultRestartStrategy(settings.intervalMs > 0, o.restartAttempts);
    const client = startJob({
      jobId,
      graph,
      fingerprint,
      checkpointing: settings,
      restartStrategy,
      workers: o.workers ?? 0,
      jobModule: launch?.jobModule ?? moduleOf(o),
      args: launch?.args ?? [],
      launchOptions: launch?.options ?? {},
      fresh: o.fresh ?? false,
      fromSavepoint: this.overrides.fromSavepoint ?? this.restoreSavepoint ?? this.options.fromSavepoint,
      allowNonRestoredState: o.allowNonRestoredState ?? false,
      batchSize: o.batchSize ?? DEFAULT_BATCH_SIZE,
      autoWatermarkIntervalMs: this.autoWatermarkInterval,
      clock: o.clock ?? systemClock,
      random: o.random,
      logger: o.log ? textLogger(o.log) : getLogger(),
      command: launch?.command,
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
  }): StreamNode {
    return this.graph.add({ chainable: true, isSource: false, ...spec });
  }
}

function moduleOf(o: EnvironmentOptions): string | undefined {
  const m = o.jobModule;
  if (!m) return undefined;
  return m.startsWith("file:") ? fileURLToPath(m) : isAbsolute(m) ? m : resolve(m);
}
