/**
 * Runs a CoProcessFunction on two connected non-keyed streams: records of the
 * first input go to `processElement1`, of the second to `processElement2`.
 * Time without timers (timers need a key).
 */
import type { Collector } from "../../core/collector.ts";
import type { CoProcessFunction } from "../../core/co-process-function.ts";
import type { ProcessContext } from "../../core/process-function.ts";
import { NO_TIMESTAMP } from "../elements.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { unkeyedTimerService } from "./timer-service-view.ts";
import { UdfOperator } from "./udf-operator.ts";

/** The operator of `connect(...).process(CoProcessFunction)` on non-keyed streams. */
export class CoProcessOperator<IN1, IN2, OUT> extends UdfOperator<IN1, OUT, CoProcessFunction<IN1, IN2, OUT>> {
  private context!: ProcessContext;
  private watermark = Number.NEGATIVE_INFINITY;

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    const element = ctx.element;
    const timers = unkeyedTimerService(ctx.processingTime, () => this.watermark);
    this.context = {
      timestamp: () => (element.timestamp === NO_TIMESTAMP ? undefined : element.timestamp),
      output: (tag, value) => this.out.collectSide(tag.id, value),
      timerService: () => timers,
    };
    await super.open(ctx, output);
  }

  processElement(value: IN1): void {
    this.fn.processElement1(value, this.context, this.out as Collector<OUT>);
  }

  processElement2(value: unknown): void {
    this.fn.processElement2(value as IN2, this.context, this.out as Collector<OUT>);
  }

  processWatermark(timestamp: number): void {
    this.watermark = timestamp;
    this.out.emitWatermark(timestamp);
  }
}
