/**
 * Runs a keyed broadcast process function (class or object): a keyed stream (first input) connected
 * to a broadcast stream (second input). Keyed records see the keyed state and
 * timers of their key and read the broadcast state; broadcast records update
 * the broadcast state and may visit every key's state (`applyToKeyedState`).
 */
import type {
  KeyedBroadcastContext,
  KeyedBroadcastOnTimerContext,
  KeyedBroadcastProcessFunctionObject,
  KeyedStateDescriptor,
  KeyedStateOf,
} from "../../core/broadcast-process-function.ts";
import type { Collector } from "../../core/collector.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import type { KeyedStateBackend, MapStateDescriptor } from "../../state/index.ts";
import { BroadcastStateStore } from "./broadcast-state-store.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { KeyedTimedOperator } from "./keyed-timed-operator.ts";

/** The operator of `keyed.connect(broadcastStream).process(KeyedBroadcastProcessFunction)`. */
export class KeyedBroadcastProcessOperator<K, IN, BC, OUT> extends KeyedTimedOperator<
  IN,
  OUT,
  KeyedBroadcastProcessFunctionObject<K, IN, BC, OUT>,
  K
> {
  private key!: KeySelector;
  private state!: BroadcastStateStore;
  private readContext!: KeyedBroadcastOnTimerContext<K>;
  private writeContext!: KeyedBroadcastContext;

  constructor(
    fn: KeyedBroadcastProcessFunctionObject<K, IN, BC, OUT>,
    private readonly descriptors: readonly MapStateDescriptor<unknown, unknown>[],
  ) {
    super(fn);
  }

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    const backend = ctx.keyedState;
    if (!backend || !ctx.keySelector) throw new Error(`operator '${ctx.operatorUid}' needs a keyed first input`);
    this.key = ctx.keySelector;
    this.state = new BroadcastStateStore(ctx.operatorUid, ctx.subtaskIndex, ctx.operatorState, this.descriptors);
    await super.open(ctx, output);
    const keyed = this.context;
    const base = {
      timestamp: keyed.timestamp,
      output: keyed.output,
      currentProcessingTime: () => ctx.processingTime.now(),
      currentWatermark: () => this.timers.currentWatermark(),
    };
    this.readContext = {
      ...base,
      getBroadcastState: (d) => this.state.readOnly(d),
      getCurrentKey: keyed.getCurrentKey,
      timerService: keyed.timerService,
      timeDomain: keyed.timeDomain,
    };
    this.writeContext = {
      ...base,
      getBroadcastState: (d) => this.state.writable(d),
      applyToKeyedState: (d, fn) => applyToKeyedState(backend, d, fn),
    };
  }

  processElement(value: IN): void {
    this.setKey(this.key(value));
    this.fn.processElement(value, this.readContext, this.out as Collector<OUT>);
  }

  processElement2(value: unknown): void {
    this.fn.processBroadcastElement(value as BC, this.writeContext, this.out as Collector<OUT>);
  }

  override snapshotState(checkpointId: number): void {
    this.state.snapshot();
    super.snapshotState(checkpointId);
  }

  protected onTimer(timestamp: number): void {
    this.fn.onTimer?.(timestamp, this.readContext, this.out as Collector<OUT>);
  }
}

/** Calls `fn` for every key with a value in the keyed state `d`, with that key current. */
function applyToKeyedState<D extends KeyedStateDescriptor>(
  backend: KeyedStateBackend,
  d: D,
  fn: (key: unknown, state: KeyedStateOf<D>) => void,
): void {
  const handle = (d.kind === "value" ? backend.getState(d) : d.kind === "list" ? backend.getListState(d) : backend.getMapState(d)) as KeyedStateOf<D>;
  const keys = [...backend.entriesOf(d.name)].map(([k]) => k);
  for (const k of keys) {
    backend.setCurrentKey(k);
    fn(k, handle);
  }
}
