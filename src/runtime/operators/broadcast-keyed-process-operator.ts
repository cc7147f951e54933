/**
 * Runs a KeyedBroadcastProcessFunction: a keyed stream (first input) connected
 * to a broadcast stream (second input). Keyed records see the keyed state and
 * timers of their key and read the broadcast state; broadcast records update
 * the broadcast state and may visit every key's state (`applyToKeyedState`).
 */
import type {
  KeyedBroadcastContext,
  KeyedBroadcastOnTimerContext,
  KeyedBroadcastProcessFunction,
  KeyedStateDescriptor,
  KeyedStateOf,
} from "../../core/broadcast-process-function.ts";
import type { Collector } from "../../core/collector.ts";
import type { TimeDomain } from "../../core/process-function.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import type { HeapKeyedStateBackend, MapStateDescriptor } from "../../state/index.ts";
import { KeyedTimerService } from "../../time/timer-service.ts";
import { NO_TIMESTAMP } from "../elements.ts";
import { BroadcastStateStore } from "./broadcast-state-store.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { timerServiceOf } from "./timer-service-view.ts";
import { UdfOperator } from "./udf-operator.ts";

/** The operator of `keyed.connect(broadcastStream).process(KeyedBroadcastProcessFunction)`. */
export class KeyedBroadcastProcessOperator<K, IN, BC, OUT> extends UdfOperator<IN, OUT, KeyedBroadcastProcessFunction<K, IN, BC, OUT>> {
  private key!: KeySelector;
  private currentKey: unknown;
  private state!: BroadcastStateStore;
  private timers!: KeyedTimerService;
  private domain: TimeDomain = "event-time";
  private readContext!: KeyedBroadcastOnTimerContext<K>;
  private writeContext!: KeyedBroadcastContext;

  constructor(
    fn: KeyedBroadcastProcessFunction<K, IN, BC, OUT>,
    private readonly descriptors: readonly MapStateDescriptor<unknown, unknown>[],
  ) {
    super(fn);
  }

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    const backend = ctx.keyedState;
    if (!backend || !ctx.keySelector) throw new Error(`operator '${ctx.operatorUid}' needs a keyed first input`);
    this.key = ctx.keySelector;
    this.state = new BroadcastStateStore(ctx.operatorUid, ctx.subtaskIndex, ctx.operatorState, this.descriptors);
    this.timers = new KeyedTimerService(backend, ctx.processingTime, (ts, key, _ns, domain) => this.fire(ts, key, domain));
    this.timers.restore();
    const element = ctx.element;
    const view = timerServiceOf(this.timers);
    const base = {
      timestamp: () => (element.timestamp === NO_TIMESTAMP ? undefined : element.timestamp),
      output: <X>(tag: { id: string }, value: X) => this.out.collectSide(tag.id, value),
      currentProcessingTime: () => ctx.processingTime.now(),
      currentWatermark: () => this.timers.currentWatermark(),
    };
    this.readContext = {
      ...base,
      getBroadcastState: (d) => this.state.readOnly(d),
      getCurrentKey: () => this.currentKey as K,
      timerService: () => view,
      timeDomain: () => this.domain,
    };
    this.writeContext = {
      ...base,
      getBroadcastState: (d) => this.state.writable(d),
      applyToKeyedState: (d, fn) => applyToKeyedState(backend, d, fn),
    };
    await super.open(ctx, output);
  }

  processElement(value: IN): void {
    const k = this.key(value);
    this.currentKey = k;
    this.ctx.keyedState!.setCurrentKey(k);
    this.fn.processElement(value, this.readContext, this.out as Collector<OUT>);
  }

  processElement2(value: unknown): void {
    this.fn.processBroadcastElement(value as BC, this.writeContext, this.out as Collector<OUT>);
  }

  processWatermark(timestamp: number): void {
    this.timers.advanceWatermark(timestamp);
    this.out.emitWatermark(timestamp);
  }

  override snapshotState(checkpointId: number): void {
    this.state.snapshot();
    super.snapshotState(checkpointId);
  }

  private fire(timestamp: number, key: unknown, domain: TimeDomain): void {
    if (!this.fn.onTimer) return;
    this.currentKey = key;
    this.domain = domain;
    this.ctx.element.timestamp = domain === "event-time" ? timestamp : NO_TIMESTAMP;
    this.fn.onTimer(timestamp, this.readContext, this.out as Collector<OUT>);
  }
}

/** Calls `fn` for every key with a value in the keyed state `d`, with that key current. */
function applyToKeyedState<D extends KeyedStateDescriptor>(
  backend: HeapKeyedStateBackend,
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
