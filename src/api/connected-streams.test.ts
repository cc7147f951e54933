import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "./environment.ts";
import { collectSink } from "../connectors/builtin/collect-sink.ts";
import type { Collector } from "../core/collector.ts";
import { CoProcessFunction, KeyedCoProcessFunction } from "../core/co-process-function.ts";
import type { KeyedProcessContext, OnTimerContext, ProcessContext } from "../core/process-function.ts";
import { ValueStateDescriptor, type ValueState } from "../state/index.ts";
import { WatermarkStrategy } from "../time/watermark-strategy.ts";
import { NotKeyedStreamsError } from "./connected-streams.ts";

class Tag extends CoProcessFunction<number, string, string> {
  processElement1(n: number, _ctx: ProcessContext, out: Collector<string>): void {
    out.collect(`number:${n}`);
  }
  processElement2(w: string, _ctx: ProcessContext, out: Collector<string>): void {
    out.collect(`word:${w}`);
  }
}

interface Order {
  id: string;
  ts: number;
}
interface Payment {
  orderId: number;
  ts: number;
}

/**
 * Matches orders and payments of the same order id in either order, with keyed
 * state written by one input and read by the other; an event-time timer set by
 * whichever arrives first reports what stayed unmatched.
 */
class MatchPayment extends KeyedCoProcessFunction<string, Order, Payment, string> {
  private order!: ValueState<boolean>;
  private paid!: ValueState<boolean>;
  open(): void {
    this.order = this.getRuntimeContext().getState(new ValueStateDescriptor<boolean>("order"));
    this.paid = this.getRuntimeContext().getState(new ValueStateDescriptor<boolean>("paid"));
  }
  processElement1(o: Order, ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    if (this.paid.value()) return this.matched(ctx.getCurrentKey(), out);
    this.order.update(true);
    ctx.timerService().registerEventTimeTimer(o.ts + 1_000);
  }
  processElement2(p: Payment, ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    if (this.order.value()) return this.matched(ctx.getCurrentKey(), out);
    this.paid.update(true);
    ctx.timerService().registerEventTimeTimer(p.ts + 1_000);
  }
  onTimer(_ts: number, ctx: OnTimerContext<string>, out: Collector<string>): void {
    if (this.order.value()) out.collect(`unpaid:${ctx.getCurrentKey()}`);
    if (this.paid.value()) out.collect(`unknown-payment:${ctx.getCurrentKey()}`);
    this.order.clear();
    this.paid.clear();
  }
  private matched(key: string, out: Collector<string>): void {
    out.collect(`paid:${key}`);
    this.order.clear();
    this.paid.clear();
  }
}

describe("connected streams", () => {
  it("routes each input to its own method of a CoProcessFunction, and of co-map / co-flatMap", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    const numbers = env.fromElements(1, 2, 3);
    const words = env.fromElements("a", "b");
    numbers.connect(words).process(new Tag()).sinkTo(collectSink("process"));
    numbers.connect(words).map({ map1: (n) => n * 10, map2: (w) => w.length }).sinkTo(collectSink("map"));
    numbers.connect(words).flatMap({ flatMap1: (n) => [n, n], flatMap2: (w, out) => out.collect(-w.length) }).sinkTo(collectSink("flat"));
    const result = await env.execute("connect");
    expect(result.getCollected<string>("process").sort()).toEqual(["number:1", "number:2", "number:3", "word:a", "word:b"]);
    expect(result.getCollected<number>("map").sort((a, b) => a - b)).toEqual([1, 1, 10, 20, 30]);
    expect(result.getCollected<number>("flat").sort((a, b) => a - b)).toEqual([-1, -1, 1, 1, 2, 2, 3, 3]);
  });

  it("keyed: both inputs share keyed state and timers per key across parallel instances", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 3, autoWatermarkInterval: 1 });
    const ids = Array.from({ length: 60 }, (_, i) => i);
    const orders = ids.filter((i) => i % 5 !== 0).map((i) => ({ id: `o${i}`, ts: i * 10 }));
    const payments = ids.filter((i) => i % 7 !== 0).map((i) => ({ orderId: i, ts: i * 10 + 5 }));
    const ordered = env.fromElements(...orders).assignTimestampsAndWatermarks(WatermarkStrategy.forMonotonousTimestamps<Order>().withTimestampAssigner((o) => o.ts));
    const paid = env.fromElements(...payments).assignTimestampsAndWatermarks(WatermarkStrategy.forMonotonousTimestamps<Payment>().withTimestampAssigner((p) => p.ts));
    ordered
      .keyBy((o) => o.id)
      .connect(paid.keyBy((p) => `o${p.orderId}`))
      .process(new MatchPayment())
      .sinkTo(collectSink("matches"));
    const result = await env.execute("keyed-connect");
    const expected = ids.map((i) => (i % 5 !== 0 && i % 7 !== 0 ? `paid:o${i}` : i % 5 !== 0 ? `unpaid:o${i}` : i % 7 !== 0 ? `unknown-payment:o${i}` : undefined));
    expect(result.getCollected<string>("matches").sort()).toEqual(expected.filter((x) => x !== undefined).sort());
  });

  it("keyed connected streams carry both key selectors and the input side of each edge", () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    const k1 = (n: number) => n % 3;
    const k2 = (s: string) => s.length % 3;
    const out = env.fromElements(1).connect(env.fromElements("x")).keyBy(k1, k2).process(new Tag());
    const node = env.graph.nodes.at(-1)!;
    expect(out).toBeDefined();
    // keyBy wraps each selector (a null key names the keyBy call): the same wrapped selector on the node and its edge
    expect(node.keySelector!(4)).toBe(k1(4));
    expect(node.keySelector2!("xy")).toBe(k2("xy"));
    expect(node.inputs.map((e) => [e.inputSide, e.partitioning, e.keySelector])).toEqual([[0, "hash", node.keySelector], [1, "hash", node.keySelector2]]);
  });

  it("refuses a KeyedCoProcessFunction on non-keyed streams", () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    expect(() => env.fromElements<Order>().connect(env.fromElements<Payment>()).process(new MatchPayment())).toThrow(NotKeyedStreamsError);
  });
});
