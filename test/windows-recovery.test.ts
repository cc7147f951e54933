import { describe, expect, it } from "vitest";
import { RestartStrategies, StreamExecutionEnvironment, WatermarkStrategy } from "../src/index.ts";
import { collectSink } from "../src/connectors/builtin/collect-sink.ts";
import type { CheckpointListener } from "../src/core/checkpointed-function.ts";
import { OutputTag } from "../src/core/output-tag.ts";
import { RichFunction } from "../src/core/rich-function.ts";
import { EventTimeSessionWindows } from "../src/time/windows/session-windows.ts";
import { SlidingEventTimeWindows } from "../src/time/windows/sliding-windows.ts";
import type { TimeWindow } from "../src/time/windows/window.ts";
import type { WindowAssigner } from "../src/time/windows/window-assigner.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { embeddedWatermarks, randomEvents, windowOracle, type Ev, type WindowKind } from "./support/window-oracle.ts";

const BOUND = 200;
const N = 1500;

/** Maps a sequence number to its event; throws once (first attempt), at `failAt` or later, after a checkpoint completed. */
class FailOnce extends RichFunction implements CheckpointListener {
  private completed = false;
  constructor(
    private readonly events: readonly Ev[],
    private readonly failAt: number,
  ) {
    super();
  }
  map(i: number): Ev {
    if (this.getRuntimeContext().getAttemptNumber() === 0 && this.completed && i >= this.failAt) throw new Error(`injected failure at record ${i}`);
    return this.events[i]!;
  }
  notifyCheckpointComplete(): void {
    this.completed = true;
  }
}

const cases: [string, WindowKind, WindowAssigner<Ev, TimeWindow>, number][] = [
  ["session windows", { type: "session", gap: 150 }, EventTimeSessionWindows.withGap(150), 800],
  ["sliding windows", { type: "sliding", size: 600, slide: 200 }, SlidingEventTimeWindows.of(600, 200), 1000],
];

describe("a failure amid open windows and pending timers leaves no trace (exactly-once)", () => {
  for (const [name, kind, assigner, lateness] of cases) {
    it(name, async () => {
      const seed = testSeed();
      const random = seededRandom(seed);
      const events = randomEvents(random, N, 5, 300, 0.05, BOUND);
      const failAt = randomInt(random, N / 4, N / 2);
      const late = new OutputTag<Ev>("late");
      const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
      env.enableCheckpointing(50, "exactly-once");
      env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
      const windowed = env
        .fromSource(throttledSequence(0, N - 1, 15, 2), WatermarkStrategy.noWatermarks(), "numbers")
        .setParallelism(1)
        .map(new FailOnce(events, failAt))
        .setParallelism(1)
        .assignTimestampsAndWatermarks(embeddedWatermarks())
        .setParallelism(1)
        .keyBy((e) => e.key)
        .window(assigner)
        .allowedLateness(lateness)
        .sideOutputLateData(late)
        .apply((key: string, w: TimeWindow, es: Iterable<Ev>, out) => out.collect(`${key}|${w.start}|${w.end}|${[...es].map((e) => e.id).sort((a, b) => a - b).join(",")}`))
        .uid("windows");
      windowed.sinkTo(collectSink("results"));
      windowed.getSideOutput(late).sinkTo(collectSink("late"));
      const result = await env.execute("windows-recovery");
      const expected = windowOracle(events, kind, BOUND, lateness);
      const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
      expect(result.restarts, `${msg}: the failure was injected`).toBe(1);
      expect(result.getCollected<string>("results").sort(), msg).toEqual(expected.results);
      expect(result.getCollected<Ev>("late").map((e) => e.id).sort((a, b) => a - b), msg).toEqual(expected.late);
    }, 60_000);
  }
});
