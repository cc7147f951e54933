import { describe, expect, it } from "vitest";
import { RestartStrategies, StreamExecutionEnvironment, WatermarkStrategy } from "../src/index.ts";
import { collectSink } from "../src/connectors/builtin/collect-sink.ts";
import { OutputTag } from "../src/core/output-tag.ts";
import { EventTimeSessionWindows } from "../src/time/windows/session-windows.ts";
import { SlidingEventTimeWindows } from "../src/time/windows/sliding-windows.ts";
import { TumblingEventTimeWindows } from "../src/time/windows/tumbling-windows.ts";
import type { AggregateFunction } from "../src/state/index.ts";
import type { TimeWindow } from "../src/time/windows/window.ts";
import type { WindowAssigner } from "../src/time/windows/window-assigner.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { embeddedWatermarks, randomEvents, windowOracle, type Ev, type WindowKind } from "./support/window-oracle.ts";
import { FailOnce } from "./support/fail-once.ts";
import { stateBackendCases } from "./support/state-backends.ts";

const BOUND = 200;
const N = 1500;

/** All records of each window (apply), or an aggregate whose accumulator is changed in place. */
type Contents = "records" | "aggregate";

const cases: [string, WindowKind, WindowAssigner<Ev, TimeWindow>, number, Contents][] = [
  ["session windows", { type: "session", gap: 150 }, EventTimeSessionWindows.withGap(150), 800, "records"],
  ["sliding windows", { type: "sliding", size: 600, slide: 200 }, SlidingEventTimeWindows.of(600, 200), 1000, "records"],
  // without allowed lateness a window's end is no timer state: it is queued again from the restored contents
  ["sliding windows without allowed lateness", { type: "sliding", size: 600, slide: 200 }, SlidingEventTimeWindows.of(600, 200), 0, "records"],
  ["sliding windows, an accumulator changed in place", { type: "sliding", size: 600, slide: 200 }, SlidingEventTimeWindows.of(600, 200), 1000, "aggregate"],
  ["tumbling windows with an offset, an accumulator changed in place", { type: "tumbling", size: 500, offset: 70 }, TumblingEventTimeWindows.of(500, 70), 0, "aggregate"],
];

/** The window's ids, in an accumulator changed in place (a snapshot must not see later changes). */
const collectIds: AggregateFunction<Ev, { ids: number[] }, number[]> = {
  createAccumulator: () => ({ ids: [] }),
  add: (e, acc) => {
    acc.ids.push(e.id);
    return acc;
  },
  getResult: (acc) => acc.ids,
  merge: (a, b) => ({ ids: [...a.ids, ...b.ids] }),
};

const describeWindow = (key: string, w: TimeWindow, ids: readonly number[]) => `${key}|${w.start}|${w.end}|${[...ids].sort((a, b) => a - b).join(",")}`;

describe.each(stateBackendCases())("a failure amid open windows and pending timers leaves no trace (exactly-once), $name", (backend) => {
  for (const [name, kind, assigner, lateness, contents] of cases) {
    it(name, async () => {
      const seed = testSeed();
      const random = seededRandom(seed);
      const events = randomEvents(random, N, 5, 300, 0.05, BOUND);
      const failAt = randomInt(random, N / 4, N / 2);
      const late = new OutputTag<Ev>("late");
      const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
      env.enableCheckpointing(50, "exactly-once");
      backend.apply(env);
      env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
      const failOnce = new FailOnce(events, failAt);
      const windows = env
        .fromSource(throttledSequence(0, N - 1, 15, 2, 0, failOnce.sourceLimit), WatermarkStrategy.noWatermarks(), "numbers")
        .setParallelism(1)
        .map(failOnce)
        .setParallelism(1)
        .assignTimestampsAndWatermarks(embeddedWatermarks())
        .setParallelism(1)
        .keyBy((e) => e.key)
        .window(assigner)
        .allowedLateness(lateness)
        .sideOutputLateData(late);
      const windowed = (
        contents === "records"
          ? windows.apply((key: string, w: TimeWindow, es: Iterable<Ev>, out) => out.collect(describeWindow(key, w, [...es].map((e) => e.id))))
          : windows.aggregate(collectIds, (key: string, w: TimeWindow, ids: Iterable<number[]>, out) => {
              for (const i of ids) out.collect(describeWindow(key, w, i));
            })
      ).uid("windows");
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
