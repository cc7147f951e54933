/**
 * Runs a KeyedProcessFunction: sets the record's key on the keyed state
 * backend, then calls the function, whose state handles refer to that key.
 */
import type { KeyedProcessContext, KeyedProcessFunction } from "../../core/process-function.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import { UdfOperator } from "./udf-operator.ts";

export class KeyedProcessOperator<K, I, O> extends UdfOperator<I, O, KeyedProcessFunction<K, I, O>> {
  private key!: KeySelector;
  private currentKey: unknown;
  private readonly context: KeyedProcessContext<K> = {
    timestamp: () => undefined,
    output: (tag, value) => this.out.collectSide(tag.id, value),
    getCurrentKey: () => this.currentKey as K,
  };

  override async open(...args: Parameters<UdfOperator<I, O>["open"]>): Promise<void> {
    const [ctx] = args;
    if (!ctx.keyedState || !ctx.keySelector) throw new Error(`operator '${ctx.operatorUid}' needs a keyed input`);
    this.key = ctx.keySelector;
    await super.open(...args);
  }

  processElement(value: I): void {
    const k = this.key(value);
    this.currentKey = k;
    this.ctx.keyedState!.setCurrentKey(k);
    this.fn.processElement(value, this.context, this.out);
  }
}
