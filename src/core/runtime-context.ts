/**
 * What a user function sees of the parallel instance it runs in, and the
 * entry to its keyed state (Flink's `RuntimeContext`).
 */
import type {
  AggregatingState,
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
  getState<T>(descriptor: ValueStateDescriptor<T>): ValueState<T>;
  getListState<T>(descriptor: ListStateDescriptor<T>): ListState<T>;
  getMapState<K, V>(descriptor: MapStateDescriptor<K, V>): MapState<K, V>;
  getReducingState<T>(descriptor: ReducingStateDescriptor<T>): ReducingState<T>;
  getAggregatingState<IN, ACC, OUT>(descriptor: AggregatingStateDescriptor<IN, ACC, OUT>): AggregatingState<IN, OUT>;
}
