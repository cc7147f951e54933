/**
 * Inputs for tests that compare jobs under one injected failure: a slow,
 * replayable stream of events with event timestamps whose first attempt
 * throws once after a checkpoint completed, and a runner that checks the
 * failure happened and returns the job's results in a comparable form.
 */
import { expect } from "vitest";
import {
  collectSink,
  RestartStrategies,
  StreamExecutionEnvironment,
  WatermarkStrategy,
  type DataStream,
} from "../../src/index.ts";
import { throttledSequence } from "../fixtures/throttled-sequence-source.ts";
import { FailOnce } from "./fail-once.ts";

/** An event of the tests: `ts` grows with `id` (monotonous event time). */
export interface Ev {
  id: number;
  key: string;
  ts: number;
  v: number;
}

/** `n` events over `keys` keys, 10 ms apart, starting at `firstTs`. */
export function events(n: number, keys: number, firstTs = 0): Ev[] {
  return Array.from({ length: n }, (_, i) => ({ id: i, key: `k${(i * 7) % keys}`, ts: firstTs + i * 10, v: (i * 37) % 101 }));
}

/**
 * A watermark after every event, just below its timestamp: when timers and
 * windows fire does not depend on the timing of the run (as periodic watermarks would).
 */
const perEventWatermarks = WatermarkStrategy.forGenerator<Ev>(() => ({
  onEvent: (e, _ts, out) => out.emitWatermark(e.ts - 1),
  onPeriodicEmit: () => {},
})).withTimestampAssigner((e) => e.ts);

/**
 * `evs` in order (one reader, parallelism 1), slowly, with event timestamps and
 * a watermark after each; with `fail`, the first attempt throws once a third of
 * the way or later, after a checkpoint.
 */
export function eventStream(env: StreamExecutionEnvironment, name: string, evs: readonly Ev[], fail: boolean): DataStream<Ev> {
  const failOnce = new FailOnce(evs, fail ? Math.floor(evs.length / 3) : -1);
  return env
    .fromSource(throttledSequence(0, evs.length - 1, 8, 2, 0, failOnce.sourceLimit), WatermarkStrategy.noWatermarks(), name)
    .uid(name)
    .setParallelism(1)
    .map(failOnce)
    .uid(`${name}-events`)
    .setParallelism(1)
    .assignTimestampsAndWatermarks(perEventWatermarks)
    .uid(`${name}-watermarks`)
    .setParallelism(1);
}

/**
 * Runs the job `build` defines (parallelism 2, exactly-once checkpoints every
 * 20 ms, restarts without delay) and returns its results as sorted JSON
 * strings, after checking that the injected failure happened once.
 */
export async function runWithOneFailure<T>(name: string, build: (env: StreamExecutionEnvironment) => DataStream<T>): Promise<string[]> {
  const env = StreamExecutionEnvironment.create({ parallelism: 2 });
  env.enableCheckpointing(20, "exactly-once");
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
  build(env).sinkTo(collectSink("results")).uid("results");
  const result = await env.execute(name);
  expect(result.restarts, `${name}: the injected failure happened once`).toBe(1);
  const results = result.getCollected<T>("results").map((r) => JSON.stringify(r)).sort();
  expect(results.length, `${name}: results`).toBeGreaterThan(0);
  return results;
}

/**
 * The job of an operator's recovery test: an environment (parallelism 2, exactly-once checkpoints every
 * 50 ms, restarts without delay) and `values` in order from one reader, slowly (20 a poll, 2 ms apart), whose
 * first attempt throws once at `failAt` or later, after a checkpoint.
 */
export function recoveryInput<T>(values: readonly T[], failAt: number): { env: StreamExecutionEnvironment; input: DataStream<T> } {
  const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
  env.enableCheckpointing(50, "exactly-once");
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
  const failOnce = new FailOnce(values, failAt);
  const input = env
    .fromSource(throttledSequence(0, values.length - 1, 20, 2, 0, failOnce.sourceLimit), WatermarkStrategy.noWatermarks(), "numbers")
    .setParallelism(1)
    .map(failOnce)
    .setParallelism(1);
  return { env, input };
}
