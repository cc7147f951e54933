/**
 * `keyedStream.window(assigner)`: configures a window operator (trigger,
 * evictor, allowed lateness, late-data side output) and ends with the function
 * applied to each window (reduce, aggregate, process, apply, sum).
 */
import type { ReduceFunction } from "../core/functions.ts";
import { reduceCall } from "../core/functions.ts";
import type { OutputTag } from "../core/output-tag.ts";
import type { KeySelector } from "../graph/stream-graph.ts";
import { aggregationName, FieldAggregation, type AggregationArgs, type AggregationKind } from "./built-in-aggregations.ts";
import type { AggregateFunction } from "../state/index.ts";
import type { Evictor } from "../time/windows/evictor.ts";
import type { Trigger } from "../time/windows/trigger.ts";
import type { Window } from "../time/windows/window.ts";
import type { WindowAssigner } from "../time/windows/window-assigner.ts";
import {
  AggregatingWindowContents,
  ListWindowContents,
  ReducingWindowContents,
  type WindowContentsFactory,
} from "../time/windows/window-contents.ts";
import {
  fromProcessWindowFunction,
  fromWindowFunction,
  passThrough,
  preAggregated,
  type InternalWindowFunction,
  type ProcessWindowFunctionLike,
  type ProcessWindowFunctionLiteral,
  type ProcessWindowFunctionObject,
  type WindowFunction,
} from "../time/windows/window-functions.ts";
import { asFunctionObject } from "../core/function-object.ts";
import { WindowOperator } from "../runtime/operators/window-operator.ts";
import { cloneFunction, SingleOutputStreamOperator, type DataStream } from "./data-stream.ts";

/** Creates the window function of one parallel instance. */
type FunctionFactory<OUT, K, W extends Window> = () => InternalWindowFunction<unknown, OUT, K, W>;

/**
 * A keyed stream grouped into windows.
 *
 * @example
 * ```ts
 * const late = new OutputTag<Bid>("late-bids");
 * const totals = bids
 *   .keyBy((b) => b.item)
 *   .window(TumblingEventTimeWindows.of(60_000))
 *   .allowedLateness(10_000)
 *   .sideOutputLateData(late)
 *   .aggregate(sumOfPrices, new LabelWithWindow());
 * totals.getSideOutput(late).print("late");
 * ```
 */
export class WindowedStream<T, K, W extends Window> {
  private windowTrigger?: Trigger<T, W>;
  private windowEvictor?: Evictor<T, W>;
  private lateness = 0;
  private lateTag?: OutputTag<T>;

  /** @internal Use `keyedStream.window(assigner)`. */
  constructor(
    private readonly input: DataStream<T>,
    private readonly assigner: WindowAssigner<T, W>,
  ) {}

  /** Replaces the assigner's default trigger. */
  trigger(trigger: Trigger<T, W>): this {
    this.windowTrigger = trigger;
    return this;
  }

  /** Removes records before/after the function runs; the window then keeps all its records (no incremental aggregation). */
  evictor(evictor: Evictor<T, W>): this {
    this.windowEvictor = evictor;
    return this;
  }

