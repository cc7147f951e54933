import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../src/api/environment.ts";
import { collectSink } from "../src/connectors/builtin/collect-sink.ts";
import type { Collector } from "../src/core/collector.ts";
import { OutputTag } from "../src/core/output-tag.ts";
import { EventTimeSessionWindows } from "../src/time/windows/session-windows.ts";
import { SlidingEventTimeWindows } from "../src/time/windows/sliding-windows.ts";
import { TumblingEventTimeWindows } from "../src/time/windows/tumbling-windows.ts";
import type { DataStream, SingleOutputStreamOperator } from "../src/api/data-stream.ts";
import { ReducingStateDescriptor } from "../src/state/index.ts";
import { Trigger, TriggerResult, type OnMergeContext, type TriggerContext } from "../src/time/windows/trigger.ts";
import type { TimeWindow } from "../src/time/windows/window.ts";
import { WindowAssigner, type WindowAssignerContext } from "../src/time/windows/window-assigner.ts";
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
  if (kind.type === "tumbling") return TumblingEventTimeWindows.of(kind.size, kind.offset);
  if (kind.type === "sliding") return SlidingEventTimeWindows.of(kind.size, kind.slide, kind.offset);
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
  ["tumbling with an offset", { type: "tumbling", size: 500, offset: 120 }, 0],
  ["sliding with a negative offset and allowed lateness", { type: "sliding", size: 600, slide: 200, offset: -50 }, 700],
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

/** A record of the incremental variants: its ids so far (a window's reduced value is one of these). */
interface Ids {
  key: string;
  ids: number[];
}

/** Keeps the first record of the window and counts on it: wrong if two windows shared one object. */
interface FirstAndIds {
  ids: number[];
  first?: Ev & { adds: number };
}

/** Same rules as EventTimeTrigger, in another class (the operator's general trigger path), with a count in trigger state per window. */
class UserEventTimeTrigger extends Trigger<unknown, TimeWindow> {
  private readonly count = new ReducingStateDescriptor<number>("count", (a, b) => a + b);
  onElement(_e: unknown, _ts: number, w: TimeWindow, ctx: TriggerContext): TriggerResult {
    ctx.getReducingState(this.count).add(1);
    if (w.maxTimestamp() <= ctx.getCurrentWatermark()) return TriggerResult.FIRE;
    ctx.registerEventTimeTimer(w.maxTimestamp());
    return TriggerResult.CONTINUE;
  }
  onEventTime(time: number, w: TimeWindow, ctx: TriggerContext): TriggerResult {
    // the window's own count: a wrong namespace would find none and never fire
    return time === w.maxTimestamp() && (ctx.getReducingState(this.count).get() ?? 0) > 0 ? TriggerResult.FIRE : TriggerResult.CONTINUE;
  }
  onProcessingTime(): TriggerResult {
    return TriggerResult.CONTINUE;
  }
  override canMerge(): boolean {
    return true;
  }
  override onMerge(w: TimeWindow, ctx: OnMergeContext): void {
    ctx.mergePartitionedState(this.count);
    if (w.maxTimestamp() > ctx.getCurrentWatermark()) ctx.registerEventTimeTimer(w.maxTimestamp());
  }
  override clear(w: TimeWindow, ctx: TriggerContext): void {
    ctx.deleteEventTimeTimer(w.maxTimestamp());
    ctx.getReducingState(this.count).clear();
  }
}

/** The windows of a tumbling or sliding assigner from a user subclass (windows named by id, not by start). */
class UserSlidingWindows extends WindowAssigner<Ev, TimeWindow> {
  constructor(private readonly inner: WindowAssigner<Ev, TimeWindow>) {
    super();
  }
  assignWindows(e: Ev, ts: number, ctx: WindowAssignerContext): TimeWindow[] {
    return this.inner.assignWindows(e, ts, ctx);
  }
  getDefaultTrigger(): Trigger<Ev, TimeWindow> {
    return this.inner.getDefaultTrigger();
  }
  isEventTime(): boolean {
    return true;
  }
}

const describeWindow = (key: string, w: TimeWindow, ids: readonly number[]) => `${key}|${w.start}|${w.end}|${[...ids].sort((a, b) => a - b).join(",")}`;

