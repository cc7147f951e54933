/**
 * Map and flatMap over two connected streams (Flink's `CoMapFunction` and
 * `CoFlatMapFunction`): one method per input, one output type.
 */
import type { Collector } from "./collector.ts";
import type { FunctionLifecycle } from "./function-object.ts";

/**
 * One result per record of either input.
 *
 * @example
 * ```ts
 * numbers.connect(words).map({ map1: (n) => String(n), map2: (w) => w });
 * ```
 */
export interface CoMapFunction<IN1, IN2, OUT> extends FunctionLifecycle {
  map1(value: IN1): OUT;
  map2(value: IN2): OUT;
}

/**
 * Zero or more results per record of either input: return an iterable or use the collector.
 *
 * @example
 * ```ts
 * lines.connect(numbers).flatMap({ flatMap1: (l) => l.split(" "), flatMap2: (n) => [String(n)] });
 * ```
 */
export interface CoFlatMapFunction<IN1, IN2, OUT> extends FunctionLifecycle {
  flatMap1(value: IN1, out: Collector<OUT>): Iterable<OUT> | void;
  flatMap2(value: IN2, out: Collector<OUT>): Iterable<OUT> | void;
}
