/**
 * A keyed two-input process function whose output watermark lags its input
 * watermark by a fixed delay (Flink's `KeyedCoProcessOperatorWithWatermarkDelay`),
 * for joins that emit rows older than the current watermark: the interval
 * join emits a pair when its later row arrives, and a NULL-padded row once
 * the watermark passed its last chance of a match, so the rows it emits are
 * up to the width of the interval older than its watermark. Holding the
 * output watermark back by that width keeps them on time for the event-time
 * operators downstream (windows on either side's time attribute).
 */
import { edgesOf } from "../../api/connected-streams.ts";
import { cloneFunction, SingleOutputStreamOperator, type DataStream } from "../../api/data-stream.ts";
import type { KeyedCoProcessFunctionObject } from "../../core/co-process-function.ts";
import { KeyedCoProcessOperator } from "../../runtime/operators/co-keyed-process-operator.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";

/** Runs `fn` on both inputs keyed, forwarding each watermark `delayMs` lower (after firing the timers it makes due). */
class DelayedWatermarkCoProcessOperator<K, IN1, IN2, OUT> extends KeyedCoProcessOperator<K, IN1, IN2, OUT> {
  constructor(
    fn: KeyedCoProcessFunctionObject<K, IN1, IN2, OUT>,
    private readonly delayMs: number,
  ) {
    super(fn);
  }

  override processWatermark(timestamp: number): void {
    this.timers.advanceWatermark(timestamp);
    this.out.emitWatermark(timestamp - this.delayMs);
  }
}

/**
 * `left.connect(right).keyBy(leftKey, rightKey).process(fn)` with the output
 * watermark `delayMs` behind the operator's watermark (the final watermark
 * stays final: `Infinity - delay` is `Infinity`).
 *
 * @example
 * ```ts
 * const joined = processWithWatermarkDelay(left, right, keyOfLeft, keyOfRight, new MyJoin(), 10_001);
 * ```
 */
export function processWithWatermarkDelay<K, IN1, IN2, OUT>(
  left: DataStream<IN1>,
  right: DataStream<IN2>,
  leftKey: KeySelector<IN1, K>,
  rightKey: KeySelector<IN2, K>,
  fn: KeyedCoProcessFunctionObject<K, IN1, IN2, OUT>,
  delayMs: number,
): SingleOutputStreamOperator<OUT> {
  const env = left.getExecutionEnvironment();
  const leftKeyed = left.keyBy(leftKey);
  const rightKeyed = right.keyBy(rightKey);
  const node = env.addNode({
    type: "keyed-co-process",
    name: "KeyedCoProcess",
    inputs: [...edgesOf(leftKeyed, 0), ...edgesOf(rightKeyed, 1)],
    createOperator: () => new DelayedWatermarkCoProcessOperator(cloneFunction(fn), delayMs),
    keySelector: leftKey as KeySelector,
    keySelector2: rightKey as KeySelector,
  });
  return new SingleOutputStreamOperator<OUT>(env, node);
}
