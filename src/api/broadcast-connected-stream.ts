/**
 * A stream connected to a broadcast stream (`stream.connect(broadcastStream)`):
 * Flink's `BroadcastConnectedStream`. The broadcast input reaches every
 * parallel instance and maintains the broadcast state; the other input, keyed
 * or not, reads it.
 */
import {
  BroadcastProcessFunction,
  KeyedBroadcastProcessFunction,
} from "../core/broadcast-process-function.ts";
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
   * Processes both inputs: a BroadcastProcessFunction on a non-keyed stream, a
   * KeyedBroadcastProcessFunction on a keyed one.
   *
   * @throws BroadcastFunctionMismatchError when the function does not fit the stream
   */
  process<OUT>(fn: BroadcastProcessFunction<IN, BC, OUT>): SingleOutputStreamOperator<OUT>;
  process<K, OUT>(fn: KeyedBroadcastProcessFunction<K, IN, BC, OUT>): SingleOutputStreamOperator<OUT>;
  process<OUT>(fn: BroadcastProcessFunction<IN, BC, OUT> | KeyedBroadcastProcessFunction<unknown, IN, BC, OUT>): SingleOutputStreamOperator<OUT> {
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
        ? () => new KeyedBroadcastProcessOperator(cloneFunction(fn as KeyedBroadcastProcessFunction<unknown, IN, BC, OUT>), descriptors)
        : () => new BroadcastProcessOperator(cloneFunction(fn as BroadcastProcessFunction<IN, BC, OUT>), descriptors),
      keySelector: key,
    });
    return new SingleOutputStreamOperator<OUT>(env, node);
  }
}