  /**
   * Keeps each event-time window for `ms` after its end: a late record within that
   * time is added and fires the window again (with the default trigger).
   */
  allowedLateness(ms: number): this {
    if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`allowed lateness must be a whole number of milliseconds ≥ 0, got ${ms}`);
    if (ms > 0 && !this.assigner.isEventTime())
      throw new RangeError(`allowed lateness applies to event-time windows only, not to ${this.assigner.toString()}`);
    this.lateness = ms;
    return this;
  }

  /** Sends records later than the allowed lateness to this side output (read with `getSideOutput(tag)`) instead of dropping them. */
  sideOutputLateData(tag: OutputTag<T>): this {
    this.lateTag = tag;
    return this;
  }

  /**
   * Incremental reduce per window; with a window function, it gets the reduced
   * value when the window fires: a ProcessWindowFunction or an object literal with
   * `process` (key, context, values, out), or a WindowFunction — a function
   * `(key, window, values, out)` or an object with `apply`.
   *
   * @example
   * ```ts
   * stream.keyBy((r) => r.id).window(TumblingEventTimeWindows.of(1_000)).reduce((a, b) => ({ ...a, n: a.n + b.n }));
   * ```
   */
  reduce(fn: ReduceFunction<T>): SingleOutputStreamOperator<T>;
  reduce<R, S = unknown>(fn: ReduceFunction<T>, windowFn: ProcessWindowFunctionLiteral<T, R, K, W, S> | WindowFunction<T, R, K, W>): SingleOutputStreamOperator<R>;
  reduce<R>(fn: ReduceFunction<T>, windowFn?: ProcessWindowFunctionObject<T, R, K, W> | WindowFunction<T, R, K, W>): SingleOutputStreamOperator<R> {
    const reduce = reduceCall(fn);
    const next = (): InternalWindowFunction<T, R, K, W> => (windowFn ? adapt(windowFn) : (passThrough<T>() as unknown as InternalWindowFunction<T, R, K, W>));
    if (this.windowEvictor)
      return this.build("Reduce", (b, uid) => new ListWindowContents(b, uid), () => preAggregated((xs: T[]) => xs.reduce((a, b) => reduce(a, b)), next()));
    return this.build("Reduce", (b, uid) => new ReducingWindowContents<T>(b, uid, reduce), next as FunctionFactory<R, K, W>);
  }

  /**
   * Incremental aggregation per window (an accumulator per key and window); with a
   * window function, it gets the aggregate's result when the window fires (a
   * process window function, class or object literal with `process`, or a WindowFunction).
   *
   * @example
   * ```ts
   * const average: AggregateFunction<number, [number, number], number> = {
   *   createAccumulator: () => [0, 0], add: (v, [s, n]) => [s + v, n + 1],
   *   getResult: ([s, n]) => s / n, merge: ([s1, n1], [s2, n2]) => [s1 + s2, n1 + n2],
   * };
   * readings.keyBy((r) => r.sensor).window(SlidingEventTimeWindows.of(10_000, 1_000)).aggregate(average);
   * ```
   */
  aggregate<ACC, V>(agg: AggregateFunction<T, ACC, V>): SingleOutputStreamOperator<V>;
  aggregate<ACC, V, R, S = unknown>(
    agg: AggregateFunction<T, ACC, V>,
    windowFn: ProcessWindowFunctionLiteral<V, R, K, W, S> | WindowFunction<V, R, K, W>,
  ): SingleOutputStreamOperator<R>;
  aggregate<ACC, V, R>(agg: AggregateFunction<T, ACC, V>, windowFn?: ProcessWindowFunctionObject<V, R, K, W> | WindowFunction<V, R, K, W>): SingleOutputStreamOperator<R> {
    const next = (): InternalWindowFunction<V, R, K, W> => (windowFn ? adapt(windowFn) : (passThrough<V>() as unknown as InternalWindowFunction<V, R, K, W>));
    if (this.windowEvictor) {
      const all = (xs: T[]) => agg.getResult(xs.reduce((acc, x) => agg.add(x, acc), agg.createAccumulator()));
      return this.build("Aggregate", (b, uid) => new ListWindowContents(b, uid), () => preAggregated(all, next()));
    }
    return this.build("Aggregate", (b, uid) => new AggregatingWindowContents<T, ACC>(b, uid, agg), () => preAggregated((accs: ACC[]) => agg.getResult(accs[0]!), next()));
  }

  /**
   * Processes all records of each window when it fires: a ProcessWindowFunction,
   * an object literal with `process` (and `clear`, `open(context)`, `close()`), or
   * the `process` function alone.
   *
   * @example
   * ```ts
   * stream.keyBy((c) => c.user).window(EventTimeSessionWindows.withGap(1_800_000)).process(new SessionSummary());
   * stream.keyBy((c) => c.user).window(TumblingEventTimeWindows.of(60_000))
   *   .process((user, ctx, clicks, out: Collector<string>) => out.collect(`${user}: ${[...clicks].length} until ${ctx.window().end}`));
   * ```
   */
  process<R, S = unknown>(fn: ProcessWindowFunctionLike<T, R, K, W, S>): SingleOutputStreamOperator<R> {
    const f = asFunctionObject<ProcessWindowFunctionObject<T, R, K, W>>(fn, "process");
    return this.build("Process", (b, uid) => new ListWindowContents(b, uid), () => adapt(f));
  }

  /**
   * Applies a WindowFunction to all records of each window.
   *
   * @example
   * ```ts
   * stream.keyBy((e) => e.k).window(TumblingEventTimeWindows.of(1_000))
   *   .apply((key, window, events, out) => out.collect([key, window.end, [...events].length]));
   * ```
   */
  apply<R>(fn: WindowFunction<T, R, K, W>): SingleOutputStreamOperator<R> {
    return this.build("Apply", (b, uid) => new ListWindowContents(b, uid), () => fromWindowFunction(cloneFunction(fn)));
  }

  /**
   * Sum of the records (numbers or bigints) or of one numeric field per window;
   * the other fields are the first record's. Only numeric fields compile; a
   * record whose field is missing or not a number fails the job with an AggregationFieldError.
   *
   * @example
   * ```ts
   * clicks.keyBy((c) => c.user).window(TumblingEventTimeWindows.of(60_000)).sum("count");
   * ```
   */
  sum(...[field]: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return this.aggregateField("sum", field);
  }

  /** Minimum of the records or of one numeric field per window; other fields are the first record's. */
  min(...[field]: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return this.aggregateField("min", field);
  }

  /** Maximum of the records or of one numeric field per window; other fields are the first record's. */
  max(...[field]: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return this.aggregateField("max", field);
  }

  /** The record with the smallest value in the numeric `field` per window (the first one on ties). */
  minBy(...[field]: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return this.aggregateField("minBy", field);
  }

  /** The record with the largest value in the numeric `field` per window (the first one on ties). */
  maxBy(...[field]: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return this.aggregateField("maxBy", field);
  }

  /** A built-in aggregation: incremental like `reduce`, its own function per instance (which names the operator in its errors). */
  private aggregateField(kind: AggregationKind, field: string | number | undefined): SingleOutputStreamOperator<T> {
    const name = field === undefined ? undefined : String(field);
    const evicting = this.windowEvictor !== undefined;
    return this.buildParts<T>(aggregationName(kind), () => {
      const agg = new FieldAggregation<T>(kind, name);
      const emit: InternalWindowFunction<T, T, K, W> = { ...(passThrough<T>() as InternalWindowFunction<T, T, K, W>), udf: agg };
      if (evicting) return { contents: (b, uid) => new ListWindowContents(b, uid), fn: preAggregated((xs: T[]) => agg.fold(xs), emit) };
      return {
        contents: (b, uid) => new ReducingWindowContents<T>(b, uid, agg.reduce, (x) => agg.first(x)),
        fn: emit,
      };
    });
  }

  /** @internal Adds the window operator node. */
  private build<R>(what: string, contents: WindowContentsFactory<T>, fn: () => InternalWindowFunction<never, R, K, W>): SingleOutputStreamOperator<R> {
    return this.buildParts(what, () => ({ contents, fn: fn() }));
  }

  /** @internal Adds the window operator node; `parts` makes the contents and the function of one parallel instance. */
  private buildParts<R>(what: string, parts: () => WindowParts<T, R, K, W>): SingleOutputStreamOperator<R> {
    const assigner = this.assigner;
    const trigger = this.windowTrigger ?? assigner.getDefaultTrigger();
    const evictor = this.windowEvictor;
    const allowedLateness = this.lateness;
    const lateDataTag = this.lateTag?.id;
    const key = this.input.upstreams[0]!.keySelector as KeySelector;
    const node = this.input.getExecutionEnvironment().addNode({
      type: evictor ? "evicting-window" : "window",
      name: `Window(${assigner.toString()}, ${trigger.toString()}${evictor ? ", evictor" : ""}, ${what})`,
      inputs: this.input.upstreams.map((u) => ({ from: u.node, partitioning: u.partitioning ?? "forward", keySelector: u.keySelector, sideTag: u.sideTag })),
      keySelector: key,
      createOperator: () => {
        const { contents, fn } = parts();
        return new WindowOperator<T, R, W>({
          assigner,
          trigger,
          evictor,
          allowedLateness,
          lateDataTag,
          contents,
          fn: fn as unknown as InternalWindowFunction<unknown, R, unknown, W>,
        });
      },
    });
    return new SingleOutputStreamOperator<R>(this.input.getExecutionEnvironment(), node);
  }
}

/** The contents and the function of one window operator instance. */
interface WindowParts<T, R, K, W extends Window> {
  contents: WindowContentsFactory<T>;
  fn: InternalWindowFunction<never, R, K, W>;
}

/** A per-instance copy of a user window function, adapted to the operator. */
function adapt<IN, OUT, K, W extends Window>(fn: ProcessWindowFunctionObject<IN, OUT, K, W> | WindowFunction<IN, OUT, K, W>): InternalWindowFunction<IN, OUT, K, W> {
  if (typeof fn === "object" && "process" in fn) return fromProcessWindowFunction(cloneFunction(fn));
  return fromWindowFunction(cloneFunction(fn));
}
