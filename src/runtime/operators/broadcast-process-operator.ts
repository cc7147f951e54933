/**
 * Runs a broadcast process function (class or object): a non-keyed stream (first input) connected
 * to a broadcast stream (second input). Broadcast records update the broadcast
 * state; the other records read it.
 */
import type {
  BroadcastContext,
  BroadcastProcessFunctionObject,
  ReadOnlyBroadcastContext,
} from "../../core/broadcast-process-function.ts";
import type { Collector } from "../../core/collector.ts";
import type { MapStateDescriptor } from "../../state/index.ts";
import { BroadcastStateStore } from "./broadcast-state-store.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { UnkeyedProcessOperator } from "./unkeyed-process-operator.ts";

/** The operator of `stream.connect(broadcastStream).process(BroadcastProcessFunction)`. */
export class BroadcastProcessOperator<IN, BC, OUT> extends UnkeyedProcessOperator<IN, OUT, BroadcastProcessFunctionObject<IN, BC, OUT>> {
  private state!: BroadcastStateStore;
  private readContext!: ReadOnlyBroadcastContext;
  private writeContext!: BroadcastContext;

  constructor(
    fn: BroadcastProcessFunctionObject<IN, BC, OUT>,
    private readonly descriptors: readonly MapStateDescriptor<unknown, unknown>[],
  ) {
    super(fn);
  }

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    this.state = new BroadcastStateStore(ctx.operatorUid, ctx.subtaskIndex, ctx.operatorState, this.descriptors);
    await super.open(ctx, output);
    const base = {
      timestamp: this.context.timestamp,
      output: this.context.output,
      currentProcessingTime: () => ctx.processingTime.now(),
      currentWatermark: () => this.watermark,
    };
    this.readContext = { ...base, getBroadcastState: (d) => this.state.readOnly(d) };
    this.writeContext = { ...base, getBroadcastState: (d) => this.state.writable(d) };
  }

  processElement(value: IN): void {
    this.fn.processElement(value, this.readContext, this.out as Collector<OUT>);
  }

  processElement2(value: unknown): void {
    this.fn.processBroadcastElement(value as BC, this.writeContext, this.out as Collector<OUT>);
  }

  override snapshotState(checkpointId: number): void {
    this.state.snapshot();
    super.snapshotState(checkpointId);
  }
}
