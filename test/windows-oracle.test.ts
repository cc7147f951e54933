import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../src/api/environment.ts";
import { collectSink } from "../src/connectors/builtin/collect-sink.ts";
import type { Collector } from "../src/core/collector.ts";
import { OutputTag } from "../src/core/output-tag.ts";
import { EventTimeSessionWindows } from "../src/time/windows/session-windows.ts";
import { SlidingEventTimeWindows } from "../src/time/windows/sliding-windows.ts";
import { TumblingEventTimeWindows } from "../src/time/windows/tumbling-windows.ts";
import type { TimeWindow } from "../src/time/windows/window.ts";
import type { WindowAssigner } from "../src/time/windows/window-assigner.ts";
import { ProcessWindowFunction, type ProcessWindowContext } from "../src/time/windows/window-functions.ts";
import { seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { punctuatedWatermarks, randomEvents, windowOracle, type Ev, type WindowKind } from "./support/window-oracle.ts";

/** Emits `key|start|end|sorted ids` per firing. */
class Describe extends ProcessWindowFunction<Ev, string, string, TimeWindow> {
  process(key: string, ctx: ProcessWindowContext<TimeWindow>, events: Iterable<Ev>, out: Collector<string>): void {
    const w = ctx.window();
    out.collect(`${key}|${w.start}|${w.end}|${[...events].map((e) => e.id).sort((a, b) => a - b).join(",")}`);
  }
}

const BOUND = 200;

function assignerOf(kind: WindowKind): WindowAssigner<Ev, TimeWindow> {
  if (kind.type === "tumbling") return TumblingEventTimeWindows.of(kind.size);
  if (kind.type === "sliding") return SlidingEventTimeWindows.of(kind.size, kind.slide);
  return EventTimeSessionWindows.withGap(kind.gap);
}

async function runWindows(events: Ev[], kind: WindowKind, lateness: number, parallelism: number): Promise<{ results: string[]; late: number[] }> {
  const lateTag = new OutputTag<Ev>("late");
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  const windowed = env
    .fromElements(...events)
    .assignTimestampsAndWatermarks(punctuatedWatermarks(BOUND))
    .setParallelism(1)
    .keyBy((e) => e.key)
    .window(assignerOf(kind))
    .allowedLateness(lateness)
    .sideOutputLateData(lateTag)
    .process(new Describe())
    .uid("windows");
  windowed.sinkTo(collectSink("results"));
  windowed.getSideOutput(lateTag).sinkTo(collectSink("late"));
  const r = await env.execute("windows-oracle");
  return {
    results: r.getCollected<string>("results").sort(),
    late: r.getCollected<Ev>("late").map((e) => e.id).sort((a, b) => a - b),
  };
}

const kinds: [string, WindowKind, number][] = [
  ["tumbling", { type: "tumbling", size: 500 }, 0],
  ["tumbling with allowed lateness", { type: "tumbling", size: 500 }, 1500],
  ["sliding", { type: "sliding", size: 600, slide: 200 }, 0],
  ["sliding with allowed lateness", { type: "sliding", size: 600, slide: 200 }, 1000],
  ["session", { type: "session", gap: 150 }, 0],
  ["session with allowed lateness", { type: "session", gap: 150 }, 1200],
];

describe("event-time windows equal a batch model on seeded out-of-order streams", () => {
  for (const [name, kind, lateness] of kinds) {
    it(name, async () => {
      const seed = testSeed();
      const events = randomEvents(seededRandom(seed), 800, 4, 300, 0.06, BOUND);
      const expected = windowOracle(events, kind, BOUND, lateness);
      const got = await runWindows(events, kind, lateness, 2);
      const msg = `WEIR_SEED=${seed}`;
      expect(expected.late.length, msg).toBeGreaterThan(0); // the stream does have late records
      expect(got.late, msg).toEqual(expected.late);
      expect(got.results, msg).toEqual(expected.results);
      // nothing lost, nothing counted twice: every record is in the last firing of its windows or in the side output
      const lastFiring = new Map<string, string>();
      for (const r of got.results) {
        const [k, s, e] = r.split("|");
        lastFiring.set(`${k}|${s}|${e}`, r);
      }
      const inWindows = new Set([...lastFiring.values()].flatMap((r) => r.split("|")[3]!.split(",").filter(Boolean).map(Number)));
      const late = new Set(got.late);
      for (const e of events) expect(inWindows.has(e.id) !== late.has(e.id), `${msg} record ${e.id}`).toBe(true);
    });
  }
});
