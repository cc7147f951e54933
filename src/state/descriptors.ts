/**
 * State descriptors: the name and kind of a piece of state, plus what the kind
 * needs (a default value, a reduce function, an aggregate function). Names are
 * unique per operator; registering one name with two kinds is an error.
 */

/** The kinds of state, as recorded in snapshots. */
export type StateKind = "value" | "list" | "map" | "reducing" | "aggregating";

/**
 * Incremental aggregation (Flink's `AggregateFunction`). `add` and `merge` may
 * mutate and return the accumulator they are given.
 */
export interface AggregateFunction<IN, ACC, OUT> {
  createAccumulator(): ACC;
  add(value: IN, acc: ACC): ACC;
  getResult(acc: ACC): OUT;
  merge(a: ACC, b: ACC): ACC;
}

function checkName(name: string): string {
  if (typeof name !== "string" || name.length === 0) {
    throw new TypeError(`a state descriptor needs a non-empty name, got ${JSON.stringify(name)}`);
  }
  return name;
}

/**
 * Describes a {@link ValueState}: one value per key.
 *
 * @example
 * ```ts
 * const count = ctx.getState(new ValueStateDescriptor<number>("count", 0));
 * count.update((count.value() ?? 0) + 1);
 * ```
 */
export class ValueStateDescriptor<T> {
  readonly kind = "value" as const;
  readonly name: string;
  /** Returned by `value()` when the key has no value. Shared: do not mutate it. */
  readonly defaultValue: T | undefined;
  constructor(name: string, defaultValue?: T) {
    this.name = checkName(name);
    this.defaultValue = defaultValue;
  }
}

/**
 * Describes a {@link ListState}: a list per key (keyed), or a list per
 * operator subtask (operator state).
 *
 * @example
 * ```ts
 * const seen = ctx.getListState(new ListStateDescriptor<string>("seen"));
 * ```
 */
export class ListStateDescriptor<T> {
  readonly kind = "list" as const;
  readonly name: string;
  /** Phantom field carrying the element type; always undefined. */
  declare readonly __element?: T;
  constructor(name: string) {
    this.name = checkName(name);
  }
}

/**
 * Describes a {@link MapState}: a map per key. Map keys are compared like a
 * JavaScript `Map` does (SameValueZero), so use primitive map keys.
 *
 * @example
 * ```ts
 * const perPage = ctx.getMapState(new MapStateDescriptor<string, number>("per-page"));
 * ```
 */
export class MapStateDescriptor<K, V> {
  readonly kind = "map" as const;
  readonly name: string;
  /** Phantom field carrying the key and value types; always undefined. */
  declare readonly __entry?: [K, V];
  constructor(name: string) {
    this.name = checkName(name);
  }
}

/**
 * Describes a {@link ReducingState}: values added are folded with `reduce`.
 *
 * @example
 * ```ts
 * const max = ctx.getReducingState(new ReducingStateDescriptor<number>("max", Math.max));
 * ```
 */
export class ReducingStateDescriptor<T> {
  readonly kind = "reducing" as const;
  readonly name: string;
  constructor(
    name: string,
    readonly reduce: (a: T, b: T) => T,
  ) {
    this.name = checkName(name);
  }
}

/**
 * Describes an {@link AggregatingState}: values added go into an accumulator
 * through an {@link AggregateFunction}.
 *
 * @example
 * ```ts
 * const avg = ctx.getAggregatingState(new AggregatingStateDescriptor("avg", {
 *   createAccumulator: () => ({ sum: 0, n: 0 }),
 *   add: (v: number, a) => ({ sum: a.sum + v, n: a.n + 1 }),
 *   getResult: (a) => a.sum / a.n,
 *   merge: (a, b) => ({ sum: a.sum + b.sum, n: a.n + b.n }),
 * }));
 * ```
 */
export class AggregatingStateDescriptor<IN, ACC, OUT> {
  readonly kind = "aggregating" as const;
  readonly name: string;
  constructor(
    name: string,
    readonly agg: AggregateFunction<IN, ACC, OUT>,
  ) {
    this.name = checkName(name);
  }
}

/** Any state descriptor. */
export type AnyStateDescriptor =
  | ValueStateDescriptor<unknown>
  | ListStateDescriptor<unknown>
  | MapStateDescriptor<unknown, unknown>
  | ReducingStateDescriptor<unknown>
  | AggregatingStateDescriptor<unknown, unknown, unknown>;
