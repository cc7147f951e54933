/**
 * State TTL end to end: a keyed process function keeps the last sequence
 * number of its key in a ValueState with a TTL and emits what it found
 * there, in a job that checkpoints and fails once after a checkpoint.
 *
 * The job's clock is a test clock whose time is set by the keyed function
 * to the record's virtual time (its sequence number, in ms) before it
 * touches state; at parallelism 1 records reach it in order, and a replay
 * after the restore sets the same times again, so what each record sees is
 * exactly what a model computes, failure or not, with full and with
 * incremental checkpoints. (The checkpoint coordinator shares that clock;
 * timers still run on the wall clock.)
 */
import { describe, expect, it } from "vitest";
import {
  collectSink,
  type Collector,
  KeyedProcessFunction,
  type KeyedProcessContext,
  RestartStrategies,
  StateTtlConfig,
  StreamExecutionEnvironment,
  type ValueState,
  ValueStateDescriptor,
  WatermarkStrategy,
} from "../src/index.ts";
import { type Clock, systemClock } from "../src/util/clock.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { FailOnce } from "./fixtures/keyed-count.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { stateBackendCases } from "./support/state-backends.ts";

const RECORDS = 20_000;
const KEYS = 150;
const TTL_MS = 100; // virtual ms = records
const seed = testSeed();
const random = seededRandom(seed);
const keyOf: number[] = Array.from({ length: RECORDS + 1 }, () => randomInt(random, 0, KEYS - 1));

/** Wall-clock timers, and a time the keyed function sets. */
class RecordTimeClock implements Clock {
  time = Date.now();
  now(): number {
    return this.time;
  }
  setTimeout(fn: () => void, ms: number) {
    return systemClock.setTimeout(fn, ms);
  }
}

/** Emits `[n, last n of its key still alive, or null]` and stores n. */
class LastSeen extends KeyedProcessFunction<number, number, [number, number | null]> {
  private last!: ValueState<number>;
  constructor(
    private readonly clock: RecordTimeClock,
    private readonly base: number,
  ) {
    super();
  }
  open(): void {
    const ttl = StateTtlConfig.newBuilder(TTL_MS).cleanupFullSnapshot().cleanupIncrementally(10, true).build();
    this.last = this.getRuntimeContext().getState(new ValueStateDescriptor<number>("last").enableTimeToLive(ttl));
  }
  processElement(n: number, _ctx: KeyedProcessContext<number>, out: Collector<[number, number | null]>): void {
    this.clock.time = this.base + n;
    out.collect([n, this.last.value() ?? null]);
    this.last.update(n);
  }
}

/** What each record must see: the previous record of its key if fewer than TTL_MS records ago. */
function model(): Map<number, number | null> {
  const lastOf = new Map<number, number>();
  const seen = new Map<number, number | null>();
  for (let n = 1; n <= RECORDS; n++) {
    const prev = lastOf.get(keyOf[n]!);
    seen.set(n, prev !== undefined && n - prev < TTL_MS ? prev : null);
    lastOf.set(keyOf[n]!, n);
  }
  return seen;
}

describe.each(stateBackendCases())(`state TTL in a job with a failure (seed ${seed}), $name`, (backend) => {
  it("a ValueState with TTL returns exactly the unexpired values, across a restore", async () => {
    const clock = new RecordTimeClock();
    const log: string[] = [];
    const env = StreamExecutionEnvironment.create({ parallelism: 1, checkpointInterval: 20, mode: "exactly-once", clock, log: (l) => log.push(l) });
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    backend.apply(env);
    env
      .fromSource(throttledSequence(1, RECORDS, 100, 2), WatermarkStrategy.noWatermarks(), "numbers")
      .uid("numbers")
      .map(new FailOnce(Math.floor(RECORDS / 2), true, undefined))
      .uid("fail-once")
      .keyBy((n) => keyOf[n]!)
      .process(new LastSeen(clock, clock.time))
      .uid("last-seen")
      .sinkTo(collectSink("seen"))
      .uid("seen-sink");
    const result = await env.execute("state-ttl");
    const context = `reproduce with WEIR_SEED=${seed}\nlog:\n${log.join("\n")}`;
    expect(result.restarts, context).toBe(1);
    const got = new Map(result.getCollected<[number, number | null]>("seen"));
    const expected = model();
    expect(got.size, context).toBe(RECORDS);
    expect(got, context).toEqual(expected);
    const found = [...expected.values()].filter((v) => v !== null).length;
    // both outcomes are exercised: values found alive, and keys whose value had expired (or never existed)
    expect(found, context).toBeGreaterThan(RECORDS / 4);
    expect(RECORDS - found, context).toBeGreaterThan(RECORDS / 4);
  });
});
