/**
 * Runs a KeyedProcessFunction: sets the record's key on the keyed state
 * backend, then calls the function, whose state handles and timers refer to
 * that key. Timers fire on watermarks (event time) or from the clock
 * (processing time), with their key set and their time as the output's timestamp.
 */
import type { KeyedProcessFunction, OnTimerContext, TimeDomain } from "../../core/process-function.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import { KeyedTimerService } from "../../time/timer-service.ts";
import { NO_TIMESTAMP } from "../elements.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { timerServiceOf } from "./timer-service-view.ts";
import { UdfOperator } from "./udf-operator.ts";

export class KeyedProcessOperator<K, I, O> extends UdfOperator<I, O, KeyedProcessFunction<K, I, O>> {
  private key!: KeySelector;
  private currentKey: unknown;
  private timers!: KeyedTimerService;
  private domain: TimeDomain = "event-time";
  private context!: OnTimerContext<K>;

  override async open(ctx: OperatorContext, output: Output<O>): Promise<void> {
    if (!ctx.keyedState || !ctx.keySelector) throw new Error(`operator '${ctx.operatorUid}' needs a keyed input`);
    this.key = ctx.keySelector;
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

  processElement(value: I): void {
    const k = this.key(value);
    this.currentKey = k;
    this.ctx.keyedState!.setCurrentKey(k);
    this.fn.processElement(value, this.context, this.out);
  }

  processWatermark(timestamp: number): void {
    this.timers.advanceWatermark(timestamp);
    this.out.emitWatermark(timestamp);
  }

  private fire(timestamp: number, key: unknown, domain: TimeDomain): void {
    if (!this.fn.onTimer) return;
    this.currentKey = key;
    this.domain = domain;
    this.ctx.element.timestamp = domain === "event-time" ? timestamp : NO_TIMESTAMP;
    this.fn.onTimer(timestamp, this.context, this.out);
  }
}
