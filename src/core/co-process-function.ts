/**
 * The functions of two connected streams (Flink's `CoProcessFunction` and
 * `KeyedCoProcessFunction`): one method per input, one shared instance, so
 * both inputs can update the same state. Written as a class or as an object literal.
 */
import { RichFunction } from "./rich-function.ts";
import type { Collector } from "./collector.ts";
import type { FunctionLifecycle } from "./function-object.ts";
import type { OnTimerContext, ProcessContext, KeyedProcessContext } from "./process-function.ts";

/**
 * The methods of a function of two connected (non-keyed) streams: what an
 * object literal given to `connect(...).process` has.
 *
 * @example
 * ```ts
 * numbers.connect(words).process({
 *   processElement1(n, ctx, out: Collector<string>) { out.collect(`number ${n}`); },
 *   processElement2(w, ctx, out) { out.collect(`word ${w}`); },
 * });
 * ```
 */
export interface CoProcessFunctionObject<IN1, IN2, OUT> extends FunctionLifecycle {
  /** A record of the first stream (the one `connect` was called on). */
  processElement1(value: IN1, ctx: ProcessContext, out: Collector<OUT>): void;
  /** A record of the second stream (the argument of `connect`). */
  processElement2(value: IN2, ctx: ProcessContext, out: Collector<OUT>): void;
}

/**
 * Processes the records of two connected (non-keyed) streams. `ctx.timerService()`
 * has time but no timers (timers need a key: connect two keyed streams).
 *
 * @example
 * ```ts
 * numbers.connect(words).process(new (class extends CoProcessFunction<number, string, string> {
 *   processElement1(n: number, _ctx: ProcessContext, out: Collector<string>) { out.collect(`number ${n}`); }
 *   processElement2(w: string, _ctx: ProcessContext, out: Collector<string>) { out.collect(`word ${w}`); }
 * })());
 * ```
 */
export abstract class CoProcessFunction<IN1, IN2, OUT> extends RichFunction implements CoProcessFunctionObject<IN1, IN2, OUT> {
  /** A record of the first stream (the one `connect` was called on). */
  abstract processElement1(value: IN1, ctx: ProcessContext, out: Collector<OUT>): void;
  /** A record of the second stream (the argument of `connect`). */
  abstract processElement2(value: IN2, ctx: ProcessContext, out: Collector<OUT>): void;
}

/**
 * The methods of a function of two keyed streams connected on equal keys: what an
 * object literal given to `keyed.connect(keyed).process` has.
 *
 * @example
 * ```ts
 * orders.keyBy((o) => o.id).connect(payments.keyBy((p) => p.orderId)).process({
 *   order: undefined as ValueState<Order> | undefined,
 *   open(ctx) { this.order = ctx.getState(new ValueStateDescriptor<Order>("order")); },
 *   processElement1(o, ctx, out: Collector<string>) { this.order!.update(o); },
 *   processElement2(p, ctx, out) { if (this.order!.value()) out.collect(ctx.getCurrentKey()); },
 * });
 * ```
 */
export interface KeyedCoProcessFunctionObject<K, IN1, IN2, OUT> extends FunctionLifecycle {
  /** A record of the first stream; its key is the current key. */
  processElement1(value: IN1, ctx: KeyedProcessContext<K>, out: Collector<OUT>): void;
  /** A record of the second stream; its key is the current key. */
  processElement2(value: IN2, ctx: KeyedProcessContext<K>, out: Collector<OUT>): void;
  /** A timer registered with `ctx.timerService()` (from either input) fired; its key is the current key. */
  onTimer?(timestamp: number, ctx: OnTimerContext<K>, out: Collector<OUT>): void;
}

/**
 * Processes the records of two keyed streams connected on equal keys: records of
 * either input with the same key see the same keyed state and timers.
 *
 * @example
 * ```ts
 * // emits an order once its payment arrived, in whichever order they come
 * class MatchPayment extends KeyedCoProcessFunction<string, Order, Payment, string> {
 *   private order!: ValueState<Order>;
 *   private paid!: ValueState<boolean>;
 *   open() {
 *     this.order = this.getRuntimeContext().getState(new ValueStateDescriptor<Order>("order"));
 *     this.paid = this.getRuntimeContext().getState(new ValueStateDescriptor<boolean>("paid"));
 *   }
 *   processElement1(o: Order, ctx: KeyedProcessContext<string>, out: Collector<string>) {
 *     if (this.paid.value()) out.collect(o.id); else this.order.update(o);
 *   }
 *   processElement2(_p: Payment, ctx: KeyedProcessContext<string>, out: Collector<string>) {
 *     const o = this.order.value();
 *     if (o) out.collect(o.id); else this.paid.update(true);
 *   }
 * }
 * orders.keyBy((o) => o.id).connect(payments.keyBy((p) => p.orderId)).process(new MatchPayment());
 * ```
 */
export abstract class KeyedCoProcessFunction<K, IN1, IN2, OUT> extends RichFunction implements KeyedCoProcessFunctionObject<K, IN1, IN2, OUT> {
  /** A record of the first stream; its key is the current key. */
  abstract processElement1(value: IN1, ctx: KeyedProcessContext<K>, out: Collector<OUT>): void;
  /** A record of the second stream; its key is the current key. */
  abstract processElement2(value: IN2, ctx: KeyedProcessContext<K>, out: Collector<OUT>): void;
  /** A timer registered with `ctx.timerService()` (from either input) fired; its key is the current key. */
  onTimer?(timestamp: number, ctx: OnTimerContext<K>, out: Collector<OUT>): void;
}
