/**
 * Functions written as object literals or lambdas give the results of the same
 * functions written as classes, with keyed state, timers and broadcast state
 * kept in object literals, across one injected failure and restore (process,
 * co-process, CoMap/CoFlatMap, broadcast process, interval join).
 */
import { describe, expect, it } from "vitest";
import {
  BroadcastProcessFunction,
  CoProcessFunction,
  KeyedBroadcastProcessFunction,
  KeyedCoProcessFunction,
  KeyedProcessFunction,
  ListStateDescriptor,
  MapStateDescriptor,
  OutputTag,
  ProcessFunction,
  ProcessJoinFunction,
  RichFunction,
  SingleOutputStreamOperator,
  ValueStateDescriptor,
  type BroadcastContext,
  type CheckpointedFunction,
  type Collector,
  type FunctionInitializationContext,
  type ListState,
  type CoMapFunction,
  type KeyedBroadcastContext,
  type KeyedBroadcastOnTimerContext,
  type KeyedProcessContext,
  type KeyedReadOnlyBroadcastContext,
  type OnTimerContext,
  type ProcessContext,
  type ProcessJoinContext,
  type ReadOnlyBroadcastContext,
  type RuntimeContext,
  type StreamExecutionEnvironment,
  type ValueState,
} from "../src/index.ts";
import { eventStream, events, runWithOneFailure, type Ev } from "./support/fail-once-input.ts";

const EVENTS = events(600, 5);
const OTHERS = events(300, 5, 5);
const QUIET_MS = 25;
const count = new ValueStateDescriptor<number>("count", 0);
const lastTs = new ValueStateDescriptor<number>("last-ts");

/** A running count per key, and a line when a key stayed quiet for QUIET_MS of event time (state and event-time timers). */
class CountAndQuiet extends KeyedProcessFunction<string, Ev, string> {
  private count!: ValueState<number>;
  private last!: ValueState<number>;
  override open(): void {
    this.count = this.getRuntimeContext().getState(count);
    this.last = this.getRuntimeContext().getState(lastTs);
  }
  processElement(e: Ev, ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const n = this.count.value()! + 1;
    this.count.update(n);
    this.last.update(e.ts);
    ctx.timerService().registerEventTimeTimer(e.ts + QUIET_MS);
    out.collect(`${ctx.getCurrentKey()} #${n} v${e.v} at ${ctx.timestamp()}`);
  }
  override onTimer(ts: number, ctx: OnTimerContext<string>, out: Collector<string>): void {
    if (this.last.value() === ts - QUIET_MS) out.collect(`${ctx.getCurrentKey()} quiet at ${ts} after ${this.count.value()} (${ctx.timeDomain()})`);
  }
}

