/**
 * Runs a CoProcessFunction on two connected non-keyed streams: records of the
 * first input go to `processElement1`, of the second to `processElement2`.
 * Time without timers (timers need a key).
 */
import type { Collector } from "../../core/collector.ts";
import type { CoProcessFunctionObject } from "../../core/co-process-function.ts";
import { UnkeyedProcessOperator } from "./unkeyed-process-operator.ts";

/** The operator of `connect(...).process(CoProcessFunction)` on non-keyed streams. */
export class CoProcessOperator<IN1, IN2, OUT> extends UnkeyedProcessOperator<IN1, OUT, CoProcessFunctionObject<IN1, IN2, OUT>> {
  processElement(value: IN1): void {
    this.fn.processElement1(value, this.context, this.out as Collector<OUT>);
  }

  processElement2(value: unknown): void {
    this.fn.processElement2(value as IN2, this.context, this.out as Collector<OUT>);
  }
}
