/**
 * Type-level tests (checked by `tsc --noEmit`, which covers test/): every API
 * that takes a function accepts an object literal (and a lambda where one
 * method suffices) whose parameter types are inferred from the streams under
 * `strict`, with `this` typed as the object with its own fields and
 * `getRuntimeContext()`; classes keep working; wrong shapes do not compile.
 * At run time the tests only build the job graphs.
 */
import { describe, expectTypeOf, it } from "vitest";
import {
  KeyedCoProcessFunction,
  KeyedProcessFunction,
  MapStateDescriptor,
  ProcessWindowFunction,
  StreamExecutionEnvironment,
  TumblingEventTimeWindows,
  ValueStateDescriptor,
  type BroadcastContext,
  type Collector,
  type KeyedBroadcastContext,
  type KeyedBroadcastOnTimerContext,
  type KeyedProcessContext,
  type KeyedReadOnlyBroadcastContext,
  type OnTimerContext,
  type ProcessContext,
  type ProcessJoinContext,
  type ProcessWindowContext,
  type ReadOnlyBroadcastContext,
  type RuntimeContext,
  type SingleOutputStreamOperator,
  type TimeWindow,
  type ValueState,
} from "../src/index.ts";

type Order = { id: string; amount: number };
type Payment = { orderId: string; ts: number };

function streams() {
  const env = StreamExecutionEnvironment.create();
  const orders = env.fromElements<Order>({ id: "a", amount: 1 });
  const payments = env.fromElements<Payment>({ orderId: "a", ts: 1 });
  return { env, orders, payments, byId: orders.keyBy((o) => o.id), byOrder: payments.keyBy((p) => p.orderId) };
}
const count = new ValueStateDescriptor<number>("count", 0);

