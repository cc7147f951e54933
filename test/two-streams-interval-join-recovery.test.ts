/**
 * The interval join through a failure (exactly-once): its buffers are
 * restored from the checkpoint and their cleanup timers, which are not state,
 * are queued again from them; the pairs still equal the nested-loop oracle.
 * A failing run prints its seed (rerun with WEIR_SEED=…).
 */
import { describe, expect, it } from "vitest";
import {
  collectSink, ProcessJoinFunction, RestartStrategies, StreamExecutionEnvironment, WatermarkStrategy,
  type Collector, type ProcessJoinContext,
} from "../src/index.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { BOUND, joinInputs, LOWER, oraclePairs, sortPairs, UPPER, type JoinEvent } from "./fixtures/two-streams-join-data.ts";
import { FailOnce } from "./support/fail-once.ts";

const N = 600;

class Pair extends ProcessJoinFunction<JoinEvent, JoinEvent, [string, string, number]> {
  processElement(l: JoinEvent, r: JoinEvent, ctx: ProcessJoinContext, out: Collector<[string, string, number]>): void {
    out.collect([l.id, r.id, ctx.getTimestamp()]);
  }
}

describe("interval join recovery", () => {
  it("a failure amid buffered records and pending cleanups leaves no trace (exactly-once)", async () => {
    const seed = testSeed();
    const { left, right } = joinInputs(seed, N, 4);
    const failAt = randomInt(seededRandom(seed), N / 4, N / 2);
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 2 });
    env.enableCheckpointing(50, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const strategy = WatermarkStrategy.forBoundedOutOfOrderness<JoinEvent>(BOUND).withTimestampAssigner((e) => e.ts);
    const side = (name: string, events: JoinEvent[], fail: boolean) => {
      const failOnce = new FailOnce(events, fail ? failAt : -1);
      const numbers = env.fromSource(throttledSequence(0, events.length - 1, 10, 2, 0, failOnce.sourceLimit), WatermarkStrategy.noWatermarks(), name).uid(name).setParallelism(1);
      const mapped = fail ? numbers.map(failOnce) : numbers.map((i: number) => events[i]!);
      return mapped.uid(`${name}-events`).setParallelism(1).assignTimestampsAndWatermarks(strategy).uid(`${name}-ts`).setParallelism(1);
    };
    side("left", left, true)
      .keyBy((e) => e.key)
      .intervalJoin(side("right", right, false).keyBy((e) => e.key))
      .between(LOWER, UPPER)
      .process(new Pair())
      .uid("join")
      .sinkTo(collectSink("pairs"));
    const result = await env.execute("interval-join-recovery");
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    expect(result.restarts, `${msg}: the failure was injected`).toBe(1);
    expect(sortPairs(result.getCollected<[string, string, number]>("pairs")), msg).toEqual(oraclePairs(left, right));
  }, 60_000);
});
