import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "./environment.ts";
import { collectSink } from "../connectors/builtin/collect-sink.ts";
import type { Collector } from "../core/collector.ts";
import { ProcessJoinFunction, type ProcessJoinContext } from "../core/process-join-function.ts";
import { WatermarkStrategy } from "../time/watermark-strategy.ts";
import { InvalidIntervalJoinBoundsError } from "./interval-join.ts";

type Ev = [key: string, ts: number];

class Pair extends ProcessJoinFunction<Ev, Ev, string> {
  processElement(l: Ev, r: Ev, ctx: ProcessJoinContext, out: Collector<string>): void {
    expect(ctx.getTimestamp()).toBe(Math.max(ctx.getLeftTimestamp(), ctx.getRightTimestamp()));
    out.collect(`${l[1]}-${r[1]}`);
  }
}

async function join(configure: (j: ReturnType<typeof between>) => ReturnType<typeof between>): Promise<string[]> {
  const env = StreamExecutionEnvironment.create({ parallelism: 2 });
  const j = between(env);
  configure(j).process(new Pair()).sinkTo(collectSink("pairs"));
  return (await env.execute("interval-join")).getCollected<string>("pairs").sort();
}

function between(env: StreamExecutionEnvironment) {
  const ts = WatermarkStrategy.forMonotonousTimestamps<Ev>().withTimestampAssigner(([, t]) => t);
  const left = env.fromElements<Ev>(["a", 100], ["b", 100]).assignTimestampsAndWatermarks(ts);
  const right = env.fromElements<Ev>(["a", 90], ["a", 95], ["a", 100], ["a", 110], ["a", 111], ["b", 200]).assignTimestampsAndWatermarks(ts);
  return left.keyBy(([k]) => k).intervalJoin(right.keyBy(([k]) => k)).between(-10, 10);
}

describe("interval join", () => {
  it("includes both bounds by default and only the same key", async () => {
    expect(await join((j) => j)).toEqual(["100-100", "100-110", "100-90", "100-95"]);
  });

  it("excludes a bound made exclusive", async () => {
    expect(await join((j) => j.lowerBoundExclusive())).toEqual(["100-100", "100-110", "100-95"]);
    expect(await join((j) => j.upperBoundExclusive())).toEqual(["100-100", "100-90", "100-95"]);
  });

  it("refuses bounds that are not whole milliseconds or make an empty interval", () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    const a = env.fromElements<Ev>().keyBy(([k]) => k);
    expect(() => a.intervalJoin(a).between(5, -5)).toThrow(InvalidIntervalJoinBoundsError);
    expect(() => a.intervalJoin(a).between(0.5, 3)).toThrow(/whole number/);
    expect(() => a.intervalJoin(a).between(0, 0).lowerBoundExclusive().process(new Pair())).toThrow(/empty/);
  });
});