describe("process functions as object literals and lambdas (types)", () => {
  it("process on a stream: a lambda and an object literal", () => {
    const { orders } = streams();
    const lengths = orders.process((o, ctx, out: Collector<number>) => {
      expectTypeOf(o).toEqualTypeOf<Order>();
      expectTypeOf(ctx).toEqualTypeOf<ProcessContext>();
      out.collect(o.amount);
    });
    expectTypeOf(lengths).toEqualTypeOf<SingleOutputStreamOperator<number>>();
    const named = orders.process({
      prefix: "#",
      open(ctx) {
        expectTypeOf(ctx).toEqualTypeOf<RuntimeContext>();
        this.prefix = `#${ctx.getIndexOfThisSubtask()}`;
      },
      processElement(o, ctx, out: Collector<string>) {
        expectTypeOf(ctx).toEqualTypeOf<ProcessContext>();
        expectTypeOf(this.prefix).toEqualTypeOf<string>();
        expectTypeOf(this.getRuntimeContext()).toEqualTypeOf<RuntimeContext>();
        out.collect(this.prefix + o.id);
      },
      close() {},
    });
    expectTypeOf(named).toEqualTypeOf<SingleOutputStreamOperator<string>>();
    // the output type can also be given explicitly (then the object has no fields of its own)
    expectTypeOf(orders.process<string>((o, _ctx, out) => out.collect(o.id))).toEqualTypeOf<SingleOutputStreamOperator<string>>();
  });

  it("process on a keyed stream: state on fields, timers, the key type", () => {
    const { byId } = streams();
    const alerts = byId.process({
      total: undefined as ValueState<number> | undefined,
      open(ctx) {
        this.total = ctx.getState(count);
      },
      processElement(o, ctx, out: Collector<[string, number]>) {
        expectTypeOf(o).toEqualTypeOf<Order>();
        expectTypeOf(ctx).toEqualTypeOf<KeyedProcessContext<string>>();
        this.total!.update(this.total!.value()! + o.amount);
        ctx.timerService().registerEventTimeTimer(1_000);
        out.collect([ctx.getCurrentKey(), this.total!.value()!]);
      },
      onTimer(ts, ctx, out) {
        expectTypeOf(ts).toEqualTypeOf<number>();
        expectTypeOf(ctx).toEqualTypeOf<OnTimerContext<string>>();
        expectTypeOf(out).toEqualTypeOf<Collector<[string, number]>>();
      },
    });
    expectTypeOf(alerts).toEqualTypeOf<SingleOutputStreamOperator<[string, number]>>();
    const keys = byId.process((o, ctx, out: Collector<string>) => out.collect(ctx.getCurrentKey() + o.id));
    expectTypeOf(keys).toEqualTypeOf<SingleOutputStreamOperator<string>>();
    // classes keep working
    class Total extends KeyedProcessFunction<string, Order, number> {
      processElement(o: Order, _ctx: KeyedProcessContext<string>, out: Collector<number>) {
        out.collect(o.amount);
      }
    }
    expectTypeOf(byId.process(new Total())).toEqualTypeOf<SingleOutputStreamOperator<number>>();
    // @ts-expect-error the records are orders, not numbers
    byId.process({ processElement(n: number) { void n; } });
    // @ts-expect-error a class for another key type
    byId.keyBy((o) => o.amount).process(new Total());
  });

  it("co-process: keyed (the key type reaches the contexts) and not keyed", () => {
    const { orders, payments, byId, byOrder } = streams();
    const matched = byId.connect(byOrder).process({
      order: undefined as ValueState<Order> | undefined,
      open(ctx) {
        this.order = ctx.getState(new ValueStateDescriptor<Order>("order"));
      },
      processElement1(o, ctx, out: Collector<string>) {
        expectTypeOf(o).toEqualTypeOf<Order>();
        expectTypeOf(ctx).toEqualTypeOf<KeyedProcessContext<string>>();
        this.order!.update(o);
        out.collect(o.id);
      },
      processElement2(p, ctx, out) {
        expectTypeOf(p).toEqualTypeOf<Payment>();
        expectTypeOf(ctx.getCurrentKey()).toEqualTypeOf<string>();
        if (this.order!.value()) out.collect(p.orderId);
      },
      onTimer(_ts, ctx) {
        expectTypeOf(ctx).toEqualTypeOf<OnTimerContext<string>>();
      },
    });
    expectTypeOf(matched).toEqualTypeOf<SingleOutputStreamOperator<string>>();
    const rekeyed = orders.connect(payments).keyBy((o) => o.amount, (p) => p.ts).process({
      processElement1(_o, ctx) {
        expectTypeOf(ctx.getCurrentKey()).toEqualTypeOf<number>();
      },
      processElement2() {},
    });
    expectTypeOf(rekeyed).toEqualTypeOf<SingleOutputStreamOperator<unknown>>();
    const plain = orders.connect(payments).process({
      processElement1(o, ctx, out: Collector<number>) {
        expectTypeOf(ctx).toEqualTypeOf<ProcessContext>();
        out.collect(o.amount);
      },
      processElement2(p, _ctx, out) {
        out.collect(p.ts);
      },
    });
    expectTypeOf(plain).toEqualTypeOf<SingleOutputStreamOperator<number>>();
    class Match extends KeyedCoProcessFunction<string, Order, Payment, string> {
      processElement1() {}
      processElement2() {}
    }
    byId.connect(byOrder).process(new Match());
    // @ts-expect-error both methods are needed
    orders.connect(payments).process({ processElement1() {} });
    const mapped = orders.connect(payments).map({ map1: (o) => o.id, map2: (p) => p.orderId });
    expectTypeOf(mapped).toEqualTypeOf<SingleOutputStreamOperator<string>>();
    const counted = orders.connect(payments).map({
      seen: 0,
      // a method whose result is computed from `this` gets its return type annotated
      map1(o): string {
        this.seen++;
        return `${o.id} ${this.seen}`;
      },
      map2(p): string {
        return p.orderId;
      },
    });
    expectTypeOf(counted).toEqualTypeOf<SingleOutputStreamOperator<string>>();
    const flat = orders.connect(payments).flatMap({ flatMap1: (o) => [o.amount], flatMap2: (p, out) => out.collect(p.ts) });
    expectTypeOf(flat).toEqualTypeOf<SingleOutputStreamOperator<number>>();
  });

  it("broadcast process: keyed and not keyed", () => {
    const { orders, payments, byId } = streams();
    const limits = new MapStateDescriptor<string, number>("limits");
    const keyed = byId.connect(payments.broadcast(limits)).process({
      processElement(o, ctx, out: Collector<Order>) {
        expectTypeOf(ctx).toEqualTypeOf<KeyedReadOnlyBroadcastContext<string>>();
        if (o.amount > (ctx.getBroadcastState(limits).get(o.id) ?? Infinity)) out.collect(o);
      },
      processBroadcastElement(p, ctx) {
        expectTypeOf(p).toEqualTypeOf<Payment>();
        expectTypeOf(ctx).toEqualTypeOf<KeyedBroadcastContext>();
        ctx.getBroadcastState(limits).put(p.orderId, p.ts);
      },
      onTimer(_ts, ctx) {
        expectTypeOf(ctx).toEqualTypeOf<KeyedBroadcastOnTimerContext<string>>();
      },
    });
    expectTypeOf(keyed).toEqualTypeOf<SingleOutputStreamOperator<Order>>();
    const plain = orders.connect(payments.broadcast(limits)).process({
      processElement(_o, ctx, _out: Collector<never>) {
        expectTypeOf(ctx).toEqualTypeOf<ReadOnlyBroadcastContext>();
      },
      processBroadcastElement(_p, ctx) {
        expectTypeOf(ctx).toEqualTypeOf<BroadcastContext>();
      },
    });
    expectTypeOf(plain).toEqualTypeOf<SingleOutputStreamOperator<never>>();
  });

  it("interval join: a lambda and an object literal", () => {
    const { byId, byOrder } = streams();
    const joined = byId.intervalJoin(byOrder).between(-5, 5);
    const pairs = joined.process((o, p, ctx, out: Collector<[string, number]>) => {
      expectTypeOf(ctx).toEqualTypeOf<ProcessJoinContext>();
      out.collect([o.id, p.ts]);
    });
    expectTypeOf(pairs).toEqualTypeOf<SingleOutputStreamOperator<[string, number]>>();
    const literal = joined.process({
      processElement(o, p, _ctx, out: Collector<number>) {
        expectTypeOf(o).toEqualTypeOf<Order>();
        expectTypeOf(p).toEqualTypeOf<Payment>();
        out.collect(o.amount + p.ts);
      },
    });
    expectTypeOf(literal).toEqualTypeOf<SingleOutputStreamOperator<number>>();
  });
});

