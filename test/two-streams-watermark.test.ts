/**
 * The watermark of a two-input operator is the minimum of both inputs': a fast
 * input (that even ends, sending the maximal watermark) does not move event
 * time past what the slow input has delivered. Each fired timer reports the
 * watermark and the largest timestamp seen on each input; a watermark may never
 * exceed either input's largest timestamp minus the out-of-orderness bound.
 */
import { describe, expect, it } from "vitest";
import {
  collectSink, KeyedCoProcessFunction, StreamExecutionEnvironment, WatermarkStrategy,
  type Collector, type KeyedProcessContext, type OnTimerContext,
} from "../src/index.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";

const BOUND = 20;
type Fire = [timer: number, watermark: number, maxFast: number, maxSlow: number];

class ReportFires extends KeyedCoProcessFunction<string, number, number, Fire> {
  private maxFast = Number.NEGATIVE_INFINITY;
  private maxSlow = Number.NEGATIVE_INFINITY;
  processElement1(ts: number, ctx: KeyedProcessContext<string>): void {
    this.maxFast = Math.max(this.maxFast, ts);
    ctx.timerService().registerEventTimeTimer(ts);
  }
  processElement2(ts: number, ctx: KeyedProcessContext<string>): void {
    this.maxSlow = Math.max(this.maxSlow, ts);
    ctx.timerService().registerEventTimeTimer(ts);
  }
  onTimer(ts: number, ctx: OnTimerContext<string>, out: Collector<Fire>): void {
    out.collect([ts, ctx.timerService().currentWatermark(), this.maxFast, this.maxSlow]);
  }
}

describe("two-input watermarks", () => {
  it("advance with the minimum of both inputs", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 1 });
    const strategy = WatermarkStrategy.forBoundedOutOfOrderness<number>(BOUND).withTimestampAssigner((n) => n);
    const fast = env.fromSource(throttledSequence(0, 3000, 500, 1), WatermarkStrategy.noWatermarks(), "fast").assignTimestampsAndWatermarks(strategy);
    const slow = env.fromSource(throttledSequence(0, 3000, 10, 1), WatermarkStrategy.noWatermarks(), "slow").map((n) => n).assignTimestampsAndWatermarks(strategy);
    fast.keyBy(() => "k").connect(slow.keyBy(() => "k")).process(new ReportFires()).sinkTo(collectSink("fires"));
    const fires = (await env.execute("two-input-watermark")).getCollected<Fire>("fires");
    const midStream = fires.filter(([, wm]) => wm !== Number.POSITIVE_INFINITY);
    expect(midStream.length, "timers fired before the end of input").toBeGreaterThan(100);
    for (const [timer, wm, maxFast, maxSlow] of midStream) {
      expect(timer).toBeLessThanOrEqual(wm);
      expect(wm, `fired ${timer} at watermark ${wm}; inputs at ${maxFast} and ${maxSlow}`).toBeLessThanOrEqual(Math.min(maxFast, maxSlow) - BOUND - 1);
    }
    expect(midStream.some(([, , maxFast, maxSlow]) => maxFast - maxSlow > 500), "the fast input ran ahead").toBe(true);
  }, 30_000);
});
