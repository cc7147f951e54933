/**
 * The function of an interval join (Flink's `ProcessJoinFunction`): called once
 * per matching pair of a left and a right record.
 */
import { RichFunction } from "./rich-function.ts";
import type { Collector } from "./collector.ts";
import type { FunctionLifecycle, FunctionObject } from "./function-object.ts";
import type { OutputTag } from "./output-tag.ts";

/** Context of a joined pair. */
export interface ProcessJoinContext {
  /** Event timestamp of the left record. */
  getLeftTimestamp(): number;
  /** Event timestamp of the right record. */
  getRightTimestamp(): number;
  /** Timestamp of the output: the larger of both. */
  getTimestamp(): number;
  /** Emits `value` to the side output `tag`. */
  output<X>(tag: OutputTag<X>, value: X): void;
}

/** The methods of an interval join function. */
export interface ProcessJoinFunctionObject<L, R, OUT> extends FunctionLifecycle {
  processElement(left: L, right: R, ctx: ProcessJoinContext, out: Collector<OUT>): void;
}

/**
 * Turns each pair `(left, right)` of an interval join into zero or more results.
 *
 * @example
 * ```ts
 * class Pair extends ProcessJoinFunction<Click, Buy, [string, string]> {
 *   processElement(c: Click, b: Buy, _ctx: ProcessJoinContext, out: Collector<[string, string]>) {
 *     out.collect([c.id, b.id]);
 *   }
 * }
 * ```
 */
export abstract class ProcessJoinFunction<L, R, OUT> extends RichFunction implements ProcessJoinFunctionObject<L, R, OUT> {
  abstract processElement(left: L, right: R, ctx: ProcessJoinContext, out: Collector<OUT>): void;
}

/**
 * What `intervalJoin(...).between(...).process(...)` takes: a ProcessJoinFunction,
 * an object with `processElement` (and `open(context)`, `close()`), or the
 * `processElement` function alone.
 *
 * @example
 * ```ts
 * joined.process((click, buy, ctx, out: Collector<[string, string]>) => out.collect([click.id, buy.id]));
 * ```
 */
export type ProcessJoinFunctionLike<L, R, OUT, S = unknown> =
  | FunctionObject<ProcessJoinFunctionObject<L, R, OUT>, S>
  | ((left: L, right: R, ctx: ProcessJoinContext, out: Collector<OUT>) => void);
