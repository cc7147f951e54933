/**
 * Base of the operators that run a keyed process function (keyed, keyed
 * co-process, keyed broadcast): the current key, keyed timers that fire on
 * the watermark or the clock with their key set and their time as the output
 * timestamp, and the context those functions see.
 */
import type { OnTimerContext, TimeDomain } from "../../core/process-function.ts";
import { KeyedTimerService } from "../../time/timer-service.ts";
import { NO_TIMESTAMP } from "../elements.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { timerServiceOf } from "./timer-service-view.ts";
import { UdfOperator } from "./udf-operator.ts";

export abstract class KeyedTimedOperator<IN, OUT, F, K> extends UdfOperator<IN, OUT, F> {
  protected currentKey: unknown;
  protected timers!: KeyedTimerService;
  /** The context of processElement and onTimer. */
  protected context!: OnTimerContext<K>;
  private domain: TimeDomain = "event-time";

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    if (!ctx.keyedState) throw new Error(`operator '${ctx.operatorUid}' needs a keyed input: call keyBy() first`);
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

  processWatermark(timestamp: number): void {
    this.timers.advanceWatermark(timestamp);
    this.out.emitWatermark(timestamp);
  }

  /** Makes `key` the current key of state and timers. */
  protected setKey(key: unknown): void {
    this.currentKey = key;
    this.ctx.keyedState!.setCurrentKey(key);
  }

  /** Calls the function's onTimer (its key is current, `context.timeDomain()` tells which clock). */
  protected abstract onTimer(timestamp: number): void;

  private fire(timestamp: number, key: unknown, domain: TimeDomain): void {
    this.currentKey = key;
    this.domain = domain;
    this.ctx.element.timestamp = domain === "event-time" ? timestamp : NO_TIMESTAMP;
    this.onTimer(timestamp);
  }
}
