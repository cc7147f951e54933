/**
 * Runs a KeyedCoProcessFunction on two keyed streams connected on equal keys:
 * each record's key (from its input's key selector) becomes the current key of
 * the shared keyed state and timers; timers fire on the operator's watermark,
 * which is the minimum over both inputs.
 */
import type { Collector } from "../../core/collector.ts";
import type { KeyedCoProcessFunctionObject } from "../../core/co-process-function.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import { KeyedTimedOperator } from "./keyed-timed-operator.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";

/** The operator of `a.keyBy(ka).connect(b.keyBy(kb)).process(KeyedCoProcessFunction)`. */
export class KeyedCoProcessOperator<K, IN1, IN2, OUT> extends KeyedTimedOperator<IN1, OUT, KeyedCoProcessFunctionObject<K, IN1, IN2, OUT>, K> {
  private key1!: KeySelector;
  private key2!: KeySelector;

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    if (!ctx.keySelector || !ctx.keySelector2)
      throw new Error(`operator '${ctx.operatorUid}' needs two keyed inputs: a.keyBy(...).connect(b.keyBy(...))`);
    this.key1 = ctx.keySelector;
    this.key2 = ctx.keySelector2;
    await super.open(ctx, output);
  }

  processElement(value: IN1): void {
    this.setKey(this.key1(value));
    this.fn.processElement1(value, this.context, this.out as Collector<OUT>);
  }

  processElement2(value: unknown): void {
    this.setKey(this.key2(value));
    this.fn.processElement2(value as IN2, this.context, this.out as Collector<OUT>);
  }

  protected onTimer(timestamp: number): void {
    this.fn.onTimer?.(timestamp, this.context, this.out as Collector<OUT>);
  }
}
