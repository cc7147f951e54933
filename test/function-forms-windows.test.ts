/**
 * Window functions, window joins and element-wise functions written as object
 * literals or lambdas give the results of the same functions written as
 * classes, with keyed state reached from an object literal, across one injected
 * failure and restore.
 */
import { describe, expect, it } from "vitest";
import {
  ProcessAllWindowFunction,
  ProcessWindowFunction,
  RichFunction,
  TumblingEventTimeWindows,
  ValueStateDescriptor,
  type AggregateFunction,
  type Collector,
  type FlatMapFunctionObject,
  type JoinFunctionObject,
  type CoGroupFunctionObject,
  type ProcessWindowContext,
  type RuntimeContext,
  type StreamExecutionEnvironment,
  type TimeWindow,
  type ValueState,
} from "../src/index.ts";
import { eventStream, events, runWithOneFailure, type Ev } from "./support/fail-once-input.ts";

const EVENTS = events(600, 5);
const OTHERS = events(300, 5, 5);
const WINDOW = TumblingEventTimeWindows.of(100);
const windows = new ValueStateDescriptor<number>("windows", 0);

const windowed = (env: StreamExecutionEnvironment) => eventStream(env, "events", EVENTS, true).keyBy((e) => e.key).window(WINDOW);
// sorted: records of a window may arrive in another order in each run (after a rebalance)
const ids = (es: Iterable<Ev>) => [...es].map((e) => e.id).sort((a, b) => a - b).join(",");

describe("process window functions", () => {
  /** Per key and window: its records, and how many windows of the key fired so far (keyed state across windows). */
  class Describe extends ProcessWindowFunction<Ev, string, string, TimeWindow> {
    process(key: string, ctx: ProcessWindowContext<TimeWindow>, es: Iterable<Ev>, out: Collector<string>): void {
      const fired = this.getRuntimeContext().getState(windows);
      fired.update(fired.value()! + 1);
      out.collect(`${key} [${ctx.window().start}, ${ctx.window().end}) #${fired.value()}: ${ids(es)}`);
    }
  }

  it("an object literal (state from open(ctx)) and a lambda (state from the context) give the class's results", async () => {
    const asClass = await runWithOneFailure("class", (env) => windowed(env).process(new Describe()).uid("windows"));
    const asLiteral = await runWithOneFailure("literal", (env) =>
      windowed(env)
        .process({
          fired: undefined as ValueState<number> | undefined,
          open(ctx) {
            this.fired = ctx.getState(windows);
          },
          process(key, ctx, es, out: Collector<string>) {
            this.fired!.update(this.fired!.value()! + 1);
            out.collect(`${key} [${ctx.window().start}, ${ctx.window().end}) #${this.fired!.value()}: ${ids(es)}`);
          },
          clear() {},
        })
        .uid("windows"),
    );
    const asLambda = await runWithOneFailure("lambda", (env) =>
      windowed(env)
        .process((key, ctx, es, out: Collector<string>) => {
          const fired = ctx.globalState().getState(windows);
          fired.update(fired.value()! + 1);
          out.collect(`${key} [${ctx.window().start}, ${ctx.window().end}) #${fired.value()}: ${ids(es)}`);
        })
        .uid("windows"),
    );
    expect(asClass.length).toBe(new Set(EVENTS.map((e) => `${e.key}@${Math.floor(e.ts / 100)}`)).size);
    expect(asLiteral).toEqual(asClass);
    expect(asLambda).toEqual(asClass);
  }, 60_000);

  it("after reduce and aggregate, an object literal with process gives the class's results", async () => {
    class Label extends ProcessWindowFunction<number, string, string, TimeWindow> {
      process(key: string, ctx: ProcessWindowContext<TimeWindow>, sums: Iterable<number>, out: Collector<string>): void {
        for (const s of sums) out.collect(`${key} ${ctx.window().end} ${s} ${this.getRuntimeContext().getTaskName()}`);
      }
    }
    class LabelReduced extends ProcessWindowFunction<Ev, string, string, TimeWindow> {
      process(key: string, ctx: ProcessWindowContext<TimeWindow>, reduced: Iterable<Ev>, out: Collector<string>): void {
        for (const e of reduced) out.collect(`reduced ${key} ${ctx.window().end} ${e.v}`);
      }
    }
    const sumOfV: AggregateFunction<Ev, number, number> = { createAccumulator: () => 0, add: (e, a) => a + e.v, getResult: (a) => a, merge: (a, b) => a + b };
    const addV = (a: Ev, b: Ev): Ev => ({ ...a, v: a.v + b.v });
    const keyed = (env: StreamExecutionEnvironment) => eventStream(env, "events", EVENTS, true).keyBy((e) => e.key);
    const asClass = await runWithOneFailure("class", (env) => {
      const k = keyed(env);
      return k.window(WINDOW).aggregate(sumOfV, new Label()).name("agg").union(k.window(WINDOW).reduce(addV, new LabelReduced()));
    });
    const asLiteral = await runWithOneFailure("literal", (env) => {
      const k = keyed(env);
      const aggregated = k.window(WINDOW).aggregate(sumOfV, {
        process(key, ctx, sums, out: Collector<string>) {
          for (const s of sums) out.collect(`${key} ${ctx.window().end} ${s} ${this.getRuntimeContext().getTaskName()}`);
        },
      });
      const reduced = k.window(WINDOW).reduce(addV, {
        process(key, ctx, reduced, out: Collector<string>) {
          for (const e of reduced) out.collect(`reduced ${key} ${ctx.window().end} ${e.v}`);
        },
      });
      return aggregated.name("agg").union(reduced);
    });
    expect(asClass.some((r) => r.startsWith('"reduced'))).toBe(true);
    expect(asLiteral).toEqual(asClass);
  }, 60_000);

  it("windowAll: an object literal and a lambda give the class's results", async () => {
    class Count extends ProcessAllWindowFunction<Ev, string, TimeWindow> {
      process(ctx: ProcessWindowContext<TimeWindow>, es: Iterable<Ev>, out: Collector<string>): void {
        out.collect(`${ctx.window().start} ${[...es].length} by ${this.getRuntimeContext().getTaskName()}`);
      }
    }
    const all = (env: StreamExecutionEnvironment) => eventStream(env, "events", EVENTS, true).windowAll(WINDOW);
    const asClass = await runWithOneFailure("class", (env) => all(env).process(new Count()).name("count"));
    const asLiteral = await runWithOneFailure("literal", (env) =>
      all(env)
        .process({
          process(ctx, es, out: Collector<string>) {
            out.collect(`${ctx.window().start} ${[...es].length} by ${this.getRuntimeContext().getTaskName()}`);
          },
        })
        .name("count"),
    );
    const asLambda = await runWithOneFailure("lambda", (env) =>
      all(env)
        .process((ctx, es, out: Collector<string>) => out.collect(`${ctx.window().start} ${[...es].length} by count`))
        .name("count"),
    );
    expect(asClass.length).toBe(EVENTS.length / 10);
    expect(asLiteral).toEqual(asClass);
    expect(asLambda).toEqual(asClass);
  }, 60_000);
});

