/**
 * The low-level functions (Flink's `ProcessFunction` and
 * `KeyedProcessFunction`): see every record with a context and emit any
 * number of results; keyed ones have keyed state.
 */
import { RichFunction } from "./rich-function.ts";
import type { Collector } from "./collector.ts";
import type { OutputTag } from "./output-tag.ts";

/** Time and timers as a process function sees them (Flink's TimerService). */
export interface TimerService {
  /** Current processing time (ms, from the job's clock). */
  currentProcessingTime(): number;
  /** The operator's current event-time watermark (-Infinity before the first). */
  currentWatermark(): number;
  /** Calls `onTimer` for the current key when the watermark reaches `timestamp` (keyed streams only). */
  registerEventTimeTimer(timestamp: number): void;
  /** Calls `onTimer` for the current key when processing time reaches `timestamp` (keyed streams only). */
  registerProcessingTimeTimer(timestamp: number): void;
  deleteEventTimeTimer(timestamp: number): void;
  deleteProcessingTimeTimer(timestamp: number): void;
}

/** Which clock a timer followed. */
export type TimeDomain = "event-time" | "processing-time";

/** Context of `ProcessFunction.processElement`. */
export interface ProcessContext {
  /** Event timestamp of the record, if it has one. */
  timestamp(): number | undefined;
  /** Emits `value` to the side output `tag`. */
  output<X>(tag: OutputTag<X>, value: X): void;
  /** Time and (on keyed streams) timers. */
  timerService(): TimerService;
}

/**
 * Processes each record of a (non-keyed) stream.
 *
 * @example
 * ```ts
 * stream.process(new (class extends ProcessFunction<string, number> {
 *   processElement(s: string, ctx: ProcessContext, out: Collector<number>) { out.collect(s.length); }
 * })());
 * ```
 */
export abstract class ProcessFunction<I, O> extends RichFunction {
  abstract processElement(value: I, ctx: ProcessContext, out: Collector<O>): void;
}

/** Context of `KeyedProcessFunction.processElement`. */
export interface KeyedProcessContext<K> extends ProcessContext {
  /** The key of the record being processed. */
  getCurrentKey(): K;
}

/** Context of `KeyedProcessFunction.onTimer`: `timestamp()` is the timer's time. */
export interface OnTimerContext<K> extends KeyedProcessContext<K> {
  timeDomain(): TimeDomain;
}

/**
 * Processes each record of a keyed stream, with keyed state scoped to the record's key.
 *
 * @example
 * ```ts
 * class RunningSum extends KeyedProcessFunction<string, number, [string, number]> {
 *   private sum!: ValueState<number>;
 *   open() { this.sum = this.getRuntimeContext().getState(new ValueStateDescriptor<number>("sum", 0)); }
 *   processElement(n: number, ctx: KeyedProcessContext<string>, out: Collector<[string, number]>) {
 *     const s = (this.sum.value() ?? 0) + n;
 *     this.sum.update(s);
 *     out.collect([ctx.getCurrentKey(), s]);
 *   }
 * }
 * ```
 */
export abstract class KeyedProcessFunction<K, I, O> extends RichFunction {
  abstract processElement(value: I, ctx: KeyedProcessContext<K>, out: Collector<O>): void;
  /** A timer registered with `ctx.timerService()` fired; the timer's key is the current key. */
  onTimer?(timestamp: number, ctx: OnTimerContext<K>, out: Collector<O>): void;
}