describe("keyed process function", () => {
  it("an object literal (state handles on its fields from open(ctx), or from this.getRuntimeContext()) gives the class's results", async () => {
    const keyed = (env: StreamExecutionEnvironment) => eventStream(env, "events", EVENTS, true).keyBy((e) => e.key);
    const asClass = await runWithOneFailure("class", (env) => keyed(env).process(new CountAndQuiet()).uid("count"));
    const withFields = await runWithOneFailure("literal with fields", (env) =>
      keyed(env)
        .process({
          count: undefined as ValueState<number> | undefined,
          last: undefined as ValueState<number> | undefined,
          open(ctx) {
            this.count = ctx.getState(count);
            this.last = ctx.getState(lastTs);
          },
          processElement(e, ctx, out: Collector<string>) {
            const n = this.count!.value()! + 1;
            this.count!.update(n);
            this.last!.update(e.ts);
            ctx.timerService().registerEventTimeTimer(e.ts + QUIET_MS);
            out.collect(`${ctx.getCurrentKey()} #${n} v${e.v} at ${ctx.timestamp()}`);
          },
          onTimer(ts, ctx, out) {
            if (this.last!.value() === ts - QUIET_MS) out.collect(`${ctx.getCurrentKey()} quiet at ${ts} after ${this.count!.value()} (${ctx.timeDomain()})`);
          },
        })
        .uid("count"),
    );
    const withRuntimeContext = await runWithOneFailure("literal with getRuntimeContext", (env) =>
      keyed(env)
        .process({
          processElement(e, ctx, out: Collector<string>) {
            const state = this.getRuntimeContext().getState(count);
            const n = state.value()! + 1;
            state.update(n);
            this.getRuntimeContext().getState(lastTs).update(e.ts);
            ctx.timerService().registerEventTimeTimer(e.ts + QUIET_MS);
            out.collect(`${ctx.getCurrentKey()} #${n} v${e.v} at ${ctx.timestamp()}`);
          },
          onTimer(ts, ctx, out) {
            const rc = this.getRuntimeContext();
            if (rc.getState(lastTs).value() === ts - QUIET_MS) out.collect(`${ctx.getCurrentKey()} quiet at ${ts} after ${rc.getState(count).value()} (${ctx.timeDomain()})`);
          },
        })
        .uid("count"),
    );
    expect(asClass.some((r) => r.includes("quiet")), "timers fired").toBe(true);
    expect(withFields).toEqual(asClass);
    expect(withRuntimeContext).toEqual(asClass);
  }, 60_000);

  it("a lambda is the processElement of a class", async () => {
    class Describe extends KeyedProcessFunction<string, Ev, string> {
      processElement(e: Ev, ctx: KeyedProcessContext<string>, out: Collector<string>): void {
        out.collect(`${ctx.getCurrentKey()} v${e.v} at ${ctx.timestamp()} wm ${ctx.timerService().currentWatermark() < e.ts}`);
      }
    }
    const keyed = (env: StreamExecutionEnvironment) => eventStream(env, "events", EVENTS, true).keyBy((e) => e.key);
    const asClass = await runWithOneFailure("class", (env) => keyed(env).process(new Describe()));
    const asLambda = await runWithOneFailure("lambda", (env) =>
      keyed(env).process((e, ctx, out: Collector<string>) =>
        out.collect(`${ctx.getCurrentKey()} v${e.v} at ${ctx.timestamp()} wm ${ctx.timerService().currentWatermark() < e.ts}`),
      ),
    );
    expect(asLambda).toEqual(asClass);
  }, 60_000);
});

describe("process function on a non-keyed stream", () => {
  const odd = new OutputTag<number>("odd");
  class Split extends ProcessFunction<Ev, string> {
    private name = "";
    override open(ctx: RuntimeContext): void {
      this.name = ctx.getTaskName();
    }
    processElement(e: Ev, ctx: ProcessContext, out: Collector<string>): void {
      if (e.v % 2 === 1) ctx.output(odd, e.id);
      else out.collect(`${this.name}: ${e.id} at ${ctx.timestamp()}`);
    }
  }
  const withSide = (s: SingleOutputStreamOperator<string>) => s.union(s.getSideOutput(odd).map((id) => `odd ${id}`));

  it("an object literal and a lambda give the class's results (main and side output)", async () => {
    const input = (env: StreamExecutionEnvironment) => eventStream(env, "events", EVENTS, true).rebalance();
    const asClass = await runWithOneFailure("class", (env) => withSide(input(env).process<string>(new Split()).name("split")));
    const asLiteral = await runWithOneFailure("literal", (env) =>
      withSide(
        input(env)
          .process({
            name: "",
            open(ctx) {
              this.name = ctx.getTaskName();
            },
            processElement(e, ctx, out: Collector<string>) {
              if (e.v % 2 === 1) ctx.output(odd, e.id);
              else out.collect(`${this.name}: ${e.id} at ${ctx.timestamp()}`);
            },
          })
          .name("split"),
      ),
    );
    const asLambda = await runWithOneFailure("lambda", (env) =>
      withSide(
        input(env)
          .process((e, ctx, out: Collector<string>) => {
            if (e.v % 2 === 1) ctx.output(odd, e.id);
            else out.collect(`split: ${e.id} at ${ctx.timestamp()}`);
          })
          .name("split"),
      ),
    );
    expect(asClass.some((r) => r.includes("odd"))).toBe(true);
    expect(asLiteral).toEqual(asClass);
    expect(asLambda).toEqual(asClass);
  }, 60_000);
});

