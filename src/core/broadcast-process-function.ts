/**
 * The functions of a stream connected to a broadcast stream (Flink's
 * `BroadcastProcessFunction` and `KeyedBroadcastProcessFunction`): broadcast
 * records (rules, configuration) update the broadcast state, which is the same
 * on every parallel instance; the other stream's records read it.
 */
import { RichFunction } from "./rich-function.ts";
import type { Collector } from "./collector.ts";
import type { FunctionLifecycle } from "./function-object.ts";
import type { OutputTag } from "./output-tag.ts";
import type { TimeDomain, TimerService } from "./process-function.ts";
import type { MapStateDescriptor } from "../state/descriptors.ts";
import type { ValueStateDescriptor, ListStateDescriptor } from "../state/descriptors.ts";
import type { ListState, MapState, ValueState } from "../state/state-handles.ts";

/** A read-only view of one broadcast state (what the non-broadcast side sees). */
export interface ReadOnlyBroadcastState<K, V> {
  get(key: K): V | undefined;
  contains(key: K): boolean;
  entries(): IterableIterator<[K, V]>;
  keys(): IterableIterator<K>;
  values(): IterableIterator<V>;
  isEmpty(): boolean;
}

/** One broadcast state, writable (what the broadcast side sees). Writes must be deterministic: every instance applies them. */
export interface BroadcastState<K, V> extends ReadOnlyBroadcastState<K, V> {
  put(key: K, value: V): void;
  putAll(entries: Iterable<[K, V]>): void;
  remove(key: K): void;
  clear(): void;
}

/** What both sides' contexts share. */
interface BroadcastBaseContext {
  /** Event timestamp of the record, if it has one. */
  timestamp(): number | undefined;
  /** Emits `value` to the side output `tag`. */
  output<X>(tag: OutputTag<X>, value: X): void;
  /** Current processing time (ms, from the job's clock). */
  currentProcessingTime(): number;
  /** The operator's current event-time watermark. */
  currentWatermark(): number;
}

/** Context of `processElement`: the broadcast states, read-only. */
export interface ReadOnlyBroadcastContext extends BroadcastBaseContext {
  /** @throws UnknownBroadcastStateError when the descriptor was not given to `broadcast(...)` */
  getBroadcastState<K, V>(descriptor: MapStateDescriptor<K, V>): ReadOnlyBroadcastState<K, V>;
}

/** Context of `processBroadcastElement`: the broadcast states, writable. */
export interface BroadcastContext extends BroadcastBaseContext {
  /** @throws UnknownBroadcastStateError when the descriptor was not given to `broadcast(...)` */
  getBroadcastState<K, V>(descriptor: MapStateDescriptor<K, V>): BroadcastState<K, V>;
}

/** Context of `KeyedBroadcastProcessFunction.processElement`: the record's key and timers. */
export interface KeyedReadOnlyBroadcastContext<K> extends ReadOnlyBroadcastContext {
  getCurrentKey(): K;
  timerService(): TimerService;
}

/** Context of `KeyedBroadcastProcessFunction.onTimer`. */
export interface KeyedBroadcastOnTimerContext<K> extends KeyedReadOnlyBroadcastContext<K> {
  timeDomain(): TimeDomain;
}

/** A keyed state descriptor `applyToKeyedState` accepts, with the state handle it gives. */
export type KeyedStateDescriptor = ValueStateDescriptor<unknown> | ListStateDescriptor<unknown> | MapStateDescriptor<unknown, unknown>;

/** The handle of a keyed state descriptor. */
export type KeyedStateOf<D> =
  D extends ValueStateDescriptor<infer T> ? ValueState<T>
  : D extends ListStateDescriptor<infer T> ? ListState<T>
  : D extends MapStateDescriptor<infer MK, infer MV> ? MapState<MK, MV>
  : never;

/** Context of `KeyedBroadcastProcessFunction.processBroadcastElement`. */
export interface KeyedBroadcastContext extends BroadcastContext {
  /**
   * Calls `fn` for every key of this instance that has a value in the keyed state
   * `descriptor` (value, list or map state), with that key current.
   */
  applyToKeyedState<D extends KeyedStateDescriptor>(descriptor: D, fn: (key: unknown, state: KeyedStateOf<D>) => void): void;
}

