/**
 * {@link AggregatingState} under TTL: a decorator over a plain value state
 * that stores `[accumulator, lastAccess]` per key. An expired accumulator is
 * replaced by a new one at the next `add` (as in Flink).
 */

import type { AggregateFunction } from "../descriptors.ts";
import type { AggregatingState, ValueState } from "../state-handles.ts";
import { readTtlValue } from "./ttl-value-state.ts";
import type { TtlTime, TtlValue } from "./ttl-value.ts";

/** An {@link AggregatingState} whose accumulator expires (see `StateTtlConfig`). */
export class TtlAggregatingState<IN, ACC, OUT> implements AggregatingState<IN, OUT> {
  constructor(
    private readonly raw: ValueState<TtlValue<ACC>>,
    private readonly time: TtlTime,
    private readonly accessed: () => void,
    private readonly agg: AggregateFunction<IN, ACC, OUT>,
  ) {}
  get(): OUT | undefined {
    this.accessed();
    const stored = readTtlValue(this.raw, this.time);
    return stored === undefined ? undefined : this.agg.getResult(stored[0]);
  }
  add(v: IN): void {
    this.accessed();
    const stored = this.raw.value();
    const acc = stored !== undefined && !this.time.isExpired(stored[1]) ? stored[0] : this.agg.createAccumulator();
    this.raw.update(this.time.wrap(this.agg.add(v, acc)));
  }
  clear(): void {
    this.accessed();
    this.raw.clear();
  }
}
