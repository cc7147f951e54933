/**
 * The function of an interval join (Flink's `ProcessJoinFunction`): called once
 * per matching pair of a left and a right record.
 */
import { RichFunction } from "./rich-function.ts";
import type { Collector } from "./collector.ts";
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
export abstract class ProcessJoinFunction<L, R, OUT> extends RichFunction {
  abstract processElement(left: L, right: R, ctx: ProcessJoinContext, out: Collector<OUT>): void;
}
