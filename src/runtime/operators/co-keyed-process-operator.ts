/**
 * Runs a KeyedCoProcessFunction on two keyed streams connected on equal keys:
 * each record's key (from its input's key selector) becomes the current key of
 * the shared keyed state and timers; timers fire on the operator's watermark,
 * which is the minimum over both inputs.
 */
import type { Collector } from "../../core/collector.ts";
import type { KeyedCoProcessFunction } from "../../core/co-process-function.ts";
import type { OnTimerContext, TimeDomain } from "../../core/process-function.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import { KeyedTimerService } from "../../time/timer-service.ts";
import { NO_TIMESTAMP } from "../elements.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { timerServiceOf } from "./timer-service-view.ts";
import { UdfOperator } from "./udf-operator.ts";

/** The operator of `a.keyBy(ka).connect(b.keyBy(kb)).process(KeyedCoProcessFunction)`. */
export class KeyedCoProcessOperator<K, IN1, IN2, OUT> extends UdfOperator<IN1, OUT, KeyedCoProcessFunction<K, IN1, IN2, OUT>> {
  private key1!: KeySelector;
  private key2!: KeySelector;
  private currentKey: unknown;
  private timers!: KeyedTimerService;
  private domain: TimeDomain = "event-time";
  private context!: OnTimerContext<K>;

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    if (!ctx.keyedState || !ctx.keySelector || !ctx.keySelector2)
      throw new Error(`operator '${ctx.operatorUid}' needs two keyed inputs: a.keyBy(...).connect(b.keyBy(...))`);
    this.key1 = ctx.keySelector;
    this.key2 = ctx.keySelector2;
    this.timers = new KeyedTimerService(ctx.keyedState, ctx.processingTime, (ts, key, _ns, domain) => this.fire(ts, key, domain));
    this.timers.restore();
    const element = ctx.element;
    const view = timerServiceOf(this.timers);
    this.context = {
      timestamp: () => (element.timestamp === NO_TIMESTAMP ? undefined : element.timestamp),
      output: (tag, value) => this.out.collectSide(tag.id, value),
      timerService: () => view,
      getCurrentKey: () => this.currentKey as K,
      timeDomain: () => this.domain,
    };
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

  processWatermark(timestamp: number): void {
    this.timers.advanceWatermark(timestamp);
    this.out.emitWatermark(timestamp);
  }

  private setKey(k: unknown): void {
    this.currentKey = k;
    this.ctx.keyedState!.setCurrentKey(k);
  }

  private fire(timestamp: number, key: unknown, domain: TimeDomain): void {
    if (!this.fn.onTimer) return;
    this.currentKey = key;
    this.domain = domain;
    this.ctx.element.timestamp = domain === "event-time" ? timestamp : NO_TIMESTAMP;
    this.fn.onTimer(timestamp, this.context, this.out as Collector<OUT>);
  }
}
