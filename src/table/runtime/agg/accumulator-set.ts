/**
 * The accumulators of all calls of an aggregation with their multisets kept
 * inside (plain `Map`s): the state of one window slice or one session, which
 * merge. Plain data, so it goes into keyed state as it is.
 */
import type { AggregateCall } from "../aggregate-call.ts";
import type { SqlValue } from "../../types/sql-value.ts";
import { callAggregator, type CallAggregator, type CallAggregatorOptions } from "./call-aggregator.ts";
import type { ValueCount } from "./value-counts.ts";

/** Accumulators by call, and each call's multiset (null for calls that keep none). */
export interface AccumulatorSet {
  accs: unknown[];
  counts: (Map<string, ValueCount> | null)[];
}

const NO_COUNTS: Map<string, ValueCount> = new Map();

/**
 * All calls of an aggregation over {@link AccumulatorSet}s.
 *
 * @example
 * ```ts
 * const aggs = new Aggregates(spec.calls, { retractable: false });
 * const set = aggs.create();
 * aggs.accumulate(set, row.fields);
 * aggs.values(set); // one value per call
 * ```
 */
export class Aggregates {
  private readonly aggs: CallAggregator[];
  /** The `counts` of every set when no call keeps a multiset: one array for all (never changed, as no multiset is). */
  private readonly noCounts: null[] | undefined;

  constructor(calls: readonly AggregateCall[], options: CallAggregatorOptions) {
    this.aggs = calls.map((c) => callAggregator(c, options));
    this.noCounts = this.aggs.some((a) => a.usesCounts) ? undefined : this.aggs.map(() => null);
  }

  create(): AccumulatorSet {
    const accs = new Array<unknown>(this.aggs.length);
    for (let i = 0; i < this.aggs.length; i++) accs[i] = this.aggs[i]!.create();
    return { accs, counts: this.noCounts ?? this.aggs.map((a) => (a.usesCounts ? new Map<string, ValueCount>() : null)) };
  }

  accumulate(set: AccumulatorSet, fields: readonly SqlValue[]): void {
    for (let i = 0; i < this.aggs.length; i++) set.accs[i] = this.aggs[i]!.accumulate(set.accs[i], fields, set.counts[i] ?? NO_COUNTS);
  }

  /** Adds `other` (later rows) into `set`; `other` is left as it was. */
  merge(set: AccumulatorSet, other: AccumulatorSet): void {
    for (let i = 0; i < this.aggs.length; i++) {
      set.accs[i] = this.aggs[i]!.merge(set.accs[i], set.counts[i] ?? NO_COUNTS, other.accs[i], other.counts[i] ?? NO_COUNTS);
    }
  }

  /** Makes `set` the accumulators of no rows again, in place (a scratch set reused for merging). */
  reset(set: AccumulatorSet): void {
    for (let i = 0; i < this.aggs.length; i++) {
      set.accs[i] = this.aggs[i]!.create();
      set.counts[i]?.clear();
    }
  }

  /** The number of calls (of values per set). */
  get size(): number {
    return this.aggs.length;
  }

  /** Writes the result of each call into `out` from position `at` (as {@link values}, without an array of its own). */
  valuesInto(set: AccumulatorSet, out: SqlValue[], at: number): void {
    for (let i = 0; i < this.aggs.length; i++) out[at + i] = this.aggs[i]!.getValue(set.accs[i], set.counts[i] ?? NO_COUNTS);
  }

  /** The result of each call. */
  values(set: AccumulatorSet): SqlValue[] {
    const out = new Array<SqlValue>(this.aggs.length);
    this.valuesInto(set, out, 0);
    return out;
  }
}
