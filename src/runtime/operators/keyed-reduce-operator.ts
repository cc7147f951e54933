/**
 * Rolling reduce on a keyed stream (`reduce`, `sum`): keeps the reduced value
 * per key in ValueState and emits it after every record. The function is the
 * instance's own copy (its hooks and fields are the instance's).
 */
import { reduceCall, type ReduceFunction } from "../../core/functions.ts";
import { ValueStateDescriptor, type ValueState } from "../../state/index.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { UdfOperator } from "./udf-operator.ts";

export class KeyedReduceOperator<T> extends UdfOperator<T, T, ReduceFunction<T>> {
  private readonly call = reduceCall(this.fn);
  private key!: KeySelector;
  private state!: ValueState<T>;

  /** @param first - what a key's first record becomes (the record itself, or checked by a built-in aggregation) */
  constructor(
    fn: ReduceFunction<T>,
    private readonly first: (record: T) => T = (record) => record,
  ) {
    super(fn);
  }

  override async open(ctx: OperatorContext, output: Output<T>): Promise<void> {
    if (!ctx.keyedState || !ctx.keySelector) throw new Error(`operator '${ctx.operatorUid}' needs a keyed input`);
    this.key = ctx.keySelector;
    this.state = ctx.keyedState.getState(new ValueStateDescriptor<T>("_reduce"));
    await super.open(ctx, output);
  }

  processElement(value: T): void {
    this.ctx.keyedState!.setCurrentKey(this.key(value));
    const prev = this.state.value();
    const next = prev === undefined ? this.first(value) : this.call(prev, value);
    this.state.update(next);
    this.out.collect(next);
  }
}
