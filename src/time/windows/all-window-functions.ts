/**
 * Window functions of `windowAll` (no key): ProcessAllWindowFunction and
 * AllWindowFunction, adapted to the keyed forms the window operator runs
 * (over one constant key).
 */
import type { Collector } from "../../core/collector.ts";
import { RichFunction } from "../../core/rich-function.ts";
import type { Window } from "./window.ts";
import type { ProcessWindowContext, ProcessWindowFunction, WindowFunction } from "./window-functions.ts";

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
export abstract class ProcessAllWindowFunction<IN, OUT, W extends Window> extends RichFunction {
  abstract process(context: ProcessWindowContext<W>, elements: Iterable<IN>, out: Collector<OUT>): void;
  /** The window is removed: clear what you kept in `windowState()`. */
  clear?(context: ProcessWindowContext<W>): void;
}

/** All records of a window of a non-keyed stream: a function or an object with `apply`. */
export type AllWindowFunction<IN, OUT, W extends Window> =
  | ((window: W, input: Iterable<IN>, out: Collector<OUT>) => void)
  | { apply(window: W, input: Iterable<IN>, out: Collector<OUT>): void };

/** A keyed view of a ProcessAllWindowFunction (the key is ignored); lifecycle hooks reach the original. */
export function keyedProcessAll<IN, OUT, W extends Window>(f: ProcessAllWindowFunction<IN, OUT, W>): ProcessWindowFunction<IN, OUT, unknown, W> {
  const view = Object.create(f) as ProcessWindowFunction<IN, OUT, unknown, W>;
  // `this` is the per-instance copy of the view (its prototype chain reaches `f`), so fields and the runtime context are the instance's
  view.process = function (this: ProcessAllWindowFunction<IN, OUT, W>, _key, ctx, elements, out) {
    f.process.call(this, ctx, elements, out);
  };
  return view;
}

/** A keyed view of an AllWindowFunction. */
export function keyedApplyAll<IN, OUT, W extends Window>(f: AllWindowFunction<IN, OUT, W>): WindowFunction<IN, OUT, unknown, W> {
  const call = typeof f === "function" ? f : (w: W, i: Iterable<IN>, o: Collector<OUT>) => f.apply(w, i, o);
  return (_key, window, input, out) => call(window, input, out);
}
