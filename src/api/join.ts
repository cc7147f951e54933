/**
 * Window join of two streams (Flink's JoinedStreams): `a.join(b).where(ka)
 * .equalTo(kb).window(assigner).apply((x, y) => r)` emits one result per pair
 * of records with equal keys in the same window (an inner join), built on the
 * window coGroup.
 */
import type { Collector } from "../core/collector.ts";
import type { KeySelector } from "../graph/stream-graph.ts";
import type { Evictor } from "../time/windows/evictor.ts";
import type { Trigger } from "../time/windows/trigger.ts";
import type { Window } from "../time/windows/window.ts";
import type { WindowAssigner } from "../time/windows/window-assigner.ts";
import { CoGroupedStreams, type CoGroupWithWindow, type TaggedUnion } from "./co-group.ts";
import type { DataStream, SingleOutputStreamOperator } from "./data-stream.ts";

/** One result per joined pair: a function or an object with `join`. */
export type JoinFunction<A, B, R> = ((first: A, second: B) => R) | { join(first: A, second: B): R };

/** Any number of results per joined pair. */
export type FlatJoinFunction<A, B, R> = ((first: A, second: B, out: Collector<R>) => void) | { join(first: A, second: B, out: Collector<R>): void };

/**
 * Two streams to join by key and window.
 *
 * @example
 * ```ts
 * clicks.join(impressions)
 *   .where((c) => c.adId).equalTo((i) => i.adId)
 *   .window(TumblingEventTimeWindows.of(60_000))
 *   .apply((c, i) => ({ ad: c.adId, delay: c.ts - i.ts }));
 * ```
 */
export class JoinedStreams<A, B> {
  /** @internal Use `a.join(b)`. */
  constructor(
    private readonly first: DataStream<A>,
    private readonly second: DataStream<B>,
  ) {}

  /** The key of the first stream's records. */
  where<K>(keyA: KeySelector<A, K>): { equalTo(keyB: KeySelector<B, K>): { window<W extends Window>(assigner: WindowAssigner<unknown, W>): JoinWithWindow<A, B, K, W> } } {
    return {
      equalTo: (keyB) => ({
        window: (assigner) => new JoinWithWindow(new CoGroupedStreams(this.first, this.second).where(keyA).equalTo(keyB).window(assigner)),
      }),
    };
  }
}

/** A windowed join: optional trigger, evictor and lateness, then `apply`. */
export class JoinWithWindow<A, B, K, W extends Window> {
  /** @internal */
  constructor(private readonly coGroup: CoGroupWithWindow<A, B, K, W>) {}

  /** Replaces the assigner's default trigger. */
  trigger(trigger: Trigger<TaggedUnion<A, B>, W>): this {
    this.coGroup.trigger(trigger);
    return this;
  }

  /** Removes records of both sides before the pairs are formed. */
  evictor(evictor: Evictor<TaggedUnion<A, B>, W>): this {
    this.coGroup.evictor(evictor);
    return this;
  }

  /** Keeps windows for `ms` after their end for late records. */
  allowedLateness(ms: number): this {
    this.coGroup.allowedLateness(ms);
    return this;
  }

  /** Emits `fn(a, b)` for every pair of the same key and window. */
  apply<R>(fn: JoinFunction<A, B, R>): SingleOutputStreamOperator<R> {
    const call = typeof fn === "function" ? fn : (a: A, b: B) => fn.join(a, b);
    return this.flatApply<R>((a, b, out) => out.collect(call(a, b)));
  }

  /** Calls `fn(a, b, out)` for every pair of the same key and window. */
  flatApply<R>(fn: FlatJoinFunction<A, B, R>): SingleOutputStreamOperator<R> {
    const call = typeof fn === "function" ? fn : (a: A, b: B, out: Collector<R>) => fn.join(a, b, out);
    return this.coGroup
      .apply<R>((as, bs, out) => {
        for (const a of as) for (const b of bs) call(a, b, out);
      })
      .name("Window Join");
  }
}
