/**
 * The low-level functions (Flink's `ProcessFunction` and
 * `KeyedProcessFunction`): see every record with a context and emit any
 * number of results; keyed ones have keyed state. Written as a class, as an
 * object literal, or as the `processElement` function alone.
 */
import { RichFunction } from "./rich-function.ts";
import type { Collector } from "./collector.ts";
import type { FunctionLifecycle, FunctionObject } from "./function-object.ts";
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

/** The methods of a process function on a non-keyed stream. */
export interface ProcessFunctionObject<I, O> extends FunctionLifecycle {
  processElement(value: I, ctx: ProcessContext, out: Collector<O>): void;
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
export abstract class ProcessFunction<I, O> extends RichFunction implements ProcessFunctionObject<I, O> {
  abstract processElement(value: I, ctx: ProcessContext, out: Collector<O>): void;
}

/**
 * What `stream.process(...)` takes: a ProcessFunction subclass, an object with
 * `processElement` (and `open`/`close`, fields of its own on `this`), or the
 * `processElement` function alone. Parameter types are inferred from the
 * stream; the output type from `out`'s annotation.
 *
 * @example
 * ```ts
 * words.process((w, ctx, out: Collector<number>) => out.collect(w.length));
 * ```
 */
export type ProcessFunctionLike<I, O, S = unknown> =
  | FunctionObject<ProcessFunctionObject<I, O>, S>
  | ((value: I, ctx: ProcessContext, out: Collector<O>) => void);

/** Context of `KeyedProcessFunction.processElement`. */
export interface KeyedProcessContext<K> extends ProcessContext {
  /** The key of the record being processed. */
  getCurrentKey(): K;
}

/** Context of `KeyedProcessFunction.onTimer`: `timestamp()` is the timer's time. */
export interface OnTimerContext<K> extends KeyedProcessContext<K> {
  timeDomain(): TimeDomain;
}

/** The methods of a process function on a keyed stream. */
export interface KeyedProcessFunctionObject<K, I, O> extends FunctionLifecycle {
  processElement(value: I, ctx: KeyedProcessContext<K>, out: Collector<O>): void;
  /** A timer registered with `ctx.timerService()` fired; the timer's key is the current key. */
  onTimer?(timestamp: number, ctx: OnTimerContext<K>, out: Collector<O>): void;
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
export abstract class KeyedProcessFunction<K, I, O> extends RichFunction implements KeyedProcessFunctionObject<K, I, O> {
  abstract processElement(value: I, ctx: KeyedProcessContext<K>, out: Collector<O>): void;
  /** A timer registered with `ctx.timerService()` fired; the timer's key is the current key. */
  onTimer?(timestamp: number, ctx: OnTimerContext<K>, out: Collector<O>): void;
}

/**
 * What `keyedStream.process(...)` takes: a KeyedProcessFunction (or
 * ProcessFunction) subclass, an object with `processElement` (and `onTimer`,
 * `open`, `close`, fields of its own on `this`), or the `processElement`
 * function alone. Parameter types are inferred from the stream and its key.
 *
 * @example
 * ```ts
 * events.keyBy((e) => e.user).process({
 *   last: undefined as ValueState<number> | undefined,
 *   open(ctx) { this.last = ctx.getState(new ValueStateDescriptor<number>("last")); },
 *   processElement(e, ctx, out: Collector<string>) {
 *     this.last!.update(e.ts);
 *     ctx.timerService().registerEventTimeTimer(e.ts + 60_000);
 *   },
 *   onTimer(ts, ctx, out) {
 *     if (this.last!.value() === ts - 60_000) out.collect(`${ctx.getCurrentKey()} idle`);
 *   },
 * });
 * ```
 */
export type KeyedProcessFunctionLike<K, I, O, S = unknown> =
  | FunctionObject<KeyedProcessFunctionObject<K, I, O>, S>
  | ((value: I, ctx: KeyedProcessContext<K>, out: Collector<O>) => void);
