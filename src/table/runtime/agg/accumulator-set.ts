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

/** The multisets of sets in a flat array (see {@link Aggregates.accumulateAt}): null where a call keeps none. */
export type Counts = readonly (Map<string, ValueCount> | null)[];

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
    this.createAt(accs, 0);
    return { accs, counts: this.noCounts ?? this.newCounts() };
  }

  accumulate(set: AccumulatorSet, fields: readonly SqlValue[]): void {
    this.accumulateAt(set.accs, set.counts, 0, fields);
  }

  /** Adds `other` (later rows) into `set`; `other` is left as it was. */
  merge(set: AccumulatorSet, other: AccumulatorSet): void {
    this.mergeAt(set.accs, set.counts, 0, other.accs, other.counts, 0);
  }

  /** Makes `set` the accumulators of no rows again, in place (a scratch set reused for merging). */
  reset(set: AccumulatorSet): void {
    this.createAt(set.accs, 0);
    for (const c of set.counts) c?.clear();
  }

  /** Whether a call keeps a multiset (DISTINCT): the flat methods then need the `counts` beside the accumulators. */
  get usesCounts(): boolean {
    return this.noCounts === undefined;
  }

  /** A new multiset per call that keeps one, null for the others (the `counts` of one set, or of one entry of a flat array). */
  newCounts(): (Map<string, ValueCount> | null)[] {
    return this.aggs.map((a) => (a.usesCounts ? new Map<string, ValueCount>() : null));
  }

  /*
   * The flat methods: the accumulators of many sets in one array, {@link size} per set; a set is the
   * position `at` of its first one. `counts` holds the sets' multisets the same way (undefined when no
   * call keeps one, see {@link usesCounts}).
   */

  /** Writes the accumulators of no rows at `accs[at …]`. */
  createAt(accs: unknown[], at: number): void {
    for (let i = 0; i < this.aggs.length; i++) accs[at + i] = this.aggs[i]!.create();
  }

  /** Adds the row `fields` to the set at `at` (as {@link accumulate}). */
  accumulateAt(accs: unknown[], counts: Counts | undefined, at: number, fields: readonly SqlValue[]): void {
    for (let i = 0; i < this.aggs.length; i++) accs[at + i] = this.aggs[i]!.accumulate(accs[at + i], fields, counts?.[at + i] ?? NO_COUNTS);
  }

  /** Adds the set at `otherAt` of `other` (later rows) into the set at `at` of `accs`; `other` is left as it was (as {@link merge}). */
  mergeAt(accs: unknown[], counts: Counts | undefined, at: number, other: readonly unknown[], otherCounts: Counts | undefined, otherAt: number): void {
    for (let i = 0; i < this.aggs.length; i++) {
      accs[at + i] = this.aggs[i]!.merge(accs[at + i], counts?.[at + i] ?? NO_COUNTS, other[otherAt + i], otherCounts?.[otherAt + i] ?? NO_COUNTS);
    }
  }

  /** Writes the result of each call of the set at `at` into `out` from position `outAt` (as {@link valuesInto}). */
  valuesAt(accs: readonly unknown[], counts: Counts | undefined, at: number, out: SqlValue[], outAt: number): void {
    for (let i = 0; i < this.aggs.length; i++) out[outAt + i] = this.aggs[i]!.getValue(accs[at + i], counts?.[at + i] ?? NO_COUNTS);
  }

  /** The number of calls (of values per set). */
  get size(): number {
    return this.aggs.length;
  }

  /** Writes the result of each call into `out` from position `at` (as {@link values}, without an array of its own). */
  valuesInto(set: AccumulatorSet, out: SqlValue[], at: number): void {
    this.valuesAt(set.accs, set.counts, 0, out, at);
  }

  /** The result of each call. */
  values(set: AccumulatorSet): SqlValue[] {
    const out = new Array<SqlValue>(this.aggs.length);
    this.valuesInto(set, out, 0);
    return out;
  }
}
