/**
 * The Nexmark source in real jobs: the same events at any parallelism, the
 * same sequence per split after a failure and restore, and event time that a
 * bounded-out-of-orderness watermark keeps without late events.
 */
import { describe, expect, it } from "vitest";
import {
  collectSink,
  OutputTag,
  RestartStrategies,
  RichFunction,
  StreamExecutionEnvironment,
  TumblingEventTimeWindows,
  WatermarkStrategy,
  type CheckpointListener,
} from "../../index.ts";
import { NexmarkGenerator } from "./nexmark-generator.ts";
import { nexmarkEventTime, type NexmarkEvent } from "./nexmark-event.ts";
import type { NexmarkOptions } from "./nexmark-options.ts";
import { NexmarkSource } from "./nexmark-source.ts";

/** The event numbers of `events` (made with `options`), in their order. */
function numbersOf(events: NexmarkEvent[], options: NexmarkOptions, count: number): number[] {
  const g = new NexmarkGenerator(options);
  const numberOf = new Map<string, number>();
  for (let n = 0; n < count; n++) numberOf.set(JSON.stringify(g.event(n)), n);
  return events.map((e) => numberOf.get(JSON.stringify(e)) ?? -1);
}

/** Passes events through; in the first attempt, fails at the first event after a completed checkpoint. */
class FailAfterCheckpoint extends RichFunction implements CheckpointListener {
  private completed = false;

  notifyCheckpointComplete(): void {
    this.completed = true;
  }

  map(e: NexmarkEvent): NexmarkEvent {
    if (this.completed && this.getRuntimeContext().getAttemptNumber() === 0) throw new Error("injected failure");
    return e;
  }
}

describe("NexmarkSource in a job", () => {
  it("makes the same multiset of events at parallelism 1 and 3", async () => {
    const options = { events: 6_000, maxOutOfOrdernessMs: 1_000 };
    async function run(parallelism: number): Promise<string[]> {
      const env = StreamExecutionEnvironment.create({ parallelism, log: () => {} });
      env.fromSource(NexmarkSource.create(options), WatermarkStrategy.forBoundedOutOfOrderness(1_000), "nexmark").sinkTo(collectSink("events"));
      return (await env.execute("nexmark-parallel")).getCollected<NexmarkEvent>("events").map((e) => JSON.stringify(e)).sort();
    }
    const one = await run(1);
    expect(one).toHaveLength(6_000);
    expect(new Set(one).size).toBe(6_000);
    expect(await run(3)).toEqual(one);
  });

  it("after a failure, resumes every split from its checkpointed event number: each split's sequence is intact", async () => {
    const events = 20_000;
    // 40 000 events/s: half a second of input, several checkpoints before the failure
    const options = { events, eventsPerSecond: 40_000, rateLimited: true };
    const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 50, log: () => {} });
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    env
      .fromSource(NexmarkSource.create(options), WatermarkStrategy.noWatermarks(), "nexmark")
      .uid("nexmark")
      .map(new FailAfterCheckpoint())
      .uid("fail")
      .sinkTo(collectSink("events"))
      .uid("sink");
    const result = await env.execute("nexmark-restore");
    expect(result.restarts).toBe(1);
    const numbers = numbersOf(result.getCollected<NexmarkEvent>("events"), options, events);
    for (const split of [0, 1]) {
      const mine = numbers.filter((n) => n % 2 === split);
      expect(mine, `split ${split}`).toEqual(Array.from({ length: events / 2 }, (_, i) => split + 2 * i));
    }
    expect(numbers).toHaveLength(events);
  });

  it("out of order by at most maxOutOfOrdernessMs: tumbling windows over forBoundedOutOfOrderness see every event, none late", async () => {
    const options = { events: 30_000, eventsPerSecond: 10_000, maxOutOfOrdernessMs: 800 };
    const late = new OutputTag<NexmarkEvent>("late");
    const env = StreamExecutionEnvironment.create({ parallelism: 2, log: () => {} });
    const counts = env
      .fromSource(NexmarkSource.create(options), WatermarkStrategy.forBoundedOutOfOrderness(800), "nexmark")
      .keyBy((e) => e.type)
      .window(TumblingEventTimeWindows.of(1_000))
      .sideOutputLateData(late)
      .aggregate(
        { createAccumulator: () => 0, add: (_e, n: number) => n + 1, getResult: (n) => n, merge: (a, b) => a + b },
        (type: number, w, counts, out) => out.collect(`${type}@${w.start}:${[...counts][0]}`),
      );
    counts.sinkTo(collectSink("counts"));
    counts.getSideOutput(late).sinkTo(collectSink("late"));
    const result = await env.execute("nexmark-event-time");
    expect(result.getCollected("late")).toEqual([]);
    const g = new NexmarkGenerator(options);
    const expected = new Map<string, number>();
    for (let n = 0; n < options.events; n++) {
      const e = g.event(n);
      const key = `${e.type}@${Math.floor(nexmarkEventTime(e) / 1_000) * 1_000}`;
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    expect(result.getCollected<string>("counts").sort()).toEqual([...expected].map(([k, c]) => `${k}:${c}`).sort());
  });
});
