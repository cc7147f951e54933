/**
 * Window functions of `windowAll` (no key): ProcessAllWindowFunction and
 * AllWindowFunction, adapted to the keyed forms the window operator runs
 * (over one constant key).
 */
import type { Collector } from "../../core/collector.ts";
import { functionView, type FunctionLifecycle, type FunctionObject } from "../../core/function-object.ts";
import { RichFunction } from "../../core/rich-function.ts";
import type { Window } from "./window.ts";
import type { ProcessWindowContext, ProcessWindowFunctionObject, WindowFunction } from "./window-functions.ts";

/** The methods of a process window function of a non-keyed stream. */
export interface ProcessAllWindowFunctionObject<IN, OUT, W extends Window> extends FunctionLifecycle {
  process(context: ProcessWindowContext<W>, elements: Iterable<IN>, out: Collector<OUT>): void;
  /** The window is removed: clear what you kept in `windowState()`. */
  clear?(context: ProcessWindowContext<W>): void;
}

/**
 * Processes all records of a window of a non-keyed stream.
 *
 * @example
 * ```ts
 * class Top3 extends ProcessAllWindowFunction<Score, Score[], TimeWindow> {
 *   process(_ctx: ProcessWindowContext<TimeWindow>, scores: Iterable<Score>, out: Collector<Score[]>) {
 *     out.collect([...scores].sort((a, b) => b.points - a.points).slice(0, 3));
 *   }
 * }
 * scores.windowAll(TumblingEventTimeWindows.of(60_000)).process(new Top3());
 * ```
 */
export abstract class ProcessAllWindowFunction<IN, OUT, W extends Window> extends RichFunction implements ProcessAllWindowFunctionObject<IN, OUT, W> {
  abstract process(context: ProcessWindowContext<W>, elements: Iterable<IN>, out: Collector<OUT>): void;
  /** The window is removed: clear what you kept in `windowState()`. */
  clear?(context: ProcessWindowContext<W>): void;
}

/** A process window function of a non-keyed stream as an object literal with `process` (and `clear`, `open(context)`, `close()`). */
export type ProcessAllWindowFunctionLiteral<IN, OUT, W extends Window, S = unknown> = FunctionObject<ProcessAllWindowFunctionObject<IN, OUT, W>, S>;

/**
 * What `allWindowedStream.process(...)` takes: a ProcessAllWindowFunction, an
 * object literal with `process` (and `clear`, `open(context)`, `close()`), or the
 * `process` function alone.
 *
 * @example
 * ```ts
 * scores.windowAll(TumblingEventTimeWindows.of(60_000))
 *   .process((ctx, scores, out: Collector<Score[]>) => out.collect([...scores].sort((a, b) => b.points - a.points).slice(0, 3)));
 * ```
 */
export type ProcessAllWindowFunctionLike<IN, OUT, W extends Window, S = unknown> =
  | ProcessAllWindowFunctionLiteral<IN, OUT, W, S>
  | ((context: ProcessWindowContext<W>, elements: Iterable<IN>, out: Collector<OUT>) => void);

/** All records of a window of a non-keyed stream: a function or an object with `apply`. */
export type AllWindowFunction<IN, OUT, W extends Window> =
  | ((window: W, input: Iterable<IN>, out: Collector<OUT>) => void)
  | { apply(window: W, input: Iterable<IN>, out: Collector<OUT>): void };

/** A keyed view of a process all-window function (the key is ignored); lifecycle hooks reach the original. */
export function keyedProcessAll<IN, OUT, W extends Window>(f: ProcessAllWindowFunctionObject<IN, OUT, W>): ProcessWindowFunctionObject<IN, OUT, unknown, W> {
  const process = f.process;
  return functionView(f, {
    process(_key: unknown, ctx: ProcessWindowContext<W>, elements: Iterable<IN>, out: Collector<OUT>) {
      process.call(this, ctx, elements, out);
    },
  });
}

/** A keyed view of an AllWindowFunction. */
export function keyedApplyAll<IN, OUT, W extends Window>(f: AllWindowFunction<IN, OUT, W>): WindowFunction<IN, OUT, unknown, W> {
  const call = typeof f === "function" ? f : (w: W, i: Iterable<IN>, o: Collector<OUT>) => f.apply(w, i, o);
  return (_key, window, input, out) => call(window, input, out);
}
