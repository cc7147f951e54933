/**
 * A stream connected to a broadcast stream (`stream.connect(broadcastStream)`):
 * Flink's `BroadcastConnectedStream`. The broadcast input reaches every
 * parallel instance and maintains the broadcast state; the other input, keyed
 * or not, reads it.
 */
import {
  BroadcastProcessFunction,
  KeyedBroadcastProcessFunction,
  type BroadcastProcessFunctionObject,
  type KeyedBroadcastProcessFunctionObject,
} from "../core/broadcast-process-function.ts";
import type { FunctionObject } from "../core/function-object.ts";
import type { MapStateDescriptor } from "../state/index.ts";
import { BroadcastProcessOperator } from "../runtime/operators/broadcast-process-operator.ts";
import { KeyedBroadcastProcessOperator } from "../runtime/operators/broadcast-keyed-process-operator.ts";
import type { BroadcastStream } from "./broadcast-stream.ts";
import { edgesOf, keySelectorOf } from "./connected-streams.ts";
import { cloneFunction, SingleOutputStreamOperator, type DataStream } from "./data-stream.ts";

/** A keyed stream got a BroadcastProcessFunction, or a non-keyed one a KeyedBroadcastProcessFunction. */
export class BroadcastFunctionMismatchError extends Error {
  override name = "BroadcastFunctionMismatchError";
  constructor(keyed: boolean) {
    super(
      keyed
        ? "a keyed stream connected to a broadcast stream needs a KeyedBroadcastProcessFunction"
        : "a KeyedBroadcastProcessFunction needs a keyed stream: use stream.keyBy(...).connect(broadcastStream)",
    );
  }
}

/**
 * @example
 * ```ts
 * const limits = new MapStateDescriptor<string, number>("limits");
 * readings.connect(limitStream.broadcast(limits)).process(new AboveLimit());
 * ```
 */
export class BroadcastConnectedStream<IN, BC> {
  /** @internal */
  constructor(
    private readonly input: DataStream<IN>,
    private readonly broadcast: BroadcastStream<BC>,
  ) {}

  /**
   * Processes both inputs: a BroadcastProcessFunction, or an object literal with
   * `processElement` and `processBroadcastElement` (and `open(context)`,
   * `close()`). A keyed stream takes a keyed function (see
   * {@link KeyedBroadcastConnectedStream.process}).
   *
   * @example
   * ```ts
   * const limits = new MapStateDescriptor<string, number>("limits");
   * readings.connect(limitStream.broadcast(limits)).process({
   *   processElement(r, ctx, out: Collector<Reading>) {
   *     if (r.value > (ctx.getBroadcastState(limits).get(r.sensor) ?? Infinity)) out.collect(r);
   *   },
   *   processBroadcastElement(l, ctx) { ctx.getBroadcastState(limits).put(l.sensor, l.max); },
   * });
   * ```
   * @throws BroadcastFunctionMismatchError when the function does not fit the stream
   */
  process<OUT, S = unknown>(fn: FunctionObject<BroadcastProcessFunctionObject<IN, BC, OUT>, S>): SingleOutputStreamOperator<OUT> {
    const key = keySelectorOf(this.input);
    const descriptors = this.broadcast.getBroadcastStateDescriptors() as MapStateDescriptor<unknown, unknown>[];
    if (key !== undefined && fn instanceof BroadcastProcessFunction) throw new BroadcastFunctionMismatchError(true);
    if (key === undefined && fn instanceof KeyedBroadcastProcessFunction) throw new BroadcastFunctionMismatchError(false);
    const env = this.input.getExecutionEnvironment();
    const keyed = key !== undefined;
    const node = env.addNode({
      type: keyed ? "keyed-broadcast-process" : "broadcast-process",
      name: keyed ? "KeyedBroadcastProcess" : "BroadcastProcess",
      inputs: [...edgesOf(this.input, 0), ...edgesOf(this.broadcast.stream, 1, "broadcast")],
      createOperator: keyed
        ? () => new KeyedBroadcastProcessOperator(cloneFunction(fn as KeyedBroadcastProcessFunctionObject<unknown, IN, BC, OUT>), descriptors)
        : () => new BroadcastProcessOperator(cloneFunction(fn), descriptors),
      keySelector: key,
    });
    return new SingleOutputStreamOperator<OUT>(env, node);
  }
}

/**
 * A keyed stream connected to a broadcast stream (`keyed.connect(broadcastStream)`):
 * keyed state and timers on the keyed side, broadcast state on both.
 *
 * @example
 * ```ts
 * const rules = new MapStateDescriptor<string, Rule>("rules");
 * events.keyBy((e) => e.user).connect(ruleStream.broadcast(rules)).process({
 *   processElement(e, ctx, out: Collector<Alert>) {
 *     for (const [name, rule] of ctx.getBroadcastState(rules).entries())
 *       if (rule.matches(e)) out.collect({ user: ctx.getCurrentKey(), rule: name });
 *   },
 *   processBroadcastElement(r, ctx) { ctx.getBroadcastState(rules).put(r.name, r); },
 * });
 * ```
 */
export class KeyedBroadcastConnectedStream<IN, BC, K> extends BroadcastConnectedStream<IN, BC> {
  /**
   * Processes both inputs: a KeyedBroadcastProcessFunction, or an object literal
   * with `processElement` and `processBroadcastElement` (and `onTimer`,
   * `open(context)`, `close()`); the key type of its contexts is the stream's key type.
   *
   * @throws BroadcastFunctionMismatchError for a (non-keyed) BroadcastProcessFunction
   */
  override process<OUT, S = unknown>(fn: FunctionObject<KeyedBroadcastProcessFunctionObject<K, IN, BC, OUT>, S>): SingleOutputStreamOperator<OUT> {
    return super.process(fn as BroadcastProcessFunctionObject<IN, BC, OUT>);
  }
}