describe("operator state and checkpoint hooks", () => {
  const seen = new ListStateDescriptor<number>("seen");

  it("an object literal with initializeState/snapshotState gives the class's results", async () => {
    /** Numbers the records it saw, in operator state (one instance). */
    class Numbering extends ProcessFunction<Ev, string> implements CheckpointedFunction {
      private count = 0;
      private state!: ListState<number>;
      initializeState(ctx: FunctionInitializationContext): void {
        this.state = ctx.getOperatorStateStore().getListState(seen);
        this.count = ctx.isRestored() ? (this.state.get()[0] ?? 0) : 0;
      }
      snapshotState(): void {
        this.state.update([this.count]);
      }
      processElement(e: Ev, _ctx: ProcessContext, out: Collector<string>): void {
        out.collect(`${e.id} #${++this.count}`);
      }
    }
    const input = (env: StreamExecutionEnvironment) => eventStream(env, "events", EVENTS, true);
    const asClass = await runWithOneFailure("class", (env) => input(env).process(new Numbering()).uid("numbering").setParallelism(1));
    const asLiteral = await runWithOneFailure("literal", (env) =>
      input(env)
        .process({
          count: 0,
          state: undefined as ListState<number> | undefined,
          initializeState(ctx) {
            this.state = ctx.getOperatorStateStore().getListState(seen);
            this.count = ctx.isRestored() ? (this.state.get()[0] ?? 0) : 0;
          },
          snapshotState() {
            this.state!.update([this.count]);
          },
          processElement(e, _ctx, out: Collector<string>) {
            out.collect(`${e.id} #${++this.count}`);
          },
        })
        .uid("numbering")
        .setParallelism(1),
    );
    expect(asClass).toContain(`"${EVENTS.length - 1} #${EVENTS.length}"`);
    expect(asLiteral).toEqual(asClass);
  }, 60_000);
});

describe("co-process functions", () => {
  // the two inputs interleave differently in every run: each side keeps its own sum, and timers report their time only
  const sum1 = new ValueStateDescriptor<number>("sum1", 0);
  const sum2 = new ValueStateDescriptor<number>("sum2", 0);

  /** Per key and side, a running sum of the values; a line for every timer registered by the first side. */
  class SumBoth extends KeyedCoProcessFunction<string, Ev, Ev, string> {
    private sum1!: ValueState<number>;
    private sum2!: ValueState<number>;
    override open(): void {
      this.sum1 = this.getRuntimeContext().getState(sum1);
      this.sum2 = this.getRuntimeContext().getState(sum2);
    }
    processElement1(e: Ev, ctx: KeyedProcessContext<string>, out: Collector<string>): void {
      this.sum1.update(this.sum1.value()! + e.v);
      ctx.timerService().registerEventTimeTimer(e.ts + QUIET_MS);
      out.collect(`1 ${ctx.getCurrentKey()} ${this.sum1.value()}`);
    }
    processElement2(e: Ev, ctx: KeyedProcessContext<string>, out: Collector<string>): void {
      this.sum2.update(this.sum2.value()! + e.v);
      out.collect(`2 ${ctx.getCurrentKey()} ${this.sum2.value()}`);
    }
    override onTimer(ts: number, ctx: OnTimerContext<string>, out: Collector<string>): void {
      out.collect(`timer ${ctx.getCurrentKey()} ${ts} ${ctx.timeDomain()}`);
    }
  }

  it("keyed: an object literal with state and timers gives the class's results", async () => {
    const connected = (env: StreamExecutionEnvironment) =>
      eventStream(env, "left", EVENTS, true).keyBy((e) => e.key).connect(eventStream(env, "right", OTHERS, false).keyBy((e) => e.key));
    const asClass = await runWithOneFailure("class", (env) => connected(env).process(new SumBoth()).uid("sum"));
    const asLiteral = await runWithOneFailure("literal", (env) =>
      connected(env)
        .process({
          sum1: undefined as ValueState<number> | undefined,
          open(ctx) {
            this.sum1 = ctx.getState(sum1);
          },
          processElement1(e, ctx, out: Collector<string>) {
            this.sum1!.update(this.sum1!.value()! + e.v);
            ctx.timerService().registerEventTimeTimer(e.ts + QUIET_MS);
            out.collect(`1 ${ctx.getCurrentKey()} ${this.sum1!.value()}`);
          },
          processElement2(e, ctx, out) {
            const sum = this.getRuntimeContext().getState(sum2);
            sum.update(sum.value()! + e.v);
            out.collect(`2 ${ctx.getCurrentKey()} ${sum.value()}`);
          },
          onTimer(ts, ctx, out) {
            out.collect(`timer ${ctx.getCurrentKey()} ${ts} ${ctx.timeDomain()}`);
          },
        })
        .uid("sum"),
    );
    expect(asClass.some((r) => r.includes("timer"))).toBe(true);
    expect(asLiteral).toEqual(asClass);
  }, 60_000);

  it("non-keyed: an object literal gives the class's results; CoMap/CoFlatMap literals with open() give their classes' results", async () => {
    class Tag extends CoProcessFunction<Ev, Ev, string> {
      processElement1(e: Ev, ctx: ProcessContext, out: Collector<string>): void {
        out.collect(`left ${e.id} at ${ctx.timestamp()}`);
      }
      processElement2(e: Ev, ctx: ProcessContext, out: Collector<string>): void {
        out.collect(`right ${e.id} at ${ctx.timestamp()}`);
      }
    }
    class Prefix extends RichFunction implements CoMapFunction<Ev, Ev, string> {
      private prefix = "";
      override open(ctx: RuntimeContext): void {
        this.prefix = `${ctx.getTaskName()}:`;
      }
      map1(e: Ev): string {
        return `${this.prefix}l${e.id}`;
      }
      map2(e: Ev): string {
        return `${this.prefix}r${e.id}`;
      }
    }
    const connected = (env: StreamExecutionEnvironment) => eventStream(env, "left", EVENTS, true).connect(eventStream(env, "right", OTHERS, false));
    const asClass = await runWithOneFailure("class", (env) => {
      const c = connected(env);
      return c.process(new Tag()).union(c.map(new Prefix()).name("prefix"), c.flatMap({ flatMap1: (e: Ev) => [`f${e.id}`], flatMap2: () => [] }));
    });
    const asLiteral = await runWithOneFailure("literal", (env) => {
      const c = connected(env);
      const tagged = c.process({
        processElement1(e, ctx, out: Collector<string>) {
          out.collect(`left ${e.id} at ${ctx.timestamp()}`);
        },
        processElement2(e, ctx, out) {
          out.collect(`right ${e.id} at ${ctx.timestamp()}`);
        },
      });
      const prefixed = c
        .map({
          prefix: "",
          open(ctx) {
            this.prefix = `${ctx.getTaskName()}:`;
          },
          map1(e): string {
            return `${this.prefix}l${e.id}`;
          },
          map2(e): string {
            return `${this.prefix}r${e.id}`;
          },
        })
        .name("prefix");
      const flat = c.flatMap({
        flatMap1(e, out: Collector<string>) {
          out.collect(`f${e.id}`);
        },
        flatMap2() {},
      });
      return tagged.union(prefixed, flat);
    });
    expect(asClass.some((r) => r.includes("prefix:"))).toBe(true);
    expect(asLiteral).toEqual(asClass);
  }, 60_000);
});