describe("window functions as object literals and lambdas (types)", () => {
  it("process, reduce and aggregate with a window function, windowAll", () => {
    const { orders, byId } = streams();
    const windowed = byId.window(TumblingEventTimeWindows.of(1_000));
    const counts = windowed.process((key, ctx, os, out: Collector<[string, number, number]>) => {
      expectTypeOf(key).toEqualTypeOf<string>();
      expectTypeOf(ctx).toEqualTypeOf<ProcessWindowContext<TimeWindow>>();
      expectTypeOf(os).toEqualTypeOf<Iterable<Order>>();
      out.collect([key, ctx.window().end, [...os].length]);
    });
    expectTypeOf(counts).toEqualTypeOf<SingleOutputStreamOperator<[string, number, number]>>();
    const literal = windowed.process({
      open(ctx) {
        void ctx.getTaskName();
      },
      process(key, ctx, os, out: Collector<string>) {
        out.collect(`${key} ${ctx.window().start} ${[...os].length}`);
      },
      clear(ctx) {
        expectTypeOf(ctx).toEqualTypeOf<ProcessWindowContext<TimeWindow>>();
      },
    });
    expectTypeOf(literal).toEqualTypeOf<SingleOutputStreamOperator<string>>();
    const reduced = windowed.reduce((a, b) => ({ ...a, amount: a.amount + b.amount }), {
      process(key, ctx, totals, out: Collector<string>) {
        expectTypeOf(totals).toEqualTypeOf<Iterable<Order>>();
        for (const t of totals) out.collect(`${key} ${ctx.window().end} ${t.amount}`);
      },
    });
    expectTypeOf(reduced).toEqualTypeOf<SingleOutputStreamOperator<string>>();
    const aggregated = windowed.aggregate(
      { createAccumulator: () => 0, add: (o: Order, acc: number) => acc + o.amount, getResult: (acc) => acc, merge: (a, b) => a + b },
      {
        process(key, _ctx, sums, out: Collector<[string, number]>) {
          expectTypeOf(sums).toEqualTypeOf<Iterable<number>>();
          for (const s of sums) out.collect([key, s]);
        },
      },
    );
    expectTypeOf(aggregated).toEqualTypeOf<SingleOutputStreamOperator<[string, number]>>();
    // a lambda after reduce/aggregate is a WindowFunction: (key, window, values, out)
    windowed.reduce((a) => a, (key, window, os, out: Collector<string>) => {
      expectTypeOf(window).toEqualTypeOf<TimeWindow>();
      out.collect(key + [...os].length);
    });
    class Count extends ProcessWindowFunction<Order, number, string, TimeWindow> {
      process(_k: string, _c: ProcessWindowContext<TimeWindow>, os: Iterable<Order>, out: Collector<number>) {
        out.collect([...os].length);
      }
    }
    expectTypeOf(windowed.process(new Count())).toEqualTypeOf<SingleOutputStreamOperator<number>>();

    const all = orders.windowAll(TumblingEventTimeWindows.of(1_000));
    const total = all.process((ctx, os, out: Collector<number>) => {
      expectTypeOf(ctx).toEqualTypeOf<ProcessWindowContext<TimeWindow>>();
      out.collect([...os].reduce((s, o) => s + o.amount, 0));
    });
    expectTypeOf(total).toEqualTypeOf<SingleOutputStreamOperator<number>>();
    const top = all.reduce((a, b) => (a.amount >= b.amount ? a : b), {
      process(_ctx, os, out: Collector<string>) {
        for (const o of os) out.collect(o.id);
      },
    });
    expectTypeOf(top).toEqualTypeOf<SingleOutputStreamOperator<string>>();
  });

  it("window join and coGroup", () => {
    const { orders, payments } = streams();
    const join = orders.join(payments).where((o) => o.id).equalTo((p) => p.orderId).window(TumblingEventTimeWindows.of(1_000));
    expectTypeOf(join.apply((o, p) => o.amount + p.ts)).toEqualTypeOf<SingleOutputStreamOperator<number>>();
    const withOpen = join.apply({
      factor: 1,
      open(ctx) {
        this.factor = ctx.getNumberOfParallelSubtasks();
      },
      join(o, p): number {
        return (o.amount + p.ts) * this.factor;
      },
    });
    expectTypeOf(withOpen).toEqualTypeOf<SingleOutputStreamOperator<number>>();
    const coGrouped = orders.coGroup(payments).where((o) => o.id).equalTo((p) => p.orderId).window(TumblingEventTimeWindows.of(1_000)).apply({
      coGroup(os, ps, out: Collector<string>) {
        expectTypeOf(os).toEqualTypeOf<Order[]>();
        expectTypeOf(ps).toEqualTypeOf<Payment[]>();
        if (ps.length === 0) for (const o of os) out.collect(o.id);
      },
    });
    expectTypeOf(coGrouped).toEqualTypeOf<SingleOutputStreamOperator<string>>();
  });

  it("map, filter and flatMap objects with open() and fields", () => {
    const { orders } = streams();
    const tagged = orders.map({
      tag: "",
      open(ctx) {
        this.tag = ctx.getTaskName();
      },
      map(o): string {
        return this.tag + o.id;
      },
    });
    expectTypeOf(tagged).toEqualTypeOf<SingleOutputStreamOperator<string>>();
    orders.filter({ min: 2, filter(o): boolean { return o.amount >= this.min; } });
    expectTypeOf(orders.flatMap({ flatMap: (o: Order) => [o.id, o.id] })).toEqualTypeOf<SingleOutputStreamOperator<string>>();
    // @ts-expect-error an object literal has only the fields it declares
    orders.map({ map(o): string { return o.id + this.nosuchfield; } });
  });
});
