/**
 * Window coGroup of two streams (Flink's CoGroupedStreams): `a.coGroup(b)
 * .where(ka).equalTo(kb).window(assigner).apply(fn)` gets, per key and window,
 * the records of both sides. Built as Flink builds it: tag each side, union,
 * keyBy the side's key, window, and split the window's records by tag.
 */
import type { Collector } from "../core/collector.ts";
import { functionView, type FunctionLifecycle, type FunctionObject } from "../core/function-object.ts";
import type { KeySelector } from "../graph/stream-graph.ts";
import type { Evictor } from "../time/windows/evictor.ts";
import type { Trigger } from "../time/windows/trigger.ts";
import type { Window } from "../time/windows/window.ts";
import type { WindowAssigner } from "../time/windows/window-assigner.ts";
import type { WindowFunction } from "../time/windows/window-functions.ts";
import type { DataStream, SingleOutputStreamOperator } from "./data-stream.ts";
import { WindowedStream } from "./windowed-stream.ts";

/** A record of either side of a coGroup/join: `[0, left]` or `[1, right]`. */
export type TaggedUnion<A, B> = readonly [0, A] | readonly [1, B];

/** The object form of a coGroup function. */
export interface CoGroupFunctionObject<A, B, R> extends FunctionLifecycle {
  coGroup(first: A[], second: B[], out: Collector<R>): void;
}

/**
 * Both sides' records of one key and window: a function, or an object with
 * `coGroup` (and `open(context)`, `close()`, fields of its own on `this`).
 */
export type CoGroupFunction<A, B, R, S = unknown> =
  | ((first: A[], second: B[], out: Collector<R>) => void)
  | FunctionObject<CoGroupFunctionObject<A, B, R>, S>;

/**
 * Two streams to coGroup by key and window.
 *
 * @example
 * ```ts
 * orders.coGroup(payments)
 *   .where((o) => o.id).equalTo((p) => p.orderId)
 *   .window(TumblingEventTimeWindows.of(60_000))
 *   .apply((os, ps, out) => { if (ps.length === 0) for (const o of os) out.collect(o); }); // unpaid orders
 * ```
 */
export class CoGroupedStreams<A, B> {
  /** @internal Use `a.coGroup(b)`. */
  constructor(
    private readonly first: DataStream<A>,
    private readonly second: DataStream<B>,
  ) {}

  /** The key of the first stream's records. */
  where<K>(keyA: KeySelector<A, K>): { equalTo(keyB: KeySelector<B, K>): CoGroupWhereEqual<A, B, K> } {
    return { equalTo: (keyB) => new CoGroupWhereEqual(this.first, this.second, keyA, keyB) };
  }
}

/** Keys of both sides are set: choose the windows. */
export class CoGroupWhereEqual<A, B, K> {
  /** @internal */
  constructor(
    private readonly first: DataStream<A>,
    private readonly second: DataStream<B>,
    private readonly keyA: KeySelector<A, K>,
    private readonly keyB: KeySelector<B, K>,
  ) {}

  /** Groups both sides into these windows. */
  window<W extends Window>(assigner: WindowAssigner<unknown, W>): CoGroupWithWindow<A, B, K, W> {
    const tagged = taggedUnion(this.first, this.second);
    const keyA = this.keyA;
    const keyB = this.keyB;
    const keyed = tagged.keyBy((t) => (t[0] === 0 ? keyA(t[1]) : keyB(t[1])));
    return new CoGroupWithWindow<A, B, K, W>(new WindowedStream(keyed, assigner as WindowAssigner<TaggedUnion<A, B>, W>));
  }
}

/** A windowed coGroup: optional trigger, evictor and lateness, then `apply`. */
export class CoGroupWithWindow<A, B, K, W extends Window> {
  /** @internal */
  constructor(private readonly windowed: WindowedStream<TaggedUnion<A, B>, K, W>) {}

  /** Replaces the assigner's default trigger. */
  trigger(trigger: Trigger<TaggedUnion<A, B>, W>): this {
    this.windowed.trigger(trigger);
    return this;
  }

  /** Removes records of both sides before/after the function runs. */
  evictor(evictor: Evictor<TaggedUnion<A, B>, W>): this {
    this.windowed.evictor(evictor);
    return this;
  }

  /** Keeps windows for `ms` after their end for late records (re-firing them). */
  allowedLateness(ms: number): this {
    this.windowed.allowedLateness(ms);
    return this;
  }

  /** Calls `fn` with both sides' records of each key and window (one side may be empty). */
  apply<R, S = unknown>(fn: CoGroupFunction<A, B, R, S>): SingleOutputStreamOperator<R> {
    return this.windowed.apply<R>(coGroupWindowFunction<A, B, R>(fn)).name("Window CoGroup");
  }
}

/** The window function of a coGroup: splits the window's records by side; an object's hooks and fields stay reachable. */
function coGroupWindowFunction<A, B, R>(
  fn: ((first: A[], second: B[], out: Collector<R>) => void) | CoGroupFunctionObject<A, B, R>,
): WindowFunction<TaggedUnion<A, B>, R, unknown, Window> {
  if (typeof fn === "function")
    return (_key, _window, input, out) => {
      const [as, bs] = splitTagged(input);
      fn(as, bs, out);
    };
  return functionView(fn, {
    apply(_key: unknown, _window: Window, input: Iterable<TaggedUnion<A, B>>, out: Collector<R>) {
      const [as, bs] = splitTagged(input);
      this.coGroup(as, bs, out);
    },
  });
}

/** The records of both streams, tagged with their side, in one stream. */
export function taggedUnion<A, B>(first: DataStream<A>, second: DataStream<B>): DataStream<TaggedUnion<A, B>> {
  const a = first.map((x): TaggedUnion<A, B> => [0, x]).name("Tag first");
  const b = second.map((y): TaggedUnion<A, B> => [1, y]).name("Tag second");
  return a.union(b);
}

/** Splits tagged records into the first and the second side's. */
export function splitTagged<A, B>(input: Iterable<TaggedUnion<A, B>>): [A[], B[]] {
  const as: A[] = [];
  const bs: B[] = [];
  for (const t of input) {
    if (t[0] === 0) as.push(t[1]);
    else bs.push(t[1]);
  }
  return [as, bs];
}
