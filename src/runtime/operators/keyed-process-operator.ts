/**
 * Runs a keyed process function (class or object): sets the record's key on the keyed state
 * backend, then calls the function, whose state handles and timers refer to
 * that key.
 */
import type { KeyedProcessFunctionObject } from "../../core/process-function.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import { KeyedTimedOperator } from "./keyed-timed-operator.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";

export class KeyedProcessOperator<K, I, O> extends KeyedTimedOperator<I, O, KeyedProcessFunctionObject<K, I, O>, K> {
  private key!: KeySelector;

  override async open(ctx: OperatorContext, output: Output<O>): Promise<void> {
    if (!ctx.keySelector) throw new Error(`operator '${ctx.operatorUid}' needs a keyed input`);
    this.key = ctx.keySelector;
    await super.open(ctx, output);
  }

  processElement(value: I): void {
    this.setKey(this.key(value));
    this.fn.processElement(value, this.context, this.out);
  }

  protected onTimer(timestamp: number): void {
    this.fn.onTimer?.(timestamp, this.context, this.out);
  }
}
