/**
 * A keyed two-input process function whose output watermark lags its input
 * watermark by a fixed delay (Flink's `KeyedCoProcessOperatorWithWatermarkDelay`),
 * for joins that emit rows older than the current watermark: the interval
 * join emits a pair when its later row arrives, and a NULL-padded row once
 * the watermark passed its last chance of a match, so the rows it emits are
 * up to the width of the interval older than its watermark. Holding the
 * output watermark back by that width keeps them on time for the event-time
 * operators downstream (windows on either side's time attribute).
 *
 * The function cleans its state up from one queue of cleanup times per
 * operator instead of a timer per key (a join keyed by a nearly unique value
 * would have a timer, with its keyed state, per row): it queues a key's next
 * cleanup with {@link CleanupQueueFunction.queueCleanup}, and the watermark
 * pops the times it passed, in order, and calls
 * {@link CleanupQueueFunction.cleanUp} with the key set. The queue is not
 * state: the function keeps each key's next cleanup in its keyed state, and
 * the operator rebuilds the queue from that state when it opens (after a
 * restore). Timers of state written before the queue still fire, into the
 * function's `onTimer` (none: they are dropped, the queue has their cleanup).
 */
import { edgesOf } from "../../api/connected-streams.ts";
import { cloneFunction, SingleOutputStreamOperator, type DataStream } from "../../api/data-stream.ts";
import { KeyedCoProcessFunction } from "../../core/co-process-function.ts";
import type { Collector } from "../../core/collector.ts";
import type { OnTimerContext } from "../../core/process-function.ts";
import { KeyedCoProcessOperator } from "../../runtime/operators/co-keyed-process-operator.ts";
import type { OperatorContext, Output } from "../../runtime/operators/stream-operator.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import { TimerQueue } from "../../time/timer-queue.ts";

/**
 * A keyed co-process function that cleans up from its operator's queue of
 * cleanup times. A cleanup has a time and a number (`slot`) telling the
 * function what to clean (the interval join: which side); the engine keyed
 * state named `cleanupStates[slot]` holds, per key, a value whose pending
 * cleanup {@link nextCleanup} tells.
 *
 * @example
 * ```ts
 * class Expiring extends CleanupQueueFunction<string, Row, Row, Row> {
 *   readonly cleanupStates = ["_left", "_right"];
 *   nextCleanup(stored: unknown) { return (stored as { next: number | null }).next; }
 *   processElement1(row, ctx, out) { … this.queueCleanup(expiry, 0, ctx.getCurrentKey()); }
 *   processElement2(row, ctx, out) { … }
 *   cleanUp(time, slot, ctx, out) { … }
 * }
 * ```
 */
export abstract class CleanupQueueFunction<K, IN1, IN2, OUT> extends KeyedCoProcessFunction<K, IN1, IN2, OUT> {
  /** @internal The queue of this function's operator (each subtask's clone has its own). */
  cleanups: TimerQueue = new TimerQueue();

  /** The engine keyed states, by slot, whose stored values tell each key's pending cleanup. */
  abstract readonly cleanupStates: readonly string[];

  /** The pending cleanup time of a key whose state of a slot holds `stored` (null: none). */
  abstract nextCleanup(stored: unknown): number | null;

  /**
   * The watermark reached a cleanup queued at `time` for `slot` and the current key. It may have been
   * queued more than once (a key's cleanup moved earlier leaves its later entry): check the state.
   */
  abstract cleanUp(time: number, slot: number, ctx: OnTimerContext<K>, out: Collector<OUT>): void;

  /** Queues `key`'s cleanup of `slot` at `time` (the caller keeps it in its state). */
  protected queueCleanup(time: number, slot: number, key: K): void {
    this.cleanups.push(time, key, slot);
  }
}

/** Runs `fn` on both inputs keyed; on a watermark, its due cleanups, then the watermark forwarded `delayMs` lower. */
class DelayedWatermarkCoProcessOperator<K, IN1, IN2, OUT> extends KeyedCoProcessOperator<K, IN1, IN2, OUT> {
  private readonly cleaning: CleanupQueueFunction<K, IN1, IN2, OUT>;

  constructor(
    fn: CleanupQueueFunction<K, IN1, IN2, OUT>,
    private readonly delayMs: number,
  ) {
    super(fn);
    this.cleaning = fn;
    fn.cleanups = new TimerQueue();
  }

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    await super.open(ctx, output);
    const fn = this.cleaning;
    fn.cleanupStates.forEach((state, slot) => {
      for (const [key, stored] of ctx.keyedState!.entriesOf(state)) {
        const time = fn.nextCleanup(stored);
        if (time !== null) fn.cleanups.push(time, key, slot);
      }
    });
  }

  override processWatermark(timestamp: number): void {
    this.timers.advanceWatermark(timestamp);
    const fn = this.cleaning;
    const queue = fn.cleanups;
    for (let next = queue.nextTimestamp(); next !== undefined && next <= timestamp; next = queue.nextTimestamp()) {
      const time = queue.pop();
      this.setKey(queue.key);
      this.ctx.element.timestamp = time;
      fn.cleanUp(time, queue.namespace as number, this.context, this.out as Collector<OUT>);
    }
    this.out.emitWatermark(timestamp - this.delayMs);
  }
}

/**
 * `left.connect(right).keyBy(leftKey, rightKey).process(fn)` with the output
 * watermark `delayMs` behind the operator's watermark (the final watermark
 * stays final: `Infinity - delay` is `Infinity`), `fn`'s cleanups run from
 * the operator's queue.
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
  fn: CleanupQueueFunction<K, IN1, IN2, OUT>,
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
