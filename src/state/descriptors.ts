/**
 * State descriptors: the name and kind of a piece of state, plus what the kind
 * needs (a default value, a reduce function, an aggregate function). Names are
 * unique per operator; registering one name with two kinds, or with the same
 * kind but another default value or function, is an error.
 */
import { isDeepStrictEqual } from "node:util";
import { StateTtlConfig, ttlConfigDifference } from "./ttl/state-ttl-config.ts";

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
 * What every descriptor has besides its name and kind: an optional time to
 * live (Flink's `StateDescriptor.enableTimeToLive`).
 */
abstract class StateDescriptorBase {
  private ttl: StateTtlConfig | undefined = undefined;

  /**
   * Lets the state's values expire (keyed state only; see {@link StateTtlConfig}).
   * Returns this descriptor.
   *
   * @example
   * ```ts
   * const seen = new ValueStateDescriptor<boolean>("seen").enableTimeToLive(StateTtlConfig.newBuilder(60_000).build());
   * ```
   */
  enableTimeToLive(config: StateTtlConfig): this {
    if (!(config instanceof StateTtlConfig)) {
      throw new TypeError(`enableTimeToLive: expected a StateTtlConfig (StateTtlConfig.newBuilder(ms).build()), got ${String(config)}`);
    }
    this.ttl = config;
    return this;
  }

  /** The time-to-live settings, or undefined when the state does not expire. */
  get ttlConfig(): StateTtlConfig | undefined {
    return this.ttl;
  }
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
export class ValueStateDescriptor<T> extends StateDescriptorBase {
  readonly kind = "value" as const;
  readonly name: string;
  /** Returned by `value()` when the key has no value. Shared: do not mutate it. */
  readonly defaultValue: T | undefined;
  constructor(name: string, defaultValue?: T) {
    super();
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
export class ListStateDescriptor<T> extends StateDescriptorBase {
  readonly kind = "list" as const;
  readonly name: string;
  /** Phantom field carrying the element type; always undefined. */
  declare readonly __element?: T;
  constructor(name: string) {
    super();
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
export class MapStateDescriptor<K, V> extends StateDescriptorBase {
  readonly kind = "map" as const;
  readonly name: string;
  /** Phantom field carrying the key and value types; always undefined. */
  declare readonly __entry?: [K, V];
  constructor(name: string) {
    super();
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
export class ReducingStateDescriptor<T> extends StateDescriptorBase {
  readonly kind = "reducing" as const;
  readonly name: string;
  constructor(
    name: string,
    readonly reduce: (a: T, b: T) => T,
  ) {
    super();
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
export class AggregatingStateDescriptor<IN, ACC, OUT> extends StateDescriptorBase {
  readonly kind = "aggregating" as const;
  readonly name: string;
  constructor(
    name: string,
    readonly agg: AggregateFunction<IN, ACC, OUT>,
  ) {
    super();
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

/** Same function: the same object, or the same source text (a lambda written anew at each call). */
function sameFunction(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === "function" && typeof b === "function" && String(a) === String(b));
}

/**
 * How two descriptors of one name and kind differ, such that they cannot
 * share one state (it would silently keep the first one's default or
 * function), as the end of "registered with …"; undefined if they describe
 * the same state.
 *
 * @example
 * ```ts
 * descriptorDifference(new ValueStateDescriptor("n", 0), new ValueStateDescriptor("n", ""));
 * // 'default value 0 and again with default value ""'
 * ```
 */
export function descriptorDifference(registered: AnyStateDescriptor, requested: AnyStateDescriptor): string | undefined {
  if (registered === requested) return undefined;
  const ttl = ttlConfigDifference(registered.ttlConfig, requested.ttlConfig);
  if (ttl) return ttl;
  if (registered.kind === "value" && requested.kind === "value") {
    const [a, b] = [registered.defaultValue, requested.defaultValue];
    return isDeepStrictEqual(a, b) ? undefined : `default value ${show(a)} and again with default value ${show(b)}`;
  }
  if (registered.kind === "reducing" && requested.kind === "reducing") {
    return sameFunction(registered.reduce, requested.reduce) ? undefined : "a reduce function and again with another one";
  }
  if (registered.kind === "aggregating" && requested.kind === "aggregating") {
    const [a, b] = [registered.agg, requested.agg];
    const same =
      a === b ||
      (Object.getPrototypeOf(a) === Object.getPrototypeOf(b) &&
        (["createAccumulator", "add", "getResult", "merge"] as const).every((m) => sameFunction(a[m], b[m])));
    return same ? undefined : "an aggregate function and again with another one";
  }
  return undefined;
}

function show(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "bigint") return `${value}n`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
