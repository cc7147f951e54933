import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../api/environment.ts";
import { collectSink } from "../connectors/builtin/collect-sink.ts";
import type { Collector } from "../core/collector.ts";
import { KeyedProcessFunction, type KeyedProcessContext, type OnTimerContext } from "../core/process-function.ts";
import { ValueStateDescriptor, type ValueState } from "../state/index.ts";
import { WatermarkStrategy } from "./watermark-strategy.ts";

interface Event {
  key: string;
  ts: number;
}

/** Counts events per key in 1 s event-time buckets with timers; emits [key, bucketEnd, count, watermarkAtFire]. */
class BucketCount extends KeyedProcessFunction<string, Event, [string, number, number]> {
  private counts!: ValueState<Record<string, number>>;
  open(): void {
    this.counts = this.getRuntimeContext().getState(new ValueStateDescriptor<Record<string, number>>("counts"));
  }
  processElement(e: Event, ctx: KeyedProcessContext<string>, _out: Collector<[string, number, number]>): void {
    const end = Math.floor(ctx.timestamp()! / 1000) * 1000 + 999;
    if (end <= ctx.timerService().currentWatermark()) return; // late
    const c = { ...(this.counts.value() ?? {}) };
    c[end] = (c[end] ?? 0) + 1;
    this.counts.update(c);
    ctx.timerService().registerEventTimeTimer(end);
  }
  onTimer(ts: number, ctx: OnTimerContext<string>, out: Collector<[string, number, number]>): void {
    const c = { ...(this.counts.value() ?? {}) };
    out.collect([ctx.getCurrentKey(), ts, c[ts] ?? 0]);
    expect(ctx.timestamp()).toBe(ts);
    delete c[ts];
    this.counts.update(c);
  }
}

function events(n: number, seed: number): Event[] {
  let x = seed;
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  // event time advances 10 ms per event with up to 400 ms of disorder
  return Array.from({ length: n }, (_, i) => ({ key: `k${i % 5}`, ts: 1_000_000 + i * 10 - Math.floor(rnd() * 400) }));
}

describe("event time", () => {
  it("fires event-time timers from watermarks; buckets equal a batch count (disorder within the bound)", async () => {
    const input = events(5000, 7);
    const env = StreamExecutionEnvironment.create({ parallelism: 3, autoWatermarkInterval: 1 });
    env
      .fromElements(...input)
      .assignTimestampsAndWatermarks(WatermarkStrategy.forBoundedOutOfOrderness<Event>(500).withTimestampAssigner((e) => e.ts))
      .keyBy((e) => e.key)
      .process(new BucketCount())
      .sinkTo(collectSink("buckets"));
    const result = await env.execute("buckets");
    const expected = new Map<string, number>();
    for (const e of input) {
      const k = `${e.key}@${Math.floor(e.ts / 1000) * 1000 + 999}`;
      expected.set(k, (expected.get(k) ?? 0) + 1);
    }
    const got = new Map(result.getCollected<[string, number, number]>("buckets").map(([k, end, c]) => [`${k}@${end}`, c]));
    expect(got).toEqual(expected);
  });
});
