/**
 * Two streams connected into one two-input operator (`a.connect(b)`): Flink's
 * `ConnectedStreams`. Non-keyed, or keyed on both sides (`a.keyBy(ka).connect(b.keyBy(kb))`
 * or `.keyBy(ka, kb)`), in which case records of either input with equal keys
 * meet in the same parallel instance and share its keyed state and timers.
 */
import type { CoFlatMapFunction, CoMapFunction } from "../core/co-map-function.ts";
import {
  KeyedCoProcessFunction,
  type CoProcessFunctionObject,
  type KeyedCoProcessFunctionObject,
} from "../core/co-process-function.ts";
import type { FunctionObject } from "../core/function-object.ts";
import type { KeySelector, Partitioning, StreamEdge } from "../graph/stream-graph.ts";
import { CoFlatMapOperator, CoMapOperator } from "../runtime/operators/co-map-operators.ts";
import { KeyedCoProcessOperator } from "../runtime/operators/co-keyed-process-operator.ts";
import { CoProcessOperator } from "../runtime/operators/co-process-operator.ts";
import { cloneFunction, SingleOutputStreamOperator, type DataStream } from "./data-stream.ts";

/** A KeyedCoProcessFunction (or another keyed two-input function) was applied to streams that are not both keyed. */
export class NotKeyedStreamsError extends Error {
  override name = "NotKeyedStreamsError";
  constructor(what: string) {
    super(`${what} needs both inputs keyed: use a.keyBy(ka).connect(b.keyBy(kb)) or a.connect(b).keyBy(ka, kb)`);
  }
}

/**
 * Two streams of possibly different types, processed by one operator with one
 * method per input.
 *
 * @example
 * ```ts
 * const control = env.fromElements("stop:b");
 * const words = env.fromElements("a", "b", "c");
 * words.connect(control).flatMap({
 *   flatMap1: (w) => [w],
 *   flatMap2: (c) => [`control ${c}`],
 * }).print();
 * ```
 */
export class ConnectedStreams<IN1, IN2> {
  /** @internal */
  constructor(
    private readonly first: DataStream<IN1>,
    private readonly second: DataStream<IN2>,
  ) {}

  /** The first input (the stream `connect` was called on). */
  getFirstInput(): DataStream<IN1> {
    return this.first;
  }

  /** The second input (the argument of `connect`). */
  getSecondInput(): DataStream<IN2> {
    return this.second;
  }

  /** Keys both inputs: records with equal keys (by canonical key hashing) go to the same instance. */
  keyBy<K>(key1: KeySelector<IN1, K>, key2: KeySelector<IN2, K>): KeyedConnectedStreams<IN1, IN2, K> {
    return new KeyedConnectedStreams(this.first.keyBy(key1), this.second.keyBy(key2));
  }

  /**
   * Processes both inputs with one function: a CoProcessFunction, or an object
   * literal with `processElement1` and `processElement2` (and `open(context)`,
   * `close()`). When both inputs are keyed, the function gets keyed state and
   * timers (see {@link KeyedConnectedStreams.process}).
   *
   * @example
   * ```ts
   * numbers.connect(words).process({
   *   processElement1(n, ctx, out: Collector<string>) { out.collect(`number ${n}`); },
   *   processElement2(w, ctx, out) { out.collect(`word ${w}`); },
   * });
   * ```
   * @throws NotKeyedStreamsError for a KeyedCoProcessFunction on non-keyed inputs
   */
  process<OUT, S = unknown>(fn: FunctionObject<CoProcessFunctionObject<IN1, IN2, OUT>, S>): SingleOutputStreamOperator<OUT> {
    const keys = this.keys();
    if (keys) {
      const f = fn as KeyedCoProcessFunctionObject<unknown, IN1, IN2, OUT>;
      return this.transform("keyed-co-process", "KeyedCoProcess", () => new KeyedCoProcessOperator(cloneFunction(f)), keys);
    }
    if (fn instanceof KeyedCoProcessFunction) throw new NotKeyedStreamsError("process(KeyedCoProcessFunction)");
    return this.transform("co-process", "CoProcess", () => new CoProcessOperator(cloneFunction(fn)));
  }

