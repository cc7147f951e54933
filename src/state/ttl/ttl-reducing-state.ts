/**
 * {@link ReducingState} under TTL: a decorator over a plain value state that
 * stores `[reduced, lastAccess]` per key. An expired value is not reduced
 * with the next one added: that one starts afresh (as in Flink).
 */

import type { ReducingState, ValueState } from "../state-handles.ts";
import { readTtlValue } from "./ttl-value-state.ts";
import type { TtlTime, TtlValue } from "./ttl-value.ts";

/** A {@link ReducingState} whose value expires (see `StateTtlConfig`). */
export class TtlReducingState<T> implements ReducingState<T> {
  constructor(
    private readonly raw: ValueState<TtlValue<T>>,
    private readonly time: TtlTime,
    private readonly accessed: () => void,
    private readonly reduce: (a: T, b: T) => T,
  ) {}
  get(): T | undefined {
    this.accessed();
    return readTtlValue(this.raw, this.time)?.[0];
  }
  add(v: T): void {
    this.accessed();
    const stored = this.raw.value();
    const live = stored !== undefined && !this.time.isExpired(stored[1]);
    this.raw.update(this.time.wrap(live ? this.reduce(stored[0], v) : v));
  }
  clear(): void {
    this.accessed();
    this.raw.clear();
  }
}
