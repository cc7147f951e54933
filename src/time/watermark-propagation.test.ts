import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../api/environment.ts";
import { collectSink } from "../connectors/builtin/collect-sink.ts";
import type { Collector } from "../core/collector.ts";
import { KeyedProcessFunction, type KeyedProcessContext, type OnTimerContext } from "../core/process-function.ts";
import { ValueStateDescriptor, type ValueState } from "../state/index.ts";
import { WatermarkStrategy } from "./watermark-strategy.ts";

type Seen = { key: number; ts: number; watermark: number } | { key: number; fired: number; watermark: number };

/** Records the watermark seen with each record, and registers a far-future timer per key (only the final watermark fires it). */
class WatchWatermarks extends KeyedProcessFunction<number, number, Seen> {
  private registered!: ValueState<boolean>;
  open(): void {
    this.registered = this.getRuntimeContext().getState(new ValueStateDescriptor<boolean>("registered"));
  }
  processElement(n: number, ctx: KeyedProcessContext<number>, out: Collector<Seen>): void {
    const watermark = ctx.timerService().currentWatermark();
    out.collect({ key: ctx.getCurrentKey(), ts: ctx.timestamp()!, watermark });
    if (!this.registered.value()) {
      this.registered.update(true);
      ctx.timerService().registerEventTimeTimer(1e15);
    }
  }
  onTimer(ts: number, ctx: OnTimerContext<number>, out: Collector<Seen>): void {
    out.collect({ key: ctx.getCurrentKey(), fired: ts, watermark: ctx.timerService().currentWatermark() });
  }
}

describe("watermark propagation", () => {
  it("a keyed operator's watermark is the minimum over its parallel inputs, never regresses, and ends at the maximum", async () => {
    // Two source subtasks: subtask 0 reads 1..50 000 (timestamps n), subtask 1 reads 50 001..100 000 (timestamps n - 50 000 + 1 000 000):
    // event time of the second runs far ahead, so the operator's watermark must follow the first.
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 1 });
    env
      .fromSequence(1, 100_000)
      .assignTimestampsAndWatermarks(
        WatermarkStrategy.forMonotonousTimestamps<number>().withTimestampAssigner((n) => (n <= 50_000 ? n : n - 50_000 + 1_000_000)),
      )
      .keyBy((n) => n % 4)
      .process(new WatchWatermarks())
      .sinkTo(collectSink("seen"));
    const seen = (await env.execute("watermarks")).getCollected<Seen>("seen");
    const records = seen.filter((s): s is Extract<Seen, { ts: number }> => "ts" in s);
    const fired = seen.filter((s): s is Extract<Seen, { fired: number }> => "fired" in s);
    expect(records.length).toBe(100_000);
    // A record of input 0 arrives before input 0's end (channels are ordered), so the operator's watermark
    // then is held back by input 0 (below 50 000) even though input 1's event time is past 1 000 000.
    const fromInput0 = records.filter((r) => r.ts <= 50_000);
    expect(fromInput0.length).toBe(50_000);
    expect(fromInput0.every((r) => r.watermark < r.ts)).toBe(true);
    expect(fromInput0.some((r) => r.watermark > 0)).toBe(true); // watermarks did advance during the run
    // Per key (one operator subtask each), the watermark never goes back.
    for (let key = 0; key < 4; key++) {
      const wms = records.filter((r) => r.key === key).map((r) => r.watermark);
      expect(wms.every((w, i) => i === 0 || w >= wms[i - 1]!)).toBe(true);
    }
    // End of input: the maximal watermark fires every timer.
    expect(fired.map((f) => f.key).sort()).toEqual([0, 1, 2, 3]);
    expect(fired.every((f) => f.watermark === Infinity && f.fired === 1e15)).toBe(true);
  });
});
