/**
 * The contract of one built-in aggregate function over non-NULL argument
 * values (the caller skips NULLs and filtered rows, see `call-aggregator.ts`).
 * An accumulator is plain data (it lives in keyed state): numbers, bigints,
 * decimals, arrays and plain objects. Functions may change the accumulator
 * they are given in place and return it; callers always keep what is returned.
 */
import type { SqlValue } from "../../types/sql-value.ts";
import type { ValueCounts } from "./value-counts.ts";

/** An aggregate function over accumulators of type `A`. */
export interface AggFunction<A> {
  /** True when it keeps a multiset of values in the {@link ValueCounts} passed to each method. */
  readonly usesCounts: boolean;
  create(): A;
  add(acc: A, value: SqlValue, counts: ValueCounts): A;
  /** Removes one earlier `add` of `value` (only for retractable functions). */
  retract(acc: A, value: SqlValue, counts: ValueCounts): A;
  /**
   * Adds what `other` (with its multiset `otherCounts`, read only) holds into
   * `acc` (with `counts`); `other` holds later rows than `acc` (order-sensitive
   * functions such as `LISTAGG` append it).
   */
  merge(acc: A, counts: ValueCounts, other: A, otherCounts: ValueCounts): A;
  getValue(acc: A, counts: ValueCounts): SqlValue;
}
