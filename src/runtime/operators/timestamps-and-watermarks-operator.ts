/**
 * `stream.assignTimestampsAndWatermarks(strategy)`: assigns event timestamps
 * to records and generates watermarks in the middle of a pipeline (Flink's
 * TimestampsAndWatermarksOperator). Watermarks from upstream are swallowed,
 * except the final one that ends event time.
 */
import type { WatermarkGenerator, WatermarkOutput } from "../../time/watermark-generator.ts";
import type { WatermarkStrategy } from "../../time/watermark-strategy.ts";
import { MAX_WATERMARK, NO_TIMESTAMP } from "../elements.ts";
import type { OperatorContext, Output, StreamOperator } from "./stream-operator.ts";
import { WatermarkState } from "./watermark-state.ts";

export class TimestampsAndWatermarksOperator<T> implements StreamOperator<T, T> {
  private ctx!: OperatorContext;
  private out!: Output<T>;
  private generator: WatermarkGenerator<T> | null = null;
  private watermarks!: WatermarkOutput;
  private last = Number.NEGATIVE_INFINITY;
  private watermarkState!: WatermarkState;
  private idle = false;

  constructor(private readonly strategy: WatermarkStrategy<T>) {}

  open(ctx: OperatorContext, out: Output<T>): void {
    this.ctx = ctx;
    this.out = out;
    const time = ctx.processingTime;
    this.generator = this.strategy.generator(() => time.now());
    this.watermarks = {
      emitWatermark: (ts) => {
        if (ts <= this.last) return;
        this.setIdle(false);
        this.last = ts;
        out.emitWatermark(ts);
      },
      markIdle: () => this.setIdle(true),
      markActive: () => this.setIdle(false),
    };
    this.watermarkState = new WatermarkState(ctx.operatorState);
    if (ctx.isRestored) this.watermarks.emitWatermark(this.watermarkState.restored());
    const interval = ctx.autoWatermarkIntervalMs;
    if (this.generator && interval > 0) {
      const tick = () => {
        this.generator!.onPeriodicEmit(this.watermarks);
        time.scheduleAt(time.now() + interval, tick);
      };
      time.scheduleAt(time.now() + interval, tick);
    }
  }

  processElement(value: T): void {
    const element = this.ctx.element;
    const assign = this.strategy.timestampAssigner;
    if (assign) element.timestamp = assign(value, element.timestamp === NO_TIMESTAMP ? undefined : element.timestamp);
    const ts = element.timestamp;
    this.out.collect(value);
    // after the record, as in Flink: a watermark derived from a record follows it
    this.generator?.onEvent(value, ts, this.watermarks);
  }

  snapshotState(): void {
    this.watermarkState.save(this.last);
  }

  processWatermark(timestamp: number): void {
    if (timestamp === MAX_WATERMARK) this.watermarks.emitWatermark(MAX_WATERMARK);
  }

  private setIdle(idle: boolean): void {
    if (this.idle === idle) return;
    this.idle = idle;
    this.out.emitWatermarkStatus(idle);
  }
}