  /**
   * One result per record of either input: an object with `map1` and `map2` (and `open(context)`, `close()`).
   *
   * @example
   * ```ts
   * numbers.connect(words).map({ map1: (n) => String(n), map2: (w) => w });
   * ```
   */
  map<OUT, S = unknown>(fn: FunctionObject<CoMapFunction<IN1, IN2, OUT>, S>): SingleOutputStreamOperator<OUT> {
    return this.transform("co-map", "CoMap", () => new CoMapOperator(cloneFunction(fn)));
  }

  /**
   * Zero or more results per record of either input: an object with `flatMap1`
   * and `flatMap2` (and `open(context)`, `close()`), each returning an iterable or using the collector.
   *
   * @example
   * ```ts
   * lines.connect(numbers).flatMap({ flatMap1: (l) => l.split(" "), flatMap2: (n) => [String(n)] });
   * ```
   */
  flatMap<OUT, S = unknown>(fn: FunctionObject<CoFlatMapFunction<IN1, IN2, OUT>, S>): SingleOutputStreamOperator<OUT> {
    return this.transform("co-flat-map", "CoFlatMap", () => new CoFlatMapOperator(cloneFunction(fn)));
  }

  /** Both key selectors when both inputs are keyed. */
  private keys(): [KeySelector, KeySelector] | undefined {
    const k1 = keySelectorOf(this.first);
    const k2 = keySelectorOf(this.second);
    return k1 && k2 ? [k1, k2] : undefined;
  }

  private transform<OUT>(type: string, name: string, createOperator: () => object, keys?: [KeySelector, KeySelector]): SingleOutputStreamOperator<OUT> {
    const env = this.first.getExecutionEnvironment();
    const node = env.addNode({
      type,
      name,
      inputs: [...edgesOf(this.first, 0), ...edgesOf(this.second, 1)],
      createOperator,
      keySelector: keys?.[0],
      keySelector2: keys?.[1],
    });
    return new SingleOutputStreamOperator<OUT>(env, node);
  }
}

/**
 * Two streams keyed on keys of the same type (`a.keyBy(ka).connect(b.keyBy(kb))`
 * or `a.connect(b).keyBy(ka, kb)`): records of either input with equal keys meet
 * in the same parallel instance and share its keyed state and timers.
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
export class KeyedConnectedStreams<IN1, IN2, K> extends ConnectedStreams<IN1, IN2> {
  /**
   * Processes both inputs with keyed state and timers of the current key: a
   * KeyedCoProcessFunction, or an object literal with `processElement1`,
   * `processElement2` (and `onTimer`, `open(context)`, `close()`); the key type
   * of its contexts is the streams' key type.
   */
  override process<OUT, S = unknown>(fn: FunctionObject<KeyedCoProcessFunctionObject<K, IN1, IN2, OUT>, S>): SingleOutputStreamOperator<OUT> {
    return super.process(fn as CoProcessFunctionObject<IN1, IN2, OUT>);
  }
}

/**
 * @internal The edges from `stream`'s upstreams to input `side` of a two-input
 * operator; `partitioning` (without key selector) replaces the upstreams' own when given.
 */
export function edgesOf<T>(stream: DataStream<T>, side: 0 | 1, partitioning?: Partitioning): StreamEdge[] {
  return stream.upstreams.map((u) => ({
    from: u.node,
    partitioning: partitioning ?? u.partitioning ?? "forward",
    keySelector: partitioning === undefined ? u.keySelector : undefined,
    sideTag: u.sideTag,
    inputSide: side,
  }));
}

/** @internal The key selector of a keyed stream (every upstream hash-partitioned by one selector), or undefined. */
export function keySelectorOf<T>(stream: DataStream<T>): KeySelector | undefined {
  const first = stream.upstreams[0];
  if (!first || first.partitioning !== "hash" || !first.keySelector) return undefined;
  return stream.upstreams.every((u) => u.partitioning === "hash" && u.keySelector === first.keySelector) ? first.keySelector : undefined;
}
