/**
 * The benchmark job: a keyed running count. `fromSequence(1, records)` →
 * `keyBy(n % keys)` → a `KeyedProcessFunction` that counts per key in a
 * `ValueState<number>` and emits the count → a sink that only counts what it
 * receives (so the bench can check that every record arrived) and marks when
 * (bench/jobs/progress-sink.ts), which gives the throughput in the steady
 * state and the CPU time it cost (bench/steady-rate.ts).
 *
 * The same module runs in the bench process and, when `workers` > 0, in every
 * worker thread, which imports it again to rebuild the graph. The run's
 * parameters reach the workers through the `WEIR_BENCH_KEYED_COUNT`
 * environment variable, set before the workers start (a worker's
 * `process.env` is a copy of its parent's at creation).
 */
import { loadavg } from "node:os";
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
import type { StateBackendName } from "../../src/state/state-backend-settings.ts";
import { WORKER_LINKS_ENV, type WorkerLinks } from "../../src/deploy/worker/worker-task-manager.ts";
import { CpuTimeline, cpuBetween } from "../cpu-timeline.ts";
import { busyMark, otherCores } from "../machine-busy.ts";
import { steadyWindow, type SteadyWindow } from "../steady-rate.ts";
import { progressSink, type SinkProgress } from "./progress-sink.ts";
import { withCheckpointDir } from "./checkpoint-dir.ts";

/** Name under which the sink reports how many records it received, and when. */
const RECEIVED = "received";
/** The sink marks the instant of every this many records (per subtask). */
const MARK_EVERY = 16_384;

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
  /** Keyed state backend, with its default checkpoints (heap: full, disk: incremental). Default `"heap"`. */
  readonly backend?: StateBackendName;
  /** How the worker threads are linked: shared memory (default) or TCP over 127.0.0.1, as task manager processes are. */
  readonly links?: WorkerLinks;
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
  /** The steady part of the run (20–90 % of the records), or undefined if the run was too short to have one. */
  readonly steady: SteadyWindow | undefined;
  /** CPU time of the whole process (every thread) within `steady`, in ms. */
  readonly steadyCpuMs: number | undefined;
  /** The machine's 1-minute load average when the run started. */
  readonly loadAverage: number;
  /** Cores that other processes kept busy during the run (undefined where `/proc/stat` is missing). */
  readonly otherCores: number | undefined;
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
    .sinkTo(progressSink<number>(RECEIVED, MARK_EVERY))
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
  if (p.backend) env.setStateBackend(p.backend);
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
  return withCheckpointDir(params.checkpointIntervalMs, async (dir) => {
    try {
      process.env[PARAMS_VARIABLE] = JSON.stringify(params);
      if (params.links) process.env[WORKER_LINKS_ENV] = params.links;
      const env = environmentOf(params, dir);
      const loadAverage = loadavg()[0]!;
      const cpu = new CpuTimeline();
      const busy = busyMark();
      const started = performance.now();
      const result = await env
        .executeAsync("bench-keyed-count")
        .then((client) => client.getJobExecutionResult())
        .finally(() => cpu.stop());
      const elapsedMs = performance.now() - started;
      const others = otherCores(busy);
      const parts = result.getCollected<SinkProgress>(RECEIVED);
      const received = parts.reduce((a, p) => a + p.count, 0);
      let steady: SteadyWindow | undefined;
      try {
        steady = steadyWindow(parts.map((p) => p.marks), MARK_EVERY, params.records);
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
      }
      const steadyCpuMs = steady && cpuBetween(cpu.samples, steady.startAt, steady.endAt);
      return { params, elapsedMs, received, checkpoints: result.checkpoints, steady, steadyCpuMs, loadAverage, otherCores: others };
    } finally {
      delete process.env[PARAMS_VARIABLE];
      delete process.env[WORKER_LINKS_ENV];
    }
  });
}

if (isWorker()) {
  const raw = process.env[PARAMS_VARIABLE];
  if (!raw) throw new Error(`bench/jobs/keyed-count.ts: a worker found no ${PARAMS_VARIABLE} (start the job with runKeyedCount)`);
  // A worker hands the graph to its runtime and never resolves: do not await it.
  void environmentOf(JSON.parse(raw) as KeyedCountParams, undefined).executeAsync("bench-keyed-count");
}