/** One way to build the window operator; each must give the model's results. */
type Variant = (events: DataStream<Ev>, assigner: WindowAssigner<Ev, TimeWindow>, lateness: number, late: OutputTag<Ev>) => SingleOutputStreamOperator<string>;

const variants: [string, Variant, (kind: WindowKind) => boolean][] = [
  [
    "aggregate with an object accumulator that keeps and changes the first record",
    (events, assigner, lateness, late) =>
      events
        .keyBy((e) => e.key)
        .window(assigner)
        .allowedLateness(lateness)
        .sideOutputLateData(late)
        .aggregate<FirstAndIds, FirstAndIds, string>(
          {
            createAccumulator: () => ({ ids: [] }),
            add: (e, acc) => {
              acc.ids.push(e.id);
              acc.first ??= { ...e, adds: 0 };
              acc.first.adds++;
              return acc;
            },
            getResult: (acc) => acc,
            merge: (a, b) => ({ ids: [...a.ids, ...b.ids], first: a.first && b.first ? { ...a.first, adds: a.first.adds + b.first.adds } : (a.first ?? b.first) }),
          },
          (key: string, w: TimeWindow, accs: Iterable<FirstAndIds>, out) => {
            for (const acc of accs) out.collect(acc.first?.adds === acc.ids.length ? describeWindow(key, w, acc.ids) : `shared accumulator ${JSON.stringify(acc)}`);
          },
        ),
    () => true,
  ],
  [
    "reduce that changes and returns its first argument",
    (events, assigner, lateness, late) =>
      events
        .map((e): Ids & Ev => ({ ...e, ids: [e.id] }))
        .setParallelism(1) // the window sees the source's watermarks, as the model does
        .keyBy((e) => e.key)
        .window(assigner as unknown as WindowAssigner<Ids & Ev, TimeWindow>)
        .allowedLateness(lateness)
        .sideOutputLateData(late as unknown as OutputTag<Ids & Ev>)
        .reduce(
          (a, b) => {
            a.ids.push(...b.ids);
            return a;
          },
          (key: string, w: TimeWindow, rs: Iterable<Ids & Ev>, out) => {
            for (const r of rs) out.collect(describeWindow(key, w, r.ids));
          },
        ),
    () => true,
  ],
  [
    "a user trigger with trigger state",
    (events, assigner, lateness, late) =>
      events
        .keyBy((e) => e.key)
        .window(assigner)
        .trigger(new UserEventTimeTrigger())
        .allowedLateness(lateness)
        .sideOutputLateData(late)
        .apply((key: string, w: TimeWindow, es: Iterable<Ev>, out) => out.collect(describeWindow(key, w, [...es].map((e) => e.id)))),
    () => true,
  ],
  [
    "a user assigner",
    (events, assigner, lateness, late) =>
      events
        .keyBy((e) => e.key)
        .window(new UserSlidingWindows(assigner))
        .allowedLateness(lateness)
        .sideOutputLateData(late)
        .apply((key: string, w: TimeWindow, es: Iterable<Ev>, out) => out.collect(describeWindow(key, w, [...es].map((e) => e.id)))),
    (kind) => kind.type !== "session",
  ],
];

describe("every window path (numeric or id namespaces, built-in or user trigger, incremental contents) equals the model", () => {
  for (const [kindName, kind, lateness] of kinds) {
    for (const [variantName, variant, applies] of variants) {
      if (!applies(kind)) continue;
      it(`${kindName}: ${variantName}`, async () => {
        const seed = testSeed();
        const events = randomEvents(seededRandom(seed), 600, 4, 300, 0.06, BOUND);
        const expected = windowOracle(events, kind, BOUND, lateness);
        const late = new OutputTag<Ev>("late");
        const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 0 });
        const timestamped = env.fromElements(...events).assignTimestampsAndWatermarks(punctuatedWatermarks(BOUND)).setParallelism(1);
        const windowed = variant(timestamped, assignerOf(kind), lateness, late).uid("windows");
        windowed.sinkTo(collectSink("results"));
        windowed.getSideOutput(late).sinkTo(collectSink("late"));
        const r = await env.execute("window-paths");
        const msg = `WEIR_SEED=${seed}`;
        expect(r.getCollected<string>("results").sort(), msg).toEqual(expected.results);
        expect(r.getCollected<Ev>("late").map((e) => e.id).sort((a, b) => a - b), msg).toEqual(expected.late);
      });
    }
  }
});
