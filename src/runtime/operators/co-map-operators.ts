/**
 * `map` and `flatMap` on connected streams: one method of the function per input.
 */
import type { CoFlatMapFunction, CoMapFunction } from "../../core/co-map-function.ts";
import { UdfOperator } from "./udf-operator.ts";

/** The operator of `connect(...).map(CoMapFunction)`. */
export class CoMapOperator<IN1, IN2, OUT> extends UdfOperator<IN1, OUT, CoMapFunction<IN1, IN2, OUT>> {
  processElement(value: IN1): void {
    this.out.collect(this.fn.map1(value));
  }

  processElement2(value: unknown): void {
    this.out.collect(this.fn.map2(value as IN2));
  }
}

/** The operator of `connect(...).flatMap(CoFlatMapFunction)`. */
export class CoFlatMapOperator<IN1, IN2, OUT> extends UdfOperator<IN1, OUT, CoFlatMapFunction<IN1, IN2, OUT>> {
  processElement(value: IN1): void {
    const r = this.fn.flatMap1(value, this.out);
    if (r) for (const x of r) this.out.collect(x);
  }

  processElement2(value: unknown): void {
    const r = this.fn.flatMap2(value as IN2, this.out);
    if (r) for (const x of r) this.out.collect(x);
  }
}
