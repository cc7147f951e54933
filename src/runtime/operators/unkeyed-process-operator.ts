/**
 * Base of the operators that run a process function on a non-keyed stream
 * (process, co-process, broadcast process): the operator's watermark and the
 * context those functions see (time without timers).
 */
import type { ProcessContext } from "../../core/process-function.ts";
import { NO_TIMESTAMP } from "../elements.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { unkeyedTimerService } from "./timer-service-view.ts";
import { UdfOperator } from "./udf-operator.ts";

export abstract class UnkeyedProcessOperator<IN, OUT, F> extends UdfOperator<IN, OUT, F> {
  protected context!: ProcessContext;
  /** The operator's current watermark. */
  protected watermark = Number.NEGATIVE_INFINITY;

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

  processWatermark(timestamp: number): void {
    this.watermark = timestamp;
    this.out.emitWatermark(timestamp);
  }
}
