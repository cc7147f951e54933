/**
 * The functions applied to a window's contents when it fires: a
 * ProcessWindowFunction (all records, with context), a WindowFunction (all
 * records, with the window), or — after incremental `reduce`/`aggregate` —
 * either of them on the single pre-aggregated value.
 */
import type { Collector } from "../../core/collector.ts";
import type { FunctionLifecycle, FunctionObject } from "../../core/function-object.ts";
import type { OutputTag } from "../../core/output-tag.ts";
import { RichFunction } from "../../core/rich-function.ts";
import type { RuntimeContext } from "../../core/runtime-context.ts";
import type { WindowStateStore } from "./trigger.ts";
import type { Window } from "./window.ts";

/** Keyed state of the current key across all its windows. */
export type KeyedStateStore = Pick<RuntimeContext, "getState" | "getListState" | "getMapState" | "getReducingState" | "getAggregatingState">;

/** The context of {@link ProcessWindowFunction.process}. */
export interface ProcessWindowContext<W extends Window> {
  /** The window that fired. */
  window(): W;
  currentProcessingTime(): number;
  currentWatermark(): number;
  /** State of the current key and this window (cleared with the window). */
  windowState(): WindowStateStore;
  /** State of the current key, shared by all its windows. */
  globalState(): KeyedStateStore;
  /** Emits to a side output. */
  output<X>(tag: OutputTag<X>, value: X): void;
}

/** The methods of a process window function. */
export interface ProcessWindowFunctionObject<IN, OUT, K, W extends Window> extends FunctionLifecycle {
  process(key: K, context: ProcessWindowContext<W>, elements: Iterable<IN>, out: Collector<OUT>): void;
  /** The window is removed (its end plus allowed lateness passed): clear what you kept in `windowState()`. */
  clear?(context: ProcessWindowContext<W>): void;
}

/**
 * Processes all records of a window when it fires (Flink's ProcessWindowFunction).
 *
 * @example
 * ```ts
 * class CountPerWindow extends ProcessWindowFunction<Click, [string, number, number], string, TimeWindow> {
 *   process(user: string, ctx: ProcessWindowContext<TimeWindow>, clicks: Iterable<Click>, out: Collector<[string, number, number]>) {
 *     out.collect([user, ctx.window().end, [...clicks].length]);
 *   }
 * }
 * stream.keyBy((c) => c.user).window(TumblingEventTimeWindows.of(60_000)).process(new CountPerWindow());
 * ```
 */
export abstract class ProcessWindowFunction<IN, OUT, K, W extends Window>
  extends RichFunction
  implements ProcessWindowFunctionObject<IN, OUT, K, W>
{
  abstract process(key: K, context: ProcessWindowContext<W>, elements: Iterable<IN>, out: Collector<OUT>): void;
  /** The window is removed (its end plus allowed lateness passed): clear what you kept in `windowState()`. */
  clear?(context: ProcessWindowContext<W>): void;
}

/**
 * A process window function given as an object literal with `process` (and
 * `clear`, `open(context)`, `close()`): what `reduce`/`aggregate` take as their
 * window function besides a ProcessWindowFunction or a WindowFunction.
 */
export type ProcessWindowFunctionLiteral<IN, OUT, K, W extends Window, S = unknown> = FunctionObject<ProcessWindowFunctionObject<IN, OUT, K, W>, S>;

/**
 * What `windowedStream.process(...)` takes: a ProcessWindowFunction, an object
 * literal with `process` (and `clear`, `open(context)`, `close()`), or the
 * `process` function alone.
 *
 * @example
 * ```ts
 * clicks.keyBy((c) => c.user).window(TumblingEventTimeWindows.of(60_000))
 *   .process((user, ctx, clicks, out: Collector<[string, number, number]>) => out.collect([user, ctx.window().end, [...clicks].length]));
 * ```
 */
export type ProcessWindowFunctionLike<IN, OUT, K, W extends Window, S = unknown> =
  | ProcessWindowFunctionLiteral<IN, OUT, K, W, S>
  | ((key: K, context: ProcessWindowContext<W>, elements: Iterable<IN>, out: Collector<OUT>) => void);

/** All records of a window with its key and window (Flink's WindowFunction): a function or an object with `apply`. */
export type WindowFunction<IN, OUT, K, W extends Window> =
  | ((key: K, window: W, input: Iterable<IN>, out: Collector<OUT>) => void)
  | { apply(key: K, window: W, input: Iterable<IN>, out: Collector<OUT>): void };

/** The context-rich function the operator calls when a window fires (every user function is adapted to it). */
export interface InternalWindowFunction<IN, OUT, K, W extends Window> {
  /** The wrapped user function (for its lifecycle: runtime context, open, close). */
  readonly udf: unknown;
  process(key: K, context: ProcessWindowContext<W>, input: Iterable<IN>, out: Collector<OUT>): void;
  clear(context: ProcessWindowContext<W>): void;
}

/** Emits the single pre-aggregated value itself (reduce/aggregate without a window function). */
export function passThrough<T>(): InternalWindowFunction<T, T, unknown, Window> {
  return {
    udf: undefined,
    process: (_k, _c, input, out) => {
      for (const v of input) out.collect(v);
    },
    clear: () => {},
  };
}

/** Adapts a process window function (class or object). */
export function fromProcessWindowFunction<IN, OUT, K, W extends Window>(f: ProcessWindowFunctionObject<IN, OUT, K, W>): InternalWindowFunction<IN, OUT, K, W> {
  return {
    udf: f,
    process: (k, c, input, out) => f.process(k, c, input, out),
    clear: (c) => f.clear?.(c),
  };
}

/** Adapts a WindowFunction. */
export function fromWindowFunction<IN, OUT, K, W extends Window>(f: WindowFunction<IN, OUT, K, W>): InternalWindowFunction<IN, OUT, K, W> {
  const call = typeof f === "function" ? f : (k: K, w: W, i: Iterable<IN>, o: Collector<OUT>) => f.apply(k, w, i, o);
  return {
    udf: f,
    process: (k, c, input, out) => call(k, c.window(), input, out),
    clear: () => {},
  };
}

/** Folds the window's records into one value before handing it to `next` (aggregate's getResult, or reduce/aggregate over an evicting window). */
export function preAggregated<A, B, OUT, K, W extends Window>(
  fold: (input: A[]) => B,
  next: InternalWindowFunction<B, OUT, K, W>,
): InternalWindowFunction<A, OUT, K, W> {
  return {
    udf: next.udf,
    process: (k, c, input, out) => next.process(k, c, [fold(Array.isArray(input) ? input : [...input])], out),
    clear: (c) => next.clear(c),
  };
}