describe("broadcast process functions", () => {
  // the inputs interleave differently in every run: the broadcast side reports its state, the keyed side its keyed state and timers
  const maxima = new MapStateDescriptor<string, number>("maxima");

  it("keyed: an object literal with broadcast state, keyed state and timers gives the class's results", async () => {
    class Track extends KeyedBroadcastProcessFunction<string, Ev, Ev, string> {
      processElement(e: Ev, ctx: KeyedReadOnlyBroadcastContext<string>, out: Collector<string>): void {
        const seen = this.getRuntimeContext().getState(count);
        seen.update(seen.value()! + 1);
        ctx.timerService().registerEventTimeTimer(e.ts + QUIET_MS);
        out.collect(`${ctx.getCurrentKey()} ${e.id} #${seen.value()}`);
      }
      processBroadcastElement(l: Ev, ctx: KeyedBroadcastContext, out: Collector<string>): void {
        const state = ctx.getBroadcastState(maxima);
        state.put(l.key, Math.max(l.v, state.get(l.key) ?? 0));
        out.collect(`max ${l.key} ${state.get(l.key)}`);
      }
      override onTimer(ts: number, ctx: KeyedBroadcastOnTimerContext<string>, out: Collector<string>): void {
        out.collect(`${ctx.getCurrentKey()} timer ${ts} ${ctx.timeDomain()}`);
      }
    }
    const connected = (env: StreamExecutionEnvironment) =>
      eventStream(env, "events", EVENTS, true).keyBy((e) => e.key).connect(eventStream(env, "limits", OTHERS, false).broadcast(maxima));
    const asClass = await runWithOneFailure("class", (env) => connected(env).process(new Track()).uid("track"));
    const asLiteral = await runWithOneFailure("literal", (env) =>
      connected(env)
        .process({
          seen: undefined as ValueState<number> | undefined,
          open(ctx) {
            this.seen = ctx.getState(count);
          },
          processElement(e, ctx, out: Collector<string>) {
            this.seen!.update(this.seen!.value()! + 1);
            ctx.timerService().registerEventTimeTimer(e.ts + QUIET_MS);
            out.collect(`${ctx.getCurrentKey()} ${e.id} #${this.seen!.value()}`);
          },
          processBroadcastElement(l, ctx, out) {
            const state = ctx.getBroadcastState(maxima);
            state.put(l.key, Math.max(l.v, state.get(l.key) ?? 0));
            out.collect(`max ${l.key} ${state.get(l.key)}`);
          },
          onTimer(ts, ctx, out) {
            out.collect(`${ctx.getCurrentKey()} timer ${ts} ${ctx.timeDomain()}`);
          },
        })
        .uid("track"),
    );
    expect(asClass.some((r) => r.includes("timer"))).toBe(true);
    expect(asClass.filter((r) => r.startsWith('"max ')).length, "every instance saw every broadcast record").toBe(2 * OTHERS.length);
    expect(asLiteral).toEqual(asClass);
  }, 60_000);

  it("non-keyed: an object literal gives the class's results", async () => {
    class Track extends BroadcastProcessFunction<Ev, Ev, string> {
      processElement(e: Ev, ctx: ReadOnlyBroadcastContext, out: Collector<string>): void {
        out.collect(`${e.id} at ${ctx.timestamp()}`);
      }
      processBroadcastElement(l: Ev, ctx: BroadcastContext, out: Collector<string>): void {
        const state = ctx.getBroadcastState(maxima);
        state.put(l.key, Math.max(l.v, state.get(l.key) ?? 0));
        out.collect(`max ${l.key} ${state.get(l.key)}`);
      }
    }
    const connected = (env: StreamExecutionEnvironment) =>
      eventStream(env, "events", EVENTS, true).rebalance().connect(eventStream(env, "limits", OTHERS, false).broadcast(maxima));
    const asClass = await runWithOneFailure("class", (env) => connected(env).process(new Track()).uid("track"));
    const asLiteral = await runWithOneFailure("literal", (env) =>
      connected(env)
        .process({
          processElement(e, ctx, out: Collector<string>) {
            out.collect(`${e.id} at ${ctx.timestamp()}`);
          },
          processBroadcastElement(l, ctx, out) {
            const state = ctx.getBroadcastState(maxima);
            state.put(l.key, Math.max(l.v, state.get(l.key) ?? 0));
            out.collect(`max ${l.key} ${state.get(l.key)}`);
          },
        })
        .uid("track"),
    );
    expect(asLiteral).toEqual(asClass);
  }, 60_000);
});

