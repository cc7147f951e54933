/**
 * The interval join of two keyed streams (Flink's `KeyedStream.intervalJoin`):
 * `left.keyBy(kl).intervalJoin(right.keyBy(kr)).between(lower, upper).process(fn)`
 * pairs each left record `l` with every right record `r` of the same key such
 * that `l.ts + lower <= r.ts <= l.ts + upper` (event time).
 */
import type { OutputTag } from "../core/output-tag.ts";
import { asFunctionObject } from "../core/function-object.ts";
import type { ProcessJoinFunctionLike, ProcessJoinFunctionObject } from "../core/process-join-function.ts";
import { IntervalJoinOperator } from "../runtime/operators/interval-join-operator.ts";
import { edgesOf, keySelectorOf } from "./connected-streams.ts";
import { cloneFunction, SingleOutputStreamOperator, type KeyedStream } from "./data-stream.ts";

/** The bounds of an interval join are not finite whole milliseconds, or the interval is empty. */
export class InvalidIntervalJoinBoundsError extends Error {
  override name = "InvalidIntervalJoinBoundsError";
}

/**
 * The join before its bounds are set.
 *
 * @example
 * ```ts
 * clicks.keyBy((c) => c.user)
 *   .intervalJoin(buys.keyBy((b) => b.user))
 *   .between(-5_000, 10_000)
 *   .process(new PairClickAndBuy());
 * ```
 */
export class IntervalJoin<L, R, K> {
  /** @internal */
  constructor(
    private readonly left: KeyedStream<L, K>,
    private readonly right: KeyedStream<R, K>,
  ) {}

  /**
   * Joins `l` with every `r` of its key with `l.ts + lowerMs <= r.ts <= l.ts + upperMs`
   * (both bounds inclusive unless made exclusive).
   *
   * @throws InvalidIntervalJoinBoundsError when a bound is not a whole number or `lowerMs > upperMs`
   */
  between(lowerMs: number, upperMs: number): IntervalJoined<L, R, K> {
    for (const [name, v] of [["lower", lowerMs], ["upper", upperMs]] as const)
      if (!Number.isSafeInteger(v)) throw new InvalidIntervalJoinBoundsError(`intervalJoin(...).between: the ${name} bound must be a whole number of milliseconds, got ${v}`);
    if (lowerMs > upperMs) throw new InvalidIntervalJoinBoundsError(`intervalJoin(...).between(${lowerMs}, ${upperMs}): the lower bound is above the upper bound`);
    return new IntervalJoined(this.left, this.right, lowerMs, upperMs);
  }
}

/**
 * The join with its bounds: make a bound exclusive, route late records to side
 * outputs, then `process` the pairs.
 */
export class IntervalJoined<L, R, K> {
  private lowerExclusive = false;
  private upperExclusive = false;
  private leftLate?: string;
  private rightLate?: string;

  /** @internal */
  constructor(
    private readonly left: KeyedStream<L, K>,
    private readonly right: KeyedStream<R, K>,
    private readonly lower: number,
    private readonly upper: number,
  ) {}

  /** Excludes `r.ts === l.ts + lower`. */
  lowerBoundExclusive(): this {
    this.lowerExclusive = true;
    return this;
  }

  /** Excludes `r.ts === l.ts + upper`. */
  upperBoundExclusive(): this {
    this.upperExclusive = true;
    return this;
  }

  /** Left records that arrive behind the watermark go to `tag` (instead of being dropped). */
  sideOutputLeftLateData(tag: OutputTag<L>): this {
    this.leftLate = tag.id;
    return this;
  }

  /** Right records that arrive behind the watermark go to `tag` (instead of being dropped). */
  sideOutputRightLateData(tag: OutputTag<R>): this {
    this.rightLate = tag.id;
    return this;
  }

  /**
   * Calls `fn` for every pair; outputs carry the larger of both timestamps. `fn`
   * is a ProcessJoinFunction, an object literal with `processElement` (and
   * `open(context)`, `close()`), or the `processElement` function alone.
   *
   * @example
   * ```ts
   * joined.process((click, buy, ctx, out: Collector<[string, number]>) => out.collect([click.user, ctx.getTimestamp()]));
   * ```
   * @throws InvalidIntervalJoinBoundsError when exclusive bounds leave an empty interval
   */
  process<OUT, S = unknown>(fn: ProcessJoinFunctionLike<L, R, OUT, S>): SingleOutputStreamOperator<OUT> {
    const f = asFunctionObject<ProcessJoinFunctionObject<L, R, OUT>>(fn, "processElement");
    const lower = this.lowerExclusive ? this.lower + 1 : this.lower;
    const upper = this.upperExclusive ? this.upper - 1 : this.upper;
    if (lower > upper)
      throw new InvalidIntervalJoinBoundsError(`intervalJoin(...).between(${this.lower}, ${this.upper}) with exclusive bounds is empty`);
    const bounds = { lower, upper, leftLateTag: this.leftLate, rightLateTag: this.rightLate };
    const env = this.left.getExecutionEnvironment();
    const node = env.addNode({
      type: "interval-join",
      name: "IntervalJoin",
      inputs: [...edgesOf(this.left, 0), ...edgesOf(this.right, 1)],
      createOperator: () => new IntervalJoinOperator(cloneFunction(f), bounds),
      keySelector: keySelectorOf(this.left),
      keySelector2: keySelectorOf(this.right),
    });
    return new SingleOutputStreamOperator<OUT>(env, node);
  }
}
