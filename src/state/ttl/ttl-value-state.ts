/**
 * {@link ValueState} under TTL: a decorator over a plain value state that
 * stores `[value, lastAccess]` per key.
 */

import { PlainDataCopier } from "../plain-shapes.ts";
import type { ValueState } from "../state-handles.ts";
import type { TtlCleanable } from "./ttl-cleanable.ts";
import { isTtlValue, type TtlTime, type TtlValue } from "./ttl-value.ts";

/**
 * Reads the pair at the current key of `raw` under the TTL rules: an expired
 * pair is removed (and returned only with `ReturnExpiredIfNotCleanedUp`), an
 * unexpired one is re-stamped when the update type is `OnReadAndWrite`.
 * Shared by value, reducing and aggregating state.
 */
export function readTtlValue<S>(raw: ValueState<TtlValue<S>>, time: TtlTime): TtlValue<S> | undefined {
  const stored = raw.value();
  if (stored === undefined) return undefined;
  const now = time.now();
  if (time.isExpired(stored[1], now)) {
    raw.clear();
    return time.returnExpired ? stored : undefined;
  }
  if (time.updateOnRead) raw.update([stored[0], now]);
  return stored;
}

/** Incremental cleanup of state stored as one `[value, lastAccess]` per key. */
export function ttlValueCleanable<S>(raw: ValueState<TtlValue<S>>, time: TtlTime): TtlCleanable {
  return {
    hasExpired: (stored, now) => isTtlValue(stored) && time.isExpired(stored[1], now),
    cleanCurrentKey: (now) => {
      const stored = raw.value();
      if (stored !== undefined && time.isExpired(stored[1], now)) raw.clear();
    },
  };
}

/** A {@link ValueState} whose value expires (see `StateTtlConfig`). */
export class TtlValueState<T> implements ValueState<T> {
  private readonly copier = new PlainDataCopier();
  constructor(
    private readonly raw: ValueState<TtlValue<T>>,
    private readonly time: TtlTime,
    private readonly accessed: () => void,
    private readonly defaultValue: T | undefined,
  ) {}
  value(): T | undefined {
    this.accessed();
    const stored = readTtlValue(this.raw, this.time);
    return stored === undefined ? this.copier.copy(this.defaultValue) : stored[0];
  }
  update(v: T): void {
    this.accessed();
    if (v === undefined) this.raw.clear();
    else this.raw.update(this.time.wrap(v));
  }
  clear(): void {
    this.accessed();
    this.raw.clear();
  }
}
