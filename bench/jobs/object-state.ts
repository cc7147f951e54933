/**
 * The object-state benchmark job, in the calling thread: a keyed running
 * aggregate whose state is an object.
 *
 * ```
 * fromSequence(1, N) → keyBy(n % keys) → KeyedProcessFunction (ValueState<{count, sum, min, max}>:
 *   value(), mutated in place, update(); emits {key, count}) → sink counting records and summing the counts
 * ```
 *
 * It measures what object values in keyed state cost: every `value()` hands
 * out a copy and every `update()` stores one (src/state/heap/heap-states.ts).
 * The sink checks the state: key k sees its c_k records in order, so it emits
 * the counts 1..c_k, and the emitted counts of a run add up to
 * {@link expectedCountSum}, a closed form of N and keys.
 */
import {
  KeyedProcessFunction,
  ValueStateDescriptor,
  type CheckpointStats,
  type Collector,
  type KeyedProcessContext,
  type Sink,
  type StreamExecutionEnvironment,
  type ValueState,
} from "../../src/index.ts";
import { runInProcess, type InProcessRunParams } from "./in-process-run.ts";

const RESULTS = "object-state";

/** The running aggregate kept per key. */
interface Aggregate {
  count: number;
  sum: number;
  min: number;
  max: number;
}

/** What the job emits per record. */
interface KeyCount {
  readonly key: number;
  readonly count: number;
}

/** One run of the object-state job. */
export interface ObjectStateParams extends InProcessRunParams {
  /** Numbers the source emits (1..records). */
  readonly records: number;
  /** Distinct keys (`n % keys`). */
  readonly keys: number;
}

/** What one run measured. */
export interface ObjectStateMeasurement {
  readonly elapsedMs: number;
  /** Records the sinks received (equals `records` when nothing was lost or duplicated). */
  readonly received: number;
  /** Sum of the emitted running counts ({@link expectedCountSum} when the state held). */
  readonly countSum: number;
  readonly checkpoints: CheckpointStats | null;
}

/** Keeps count, sum, min and max of each key in one object; emits the key's running count. */
class RunningAggregate extends KeyedProcessFunction<number, number, KeyCount> {
  private aggregate!: ValueState<Aggregate>;

  override open(): void {
    this.aggregate = this.getRuntimeContext().getState(new ValueStateDescriptor<Aggregate>("aggregate"));
  }

  processElement(n: number, ctx: KeyedProcessContext<number>, out: Collector<KeyCount>): void {
    const a = this.aggregate.value() ?? { count: 0, sum: 0, min: n, max: n };
    a.count++;
    a.sum += n;
    if (n < a.min) a.min = n;
    if (n > a.max) a.max = n;
    this.aggregate.update(a);
    out.collect({ key: ctx.getCurrentKey(), count: a.count });
  }
}

/** Counts the records and sums their counts; reports `[records, countSum]` per subtask. */
const countSumSink: Sink<KeyCount> = {
  createWriter(context) {
    let records = 0;
    let countSum = 0;
    return {
      write(r) {
        records++;
        countSum += r.count;
      },
      finish: () => context.reportResult(RESULTS, [[records, countSum]]),
    };
  },
};

/**
 * Largest state of one subtask kept in memory by the final checkpoint that
 * ends every bounded job, in runs without checkpoint storage (the default
 * 5 MiB does not hold a million keys' aggregates).
 */
const IN_MEMORY_STATE_LIMIT = 256 * 2 ** 20;

/** Builds the job's graph on `env`. */
function build(env: StreamExecutionEnvironment, p: ObjectStateParams): void {
  if (p.checkpointIntervalMs === 0) env.getCheckpointConfig().setCheckpointStorage({ type: "jobmanager", maxStateSize: IN_MEMORY_STATE_LIMIT });
  env
    .fromSequence(1, p.records)
    .uid("sequence")
    .keyBy((n) => n % p.keys)
    .process(new RunningAggregate())
    .uid("running-aggregate")
    .sinkTo(countSumSink)
    .uid("counts");
}

/**
 * The sum of all running counts the job emits for `records` and `keys`: key
 * k of `n % keys` over 1..records gets q + 1 records if 1 ≤ k ≤ r and q
 * otherwise (q, r = records divided by keys), and emits 1 + … + c_k.
 *
 * @example
 * ```ts
 * expectedCountSum(5, 2); // keys 1: 1,3,5 → 1+2+3; key 0: 2,4 → 1+2; 9
 * ```
 */
export function expectedCountSum(records: number, keys: number): number {
  const q = Math.floor(records / keys);
  const r = records % keys;
  const triangle = (c: number) => (c * (c + 1)) / 2;
  return r * triangle(q + 1) + (keys - r) * triangle(q);
}

/**
 * Runs the object-state job once, in-process, and measures it.
 *
 * @example
 * ```ts
 * const m = await runObjectState({ records: 4_000_000, keys: 1_000_000, parallelism: 4, checkpointIntervalMs: 1_000 });
 * console.log(m.countSum === expectedCountSum(4_000_000, 1_000_000));
 * ```
 */
export async function runObjectState(params: ObjectStateParams): Promise<ObjectStateMeasurement> {
  const run = await runInProcess("bench-object-state", params, (env) => build(env, params));
  const perSubtask = run.result.getCollected<[number, number]>(RESULTS);
  return {
    elapsedMs: run.elapsedMs,
    received: perSubtask.reduce((a, [n]) => a + n, 0),
    countSum: perSubtask.reduce((a, [, s]) => a + s, 0),
    checkpoints: run.checkpoints,
  };
}
