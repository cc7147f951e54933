/**
 * The benchmark job: a keyed running count. `fromSequence(1, records)` →
 * `keyBy(n % keys)` → a `KeyedProcessFunction` that counts per key in a
 * `ValueState<number>` and emits the count → a sink that only counts what it
 * receives (so the bench can check that every record arrived).
 *
 * The same module runs in the bench process and, when `workers` > 0, in every
 * worker thread, which imports it again to rebuild the graph. The run's
 * parameters reach the workers through the `WEIR_BENCH_KEYED_COUNT`
 * environment variable, set before the workers start (a worker's
 * `process.env` is a copy of its parent's at creation).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  KeyedProcessFunction,
  StreamExecutionEnvironment,
  ValueStateDescriptor,
  isWorker,
  type CheckpointStats,
  type Collector,
  type KeyedProcessContext,
  type ValueState,
} from "../../src/index.ts";
import { countingSink } from "./counting-sink.ts";

/** Name under which the sink reports how many records it received. */
const RECEIVED = "received";

/** The environment variable that carries a run's parameters to the worker threads. */
const PARAMS_VARIABLE = "WEIR_BENCH_KEYED_COUNT";

/** One run of the keyed-count job. */
export interface KeyedCountParams {
  /** Numbers the source emits (1..records). */
  readonly records: number;
  /** Distinct keys (`n % keys`). */
  readonly keys: number;
  /** Parallelism of every operator. */
  readonly parallelism: number;
  /** Worker threads; 0 runs every task in this thread. */
  readonly workers: number;
  /** Checkpoint interval in ms (exactly-once, filesystem storage in a temp dir); 0 disables checkpointing. */
  readonly checkpointIntervalMs: number;
}

/** What one run measured. */
export interface KeyedCountMeasurement {
  readonly params: KeyedCountParams;
  /** Wall time from `executeAsync` to the job's result, with `performance.now()`. */
  readonly elapsedMs: number;
  /** Records the sinks received (equals `records` when nothing was lost or duplicated). */
  readonly received: number;
  /** Checkpoint statistics of the run (null without checkpointing). */
  readonly checkpoints: CheckpointStats | null;
}

/**
 * Largest state of one subtask kept in memory by the final checkpoint that
 * ends every bounded job, in runs without checkpoint storage (the default
 * 5 MiB is too small for many millions of keys).
 */
const IN_MEMORY_STATE_LIMIT = 256 * 2 ** 20;

/** Counts the records of each key in keyed state and emits the running count. */
class RunningCount extends KeyedProcessFunction<number, number, number> {
  private count!: ValueState<number>;

  override open(): void {
    this.count = this.getRuntimeContext().getState(new ValueStateDescriptor<number>("count", 0));
  }

  processElement(_value: number, _ctx: KeyedProcessContext<number>, out: Collector<number>): void {
    const next = (this.count.value() ?? 0) + 1;
    this.count.update(next);
    out.collect(next);
  }
}

/** Builds the job's graph on `env`. */
function buildKeyedCount(env: StreamExecutionEnvironment, records: number, keys: number): void {
  env
    .fromSequence(1, records)
    .uid("sequence")
    .keyBy((n) => n % keys)
    .process(new RunningCount())
    .uid("running-count")
    .sinkTo(countingSink<number>(RECEIVED))
    .uid("discard");
}

/** Creates the environment of a run (the same in the bench process and in every worker). */
function environmentOf(p: KeyedCountParams, checkpointDir: string | undefined): StreamExecutionEnvironment {
  const env = StreamExecutionEnvironment.create({
    parallelism: p.parallelism,
    workers: p.workers,
    fresh: true,
    log: () => {},
    ...(p.workers > 0 ? { jobModule: import.meta.url } : {}),
  });
  if (p.checkpointIntervalMs > 0) {
    env.enableCheckpointing(p.checkpointIntervalMs, "exactly-once");
    if (checkpointDir) env.getCheckpointConfig().setCheckpointStorage(checkpointDir);
  } else env.getCheckpointConfig().setCheckpointStorage({ type: "jobmanager", maxStateSize: IN_MEMORY_STATE_LIMIT });
  buildKeyedCount(env, p.records, p.keys);
  return env;
}

/**
 * Runs the keyed-count job once and measures it. With checkpointing, the
 * checkpoints go to a fresh temporary directory that is removed afterwards.
 *
 * @example
 * ```ts
 * const m = await runKeyedCount({ records: 1_000_000, keys: 10_000, parallelism: 4, workers: 0, checkpointIntervalMs: 0 });
 * console.log(`${Math.round(m.records / (m.elapsedMs / 1000))} records/s`);
 * ```
 */
export async function runKeyedCount(params: KeyedCountParams): Promise<KeyedCountMeasurement> {
  const dir = params.checkpointIntervalMs > 0 ? await mkdtemp(join(tmpdir(), "weir-bench-")) : undefined;
  try {
    process.env[PARAMS_VARIABLE] = JSON.stringify(params);
    const env = environmentOf(params, dir);
    const started = performance.now();
    const client = await env.executeAsync("bench-keyed-count");
    const result = await client.getJobExecutionResult();
    const elapsedMs = performance.now() - started;
    const received = result.getCollected<number>(RECEIVED).reduce((a, b) => a + b, 0);
    return { params, elapsedMs, received, checkpoints: result.checkpoints };
  } finally {
    delete process.env[PARAMS_VARIABLE];
    // Retries: the write of a checkpoint aborted by the end of the job may still be finishing.
    if (dir) await rm(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}

if (isWorker()) {
  const raw = process.env[PARAMS_VARIABLE];
  if (!raw) throw new Error(`bench/jobs/keyed-count.ts: a worker found no ${PARAMS_VARIABLE} (start the job with runKeyedCount)`);
  // A worker hands the graph to its runtime and never resolves: do not await it.
  void environmentOf(JSON.parse(raw) as KeyedCountParams, undefined).executeAsync("bench-keyed-count");
}
