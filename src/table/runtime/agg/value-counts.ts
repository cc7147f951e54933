/**
 * A multiset of SQL values, keyed by {@link sqlValueKey} (so `1.5` and
 * `1.50` are one value): what retractable `MIN`/`MAX` and `DISTINCT`
 * aggregates keep. Either a plain `Map` inside an accumulator (window and
 * `OVER` aggregation, small sets) or a keyed `MapState` (group aggregation:
 * one entry is read and written per row, whatever the size of the set).
 */
import type { MapState } from "../../../state/index.ts";
import type { SqlValue } from "../../types/sql-value.ts";

/** One distinct value and how many times it is in the multiset (> 0). */
export interface ValueCount {
  value: SqlValue;
  count: number;
}

/**
 * The multiset as accumulators see it. An entry read with `get` may be a
 * copy: write it back with `set` after changing it. A `Map<string, ValueCount>`
 * is one.
 */
export interface ValueCounts {
  get(key: string): ValueCount | undefined;
  set(key: string, entry: ValueCount): void;
  delete(key: string): void;
  entries(): Iterable<[string, ValueCount]>;
}

/**
 * A keyed `MapState` (of the current key) as {@link ValueCounts}.
 *
 * @example
 * ```ts
 * const counts = mapStateValueCounts(ctx.getMapState(new MapStateDescriptor<string, ValueCount>("counts-0")));
 * ```
 */
export function mapStateValueCounts(state: MapState<string, ValueCount>): ValueCounts {
  return {
    get: (k) => state.get(k),
    set: (k, e) => state.put(k, e),
    delete: (k) => state.remove(k),
    entries: () => state.entries(),
  };
}
