/**
 * `stream.windowAll(assigner)`: windows over a whole (non-keyed) stream. As in
 * Flink, it runs in one parallel instance: every record gets one constant key.
 */
import type { ReduceFunction } from "../core/functions.ts";
import type { OutputTag } from "../core/output-tag.ts";
import type { AggregateFunction } from "../state/index.ts";
import { asFunctionObject } from "../core/function-object.ts";
import {
  keyedApplyAll,
  keyedProcessAll,
  type AllWindowFunction,
  type ProcessAllWindowFunctionLike,
  type ProcessAllWindowFunctionLiteral,
  type ProcessAllWindowFunctionObject,
} from "../time/windows/all-window-functions.ts";
import type { Evictor } from "../time/windows/evictor.ts";
import type { Trigger } from "../time/windows/trigger.ts";
import type { Window } from "../time/windows/window.ts";
import type { WindowAssigner } from "../time/windows/window-assigner.ts";
import type { AggregationArgs } from "./built-in-aggregations.ts";
import type { DataStream, SingleOutputStreamOperator } from "./data-stream.ts";
import { WindowedStream } from "./windowed-stream.ts";

/** The one key of `windowAll`. */
const ALL = 0;

/**
 * A non-keyed stream grouped into windows (parallelism 1).
 *
 * @example
 * ```ts
 * env.fromElements(...events)
 *   .assignTimestampsAndWatermarks(WatermarkStrategy.forMonotonousTimestamps<Ev>().withTimestampAssigner((e) => e.ts))
 *   .windowAll(TumblingEventTimeWindows.of(1_000))
 *   .aggregate(countAll)
 *   .print();
 * ```
 */
export class AllWindowedStream<T, W extends Window> {
  private readonly windowed: WindowedStream<T, number, W>;

  /** @internal Use `stream.windowAll(assigner)`. */
  constructor(input: DataStream<T>, assigner: WindowAssigner<T, W>) {
    this.windowed = new WindowedStream<T, number, W>(input.keyBy(() => ALL), assigner);
  }

  /** Replaces the assigner's default trigger. */
  trigger(trigger: Trigger<T, W>): this {
    this.windowed.trigger(trigger);
    return this;
  }

  /** Removes records before/after the function runs. */
  evictor(evictor: Evictor<T, W>): this {
    this.windowed.evictor(evictor);
    return this;
  }

  /** Keeps each event-time window for `ms` after its end for late records. */
  allowedLateness(ms: number): this {
    this.windowed.allowedLateness(ms);
    return this;
  }

  /** Sends records later than the allowed lateness to this side output. */
  sideOutputLateData(tag: OutputTag<T>): this {
    this.windowed.sideOutputLateData(tag);
    return this;
  }

  /**
   * Incremental reduce per window, optionally followed by a window function: a
   * ProcessAllWindowFunction or an object literal with `process` (context, values,
   * out), or an AllWindowFunction — a function `(window, values, out)` or an object with `apply`.
   */
  reduce(fn: ReduceFunction<T>): SingleOutputStreamOperator<T>;
  reduce<R, S = unknown>(fn: ReduceFunction<T>, windowFn: ProcessAllWindowFunctionLiteral<T, R, W, S> | AllWindowFunction<T, R, W>): SingleOutputStreamOperator<R>;
  reduce<R>(fn: ReduceFunction<T>, windowFn?: ProcessAllWindowFunctionObject<T, R, W> | AllWindowFunction<T, R, W>): SingleOutputStreamOperator<R> {
    const r = windowFn ? this.windowed.reduce(fn, keyed(windowFn)) : this.windowed.reduce(fn);
    return single(r as SingleOutputStreamOperator<R>);
  }

  /** Incremental aggregation per window, optionally followed by a window function (as for `reduce`). */
  aggregate<ACC, V>(agg: AggregateFunction<T, ACC, V>): SingleOutputStreamOperator<V>;
  aggregate<ACC, V, R, S = unknown>(
    agg: AggregateFunction<T, ACC, V>,
    windowFn: ProcessAllWindowFunctionLiteral<V, R, W, S> | AllWindowFunction<V, R, W>,
  ): SingleOutputStreamOperator<R>;
  aggregate<ACC, V, R>(agg: AggregateFunction<T, ACC, V>, windowFn?: ProcessAllWindowFunctionObject<V, R, W> | AllWindowFunction<V, R, W>): SingleOutputStreamOperator<R> {
    const r = windowFn ? this.windowed.aggregate(agg, keyed(windowFn)) : this.windowed.aggregate(agg);
    return single(r as SingleOutputStreamOperator<R>);
  }

  /**
   * Processes all records of each window when it fires: a ProcessAllWindowFunction,
   * an object literal with `process` (and `clear`, `open(context)`, `close()`), or
   * the `process` function alone.
   *
   * @example
   * ```ts
   * scores.windowAll(TumblingEventTimeWindows.of(60_000)).process((ctx, scores, out: Collector<number>) => out.collect([...scores].length));
   * ```
   */
  process<R, S = unknown>(fn: ProcessAllWindowFunctionLike<T, R, W, S>): SingleOutputStreamOperator<R> {
    return single(this.windowed.process(keyedProcessAll(asFunctionObject<ProcessAllWindowFunctionObject<T, R, W>>(fn, "process"))));
  }

  /** Applies an AllWindowFunction to all records of each window. */
  apply<R>(fn: AllWindowFunction<T, R, W>): SingleOutputStreamOperator<R> {
    return single(this.windowed.apply(keyedApplyAll(fn)));
  }

  /** Sum of the records (numbers or bigints) or of one numeric field per window. */
  sum(...field: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return single(this.windowed.sum(...field));
  }

  /** Minimum of the records or of one numeric field per window. */
  min(...field: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return single(this.windowed.min(...field));
  }

  /** Maximum of the records or of one numeric field per window. */
  max(...field: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return single(this.windowed.max(...field));
  }

  /** The record with the smallest value in the numeric `field` per window. */
  minBy(...field: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return single(this.windowed.minBy(...field));
  }

  /** The record with the largest value in the numeric `field` per window. */
  maxBy(...field: AggregationArgs<T>): SingleOutputStreamOperator<T> {
    return single(this.windowed.maxBy(...field));
  }
}

function keyed<IN, OUT, W extends Window>(f: ProcessAllWindowFunctionObject<IN, OUT, W> | AllWindowFunction<IN, OUT, W>) {
  return typeof f === "object" && "process" in f ? keyedProcessAll(f) : keyedApplyAll(f);
}

/** windowAll runs in one instance. */
function single<R>(op: SingleOutputStreamOperator<R>): SingleOutputStreamOperator<R> {
  return op.setParallelism(1);
}
