/**
 * Window join of two streams (Flink's JoinedStreams): `a.join(b).where(ka)
 * .equalTo(kb).window(assigner).apply((x, y) => r)` emits one result per pair
 * of records with equal keys in the same window (an inner join), built on the
 * window coGroup.
 */
import type { Collector } from "../core/collector.ts";
import { functionView, type FunctionLifecycle, type FunctionObject } from "../core/function-object.ts";
import type { KeySelector } from "../graph/stream-graph.ts";
import type { Evictor } from "../time/windows/evictor.ts";
import type { Trigger } from "../time/windows/trigger.ts";
import type { Window } from "../time/windows/window.ts";
import type { WindowAssigner } from "../time/windows/window-assigner.ts";
import { CoGroupedStreams, type CoGroupWithWindow, type TaggedUnion } from "./co-group.ts";
import type { DataStream, SingleOutputStreamOperator } from "./data-stream.ts";

/** The object form of a join function. */
export interface JoinFunctionObject<A, B, R> extends FunctionLifecycle {
  join(first: A, second: B): R;
}

/** The object form of a flat join function. */
export interface FlatJoinFunctionObject<A, B, R> extends FunctionLifecycle {
  join(first: A, second: B, out: Collector<R>): void;
}

/** One result per joined pair: a function, or an object with `join` (and `open(context)`, `close()`, fields of its own on `this`). */
export type JoinFunction<A, B, R, S = unknown> = ((first: A, second: B) => R) | FunctionObject<JoinFunctionObject<A, B, R>, S>;

/** Any number of results per joined pair: a function, or an object with `join` (and `open(context)`, `close()`). */
export type FlatJoinFunction<A, B, R, S = unknown> =
  | ((first: A, second: B, out: Collector<R>) => void)
  | FunctionObject<FlatJoinFunctionObject<A, B, R>, S>;

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

  /**
   * Emits `fn(a, b)` for every pair of the same key and window.
   *
   * @example
   * ```ts
   * joined.apply((click, impression) => ({ ad: click.adId, delay: click.ts - impression.ts }));
   * ```
   */
  apply<R, S = unknown>(fn: JoinFunction<A, B, R, S>): SingleOutputStreamOperator<R> {
    const f = fn as ((a: A, b: B) => R) | JoinFunctionObject<A, B, R>;
    if (typeof f === "function") return this.flatApply<R>((a, b, out) => out.collect(f(a, b)));
    return this.flatApply<R>(
      functionView(f, {
        join(a: A, b: B, out: Collector<R>) {
          out.collect(f.join.call(this, a, b));
        },
      }),
    );
  }

  /** Calls `fn(a, b, out)` for every pair of the same key and window. */
  flatApply<R, S = unknown>(fn: FlatJoinFunction<A, B, R, S>): SingleOutputStreamOperator<R> {
    const f = fn as ((a: A, b: B, out: Collector<R>) => void) | FlatJoinFunctionObject<A, B, R>;
    const pairs =
      typeof f === "function"
        ? (as: A[], bs: B[], out: Collector<R>) => {
            for (const a of as) for (const b of bs) f(a, b, out);
          }
        : functionView(f, {
            coGroup(as: A[], bs: B[], out: Collector<R>) {
              for (const a of as) for (const b of bs) this.join(a, b, out);
            },
          });
    return this.coGroup.apply<R>(pairs).name("Window Join");
  }
}
