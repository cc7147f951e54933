/**
 * The low-level functions (Flink's `ProcessFunction` and
 * `KeyedProcessFunction`): see every record with a context and emit any
 * number of results; keyed ones have keyed state.
 */
import { RichFunction } from "./rich-function.ts";
import type { Collector } from "./collector.ts";
import type { OutputTag } from "./output-tag.ts";

/** Context of `ProcessFunction.processElement`. */
export interface ProcessContext {
  /** Event timestamp of the record, if it has one. */
  timestamp(): number | undefined;
  /** Emits `value` to the side output `tag`. */
  output<X>(tag: OutputTag<X>, value: X): void;
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
}
