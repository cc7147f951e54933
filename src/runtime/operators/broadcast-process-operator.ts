/**
 * Runs a BroadcastProcessFunction: a non-keyed stream (first input) connected
 * to a broadcast stream (second input). Broadcast records update the broadcast
 * state; the other records read it.
 */
import type {
  BroadcastContext,
  BroadcastProcessFunction,
  ReadOnlyBroadcastContext,
} from "../../core/broadcast-process-function.ts";
import type { Collector } from "../../core/collector.ts";
import type { MapStateDescriptor } from "../../state/index.ts";
import { NO_TIMESTAMP } from "../elements.ts";
import { BroadcastStateStore } from "./broadcast-state-store.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { UdfOperator } from "./udf-operator.ts";

/** The operator of `stream.connect(broadcastStream).process(BroadcastProcessFunction)`. */
export class BroadcastProcessOperator<IN, BC, OUT> extends UdfOperator<IN, OUT, BroadcastProcessFunction<IN, BC, OUT>> {
  private state!: BroadcastStateStore;
  private watermark = Number.NEGATIVE_INFINITY;
  private readContext!: ReadOnlyBroadcastContext;
  private writeContext!: BroadcastContext;

  constructor(
    fn: BroadcastProcessFunction<IN, BC, OUT>,
    private readonly descriptors: readonly MapStateDescriptor<unknown, unknown>[],
  ) {
    super(fn);
  }

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    this.state = new BroadcastStateStore(ctx.operatorUid, ctx.subtaskIndex, ctx.operatorState, this.descriptors);
    const element = ctx.element;
    const base = {
      timestamp: () => (element.timestamp === NO_TIMESTAMP ? undefined : element.timestamp),
      output: <X>(tag: { id: string }, value: X) => this.out.collectSide(tag.id, value),
      currentProcessingTime: () => ctx.processingTime.now(),
      currentWatermark: () => this.watermark,
    };
    this.readContext = { ...base, getBroadcastState: (d) => this.state.readOnly(d) };
    this.writeContext = { ...base, getBroadcastState: (d) => this.state.writable(d) };
    await super.open(ctx, output);
  }

  processElement(value: IN): void {
    this.fn.processElement(value, this.readContext, this.out as Collector<OUT>);
  }

  processElement2(value: unknown): void {
    this.fn.processBroadcastElement(value as BC, this.writeContext, this.out as Collector<OUT>);
  }

  processWatermark(timestamp: number): void {
    this.watermark = timestamp;
    this.out.emitWatermark(timestamp);
  }

  override snapshotState(checkpointId: number): void {
    this.state.snapshot();
    super.snapshotState(checkpointId);
  }
}