describe("interval join", () => {
  it("an object literal and a lambda give the class's pairs", async () => {
    class Pair extends ProcessJoinFunction<Ev, Ev, string> {
      private name = "";
      override open(ctx: RuntimeContext): void {
        this.name = ctx.getTaskName();
      }
      processElement(l: Ev, r: Ev, ctx: ProcessJoinContext, out: Collector<string>): void {
        out.collect(`${this.name} ${l.id}-${r.id} at ${ctx.getTimestamp()}`);
      }
    }
    const joined = (env: StreamExecutionEnvironment) =>
      eventStream(env, "left", EVENTS, true)
        .keyBy((e) => e.key)
        .intervalJoin(eventStream(env, "right", OTHERS, false).keyBy((e) => e.key))
        .between(-30, 30);
    const asClass = await runWithOneFailure("class", (env) => joined(env).process(new Pair()).name("pairs"));
    const asLiteral = await runWithOneFailure("literal", (env) =>
      joined(env)
        .process({
          name: "",
          open(ctx) {
            this.name = ctx.getTaskName();
          },
          processElement(l, r, ctx, out: Collector<string>) {
            out.collect(`${this.name} ${l.id}-${r.id} at ${ctx.getTimestamp()}`);
          },
        })
        .name("pairs"),
    );
    const asLambda = await runWithOneFailure("lambda", (env) =>
      joined(env)
        .process((l, r, ctx, out: Collector<string>) => out.collect(`pairs ${l.id}-${r.id} at ${ctx.getTimestamp()}`))
        .name("pairs"),
    );
    expect(asClass.length).toBeGreaterThan(100);
    expect(asLiteral).toEqual(asClass);
    expect(asLambda).toEqual(asClass);
  }, 60_000);
});
