/**
 * What a user function sees of the parallel instance it runs in, and the
 * entry to its keyed state (Flink's `RuntimeContext`).
 */
import type {
  AggregatingState,
  EngineKeyedState,
  AggregatingStateDescriptor,
  ListState,
  ListStateDescriptor,
  MapState,
  MapStateDescriptor,
  ReducingState,
  ReducingStateDescriptor,
  ValueState,
  ValueStateDescriptor,
} from "../state/index.ts";
import type { MetricGroup } from "../metrics/metric-group.ts";

/**
 * The context of one parallel instance of a user function.
 *
 * Keyed state is available in functions applied on a `KeyedStream`; every
 * access refers to the key of the record being processed.
 *
 * @example
 * ```ts
 * class RunningSum extends KeyedProcessFunction<string, number, [string, number]> {
 *   private sum!: ValueState<number>;
 *   open() { this.sum = this.getRuntimeContext().getState(new ValueStateDescriptor("sum", 0)); }
 *   processElement(n: number, ctx, out) {
 *     const s = this.sum.value()! + n;
 *     this.sum.update(s);
 *     out.collect([ctx.getCurrentKey(), s]);
 *   }
 * }
 * ```
 */
export interface RuntimeContext {
  /** Name of the operator as given with `.name()`. */
  getTaskName(): string;
  /** Uid of the operator (the identity of its state). */
  getOperatorUid(): string;
  /** 0-based index of this parallel instance. */
  getIndexOfThisSubtask(): number;
  getNumberOfParallelSubtasks(): number;
  getMaxNumberOfParallelSubtasks(): number;
  /** 0 for the first run, incremented on every restart after a failure. */
  getAttemptNumber(): number;
  /**
   * The operator's metric group: metrics registered here are reported with the
   * operator's scope (REST, Prometheus, `JobClient.getMetrics()`).
   *
   * @example
   * ```ts
   * open() { this.parsed = this.getRuntimeContext().getMetricGroup().counter("parsedLines"); }
   * ```
   */
  getMetricGroup(): MetricGroup;
  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T>;
  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V>;
  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T>;
  getAggregatingState<IN, ACC, OUT>(descriptor: AggregatingStateDescriptor<IN, ACC, OUT>): AggregatingState<IN, OUT>;
}

/** @internal What the engine's runtime contexts add for engine-owned functions. */
interface EngineStateAccess {
  getEngineState<V>(name: string): EngineKeyedState<V>;
}

/**
 * @internal The one seam through which an engine-owned keyed function (the
 * table runtime's SQL operators) reaches {@link EngineKeyedState}: keyed state
 * `name` at the current key, in the same backend and snapshots as the
 * function's other state, never copied on access. The function must keep the
 * object semantics itself: a stored object is never handed to user code or
 * emitted without a copy, and is changed in place only after `getOwned()`.
 * Use a name that no descriptor of the function uses (by convention `_`-prefixed).
 *
 * @example
 * ```ts
 * open() { this.acc = engineKeyedState<number[]>(this.getRuntimeContext(), "_acc"); }
 * processElement(row) {
 *   const acc = this.acc.getOwned();
 *   if (acc === undefined) this.acc.set([row.x]);
 *   else acc[0] += row.x; // in place: a pending snapshot keeps the value it captured
 * }
 * ```
 * @throws Error when `ctx` is not a keyed runtime context of the engine
 */
export function engineKeyedState<V>(ctx: RuntimeContext, name: string): EngineKeyedState<V> {
  const access = ctx as RuntimeContext & Partial<EngineStateAccess>;
  if (typeof access.getEngineState !== "function") throw new Error(`engine keyed state '${name}' needs a keyed runtime context of the engine`);
  return access.getEngineState<V>(name);
}