describe("window join and coGroup", () => {
  const bothSides = (env: StreamExecutionEnvironment) => [eventStream(env, "left", EVENTS, true), eventStream(env, "right", OTHERS, false)] as const;

  it("join: an object literal with open() and a lambda give a class's pairs", async () => {
    class Pair extends RichFunction implements JoinFunctionObject<Ev, Ev, string> {
      private name = "";
      override open(ctx: RuntimeContext): void {
        this.name = ctx.getTaskName();
      }
      join(a: Ev, b: Ev): string {
        return `${this.name}: ${a.id}-${b.id}`;
      }
    }
    const join = (env: StreamExecutionEnvironment) => {
      const [l, r] = bothSides(env);
      return l.join(r).where((e) => e.key).equalTo((e) => e.key).window(WINDOW);
    };
    const asClass = await runWithOneFailure("class", (env) => join(env).apply(new Pair()));
    const asLiteral = await runWithOneFailure("literal", (env) =>
      join(env).apply({
        name: "",
        open(ctx) {
          this.name = ctx.getTaskName();
        },
        join(a, b): string {
          return `${this.name}: ${a.id}-${b.id}`;
        },
      }),
    );
    const asLambda = await runWithOneFailure("lambda", (env) => join(env).apply((a, b) => `Window Join: ${a.id}-${b.id}`));
    expect(asClass.length).toBeGreaterThan(100);
    expect(asClass[0]).toContain("Window Join: ");
    expect(asLiteral).toEqual(asClass);
    expect(asLambda).toEqual(asClass);
  }, 60_000);

  it("coGroup: an object literal with keyed state gives a class's results", async () => {
    class Sizes extends RichFunction implements CoGroupFunctionObject<Ev, Ev, string> {
      coGroup(as: Ev[], bs: Ev[], out: Collector<string>): void {
        const groups = this.getRuntimeContext().getState(windows);
        groups.update(groups.value()! + 1);
        out.collect(`${as.length}/${bs.length} #${groups.value()} ${ids(as)}`);
      }
    }
    const coGroup = (env: StreamExecutionEnvironment) => {
      const [l, r] = bothSides(env);
      return l.coGroup(r).where((e) => e.key).equalTo((e) => e.key).window(WINDOW);
    };
    const asClass = await runWithOneFailure("class", (env) => coGroup(env).apply(new Sizes()));
    const asLiteral = await runWithOneFailure("literal", (env) =>
      coGroup(env).apply({
        groups: undefined as ValueState<number> | undefined,
        open(ctx) {
          this.groups = ctx.getState(windows);
        },
        coGroup(as, bs, out: Collector<string>) {
          this.groups!.update(this.groups!.value()! + 1);
          out.collect(`${as.length}/${bs.length} #${this.groups!.value()} ${ids(as)}`);
        },
      }),
    );
    expect(asLiteral).toEqual(asClass);
  }, 60_000);
});

describe("map, filter and flatMap", () => {
  it("object literals with open() and fields of their own give their classes' results", async () => {
    class Tag extends RichFunction {
      private tag = "";
      override open(ctx: RuntimeContext): void {
        this.tag = ctx.getTaskName();
      }
      map(e: Ev): string {
        return `${this.tag} ${e.id}`;
      }
    }
    class Split extends RichFunction implements FlatMapFunctionObject<string, string> {
      flatMap(s: string): string[] {
        return s.split(" ");
      }
    }
    const input = (env: StreamExecutionEnvironment) => eventStream(env, "events", EVENTS, true).rebalance();
    const asClass = await runWithOneFailure("class", (env) =>
      input(env).map(new Tag()).name("tag").filter((s) => s.endsWith("7")).flatMap(new Split()),
    );
    const asLiteral = await runWithOneFailure("literal", (env) =>
      input(env)
        .map({
          tag: "",
          open(ctx) {
            this.tag = ctx.getTaskName();
          },
          map(e): string {
            return `${this.tag} ${e.id}`;
          },
        })
        .name("tag")
        .filter({ digit: "7", filter(s): boolean { return s.endsWith(this.digit); } })
        .flatMap({ flatMap: (s: string) => s.split(" ") }),
    );
    expect(asClass).toContain('"tag"');
    expect(asLiteral).toEqual(asClass);
  }, 60_000);
});