/** The methods of a function of a non-keyed stream connected to a broadcast stream. */
export interface BroadcastProcessFunctionObject<IN, BC, OUT> extends FunctionLifecycle {
  /** A record of the non-broadcast stream: reads the broadcast state. */
  processElement(value: IN, ctx: ReadOnlyBroadcastContext, out: Collector<OUT>): void;
  /** A record of the broadcast stream, seen by every parallel instance: updates the broadcast state. */
  processBroadcastElement(value: BC, ctx: BroadcastContext, out: Collector<OUT>): void;
}

/** The methods of a function of a keyed stream connected to a broadcast stream. */
export interface KeyedBroadcastProcessFunctionObject<K, IN, BC, OUT> extends FunctionLifecycle {
  /** A record of the keyed stream: keyed state of its key, broadcast state read-only. */
  processElement(value: IN, ctx: KeyedReadOnlyBroadcastContext<K>, out: Collector<OUT>): void;
  /** A record of the broadcast stream, seen by every parallel instance: updates the broadcast state. */
  processBroadcastElement(value: BC, ctx: KeyedBroadcastContext, out: Collector<OUT>): void;
  /** A timer registered in `processElement` fired; its key is the current key. */
  onTimer?(timestamp: number, ctx: KeyedBroadcastOnTimerContext<K>, out: Collector<OUT>): void;
}

/**
 * Connects a non-keyed stream with a broadcast stream.
 *
 * @example
 * ```ts
 * const thresholds = new MapStateDescriptor<string, number>("thresholds");
 * readings.connect(limits.broadcast(thresholds)).process(new (class extends BroadcastProcessFunction<Reading, Limit, Reading> {
 *   processElement(r: Reading, ctx: ReadOnlyBroadcastContext, out: Collector<Reading>) {
 *     if (r.value > (ctx.getBroadcastState(thresholds).get(r.sensor) ?? Infinity)) out.collect(r);
 *   }
 *   processBroadcastElement(l: Limit, ctx: BroadcastContext) {
 *     ctx.getBroadcastState(thresholds).put(l.sensor, l.max);
 *   }
 * })());
 * ```
 */
export abstract class BroadcastProcessFunction<IN, BC, OUT> extends RichFunction implements BroadcastProcessFunctionObject<IN, BC, OUT> {
  /** A record of the non-broadcast stream: reads the broadcast state. */
  abstract processElement(value: IN, ctx: ReadOnlyBroadcastContext, out: Collector<OUT>): void;
  /** A record of the broadcast stream, seen by every parallel instance: updates the broadcast state. */
  abstract processBroadcastElement(value: BC, ctx: BroadcastContext, out: Collector<OUT>): void;
}

/**
 * Connects a keyed stream with a broadcast stream: keyed state and timers on the
 * keyed side, broadcast state on both.
 *
 * @example
 * ```ts
 * const rules = new MapStateDescriptor<string, Rule>("rules");
 * events.keyBy((e) => e.user).connect(ruleStream.broadcast(rules))
 *   .process(new (class extends KeyedBroadcastProcessFunction<string, Event, Rule, Alert> {
 *     processElement(e: Event, ctx: KeyedReadOnlyBroadcastContext<string>, out: Collector<Alert>) {
 *       for (const [name, rule] of ctx.getBroadcastState(rules).entries())
 *         if (rule.matches(e)) out.collect({ user: ctx.getCurrentKey(), rule: name });
 *     }
 *     processBroadcastElement(r: Rule, ctx: KeyedBroadcastContext) {
 *       ctx.getBroadcastState(rules).put(r.name, r);
 *     }
 *   })());
 * ```
 */
export abstract class KeyedBroadcastProcessFunction<K, IN, BC, OUT>
  extends RichFunction
  implements KeyedBroadcastProcessFunctionObject<K, IN, BC, OUT>
{
  /** A record of the keyed stream: keyed state of its key, broadcast state read-only. */
  abstract processElement(value: IN, ctx: KeyedReadOnlyBroadcastContext<K>, out: Collector<OUT>): void;
  /** A record of the broadcast stream, seen by every parallel instance: updates the broadcast state. */
  abstract processBroadcastElement(value: BC, ctx: KeyedBroadcastContext, out: Collector<OUT>): void;
  /** A timer registered in `processElement` fired; its key is the current key. */
  onTimer?(timestamp: number, ctx: KeyedBroadcastOnTimerContext<K>, out: Collector<OUT>): void;
}
