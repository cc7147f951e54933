/**
 * The accumulators of all calls of an aggregation for the current key of a
 * keyed function, with the multisets (retractable `MIN`/`MAX`, `DISTINCT`)
 * in one keyed `MapState` per call: a row reads and writes one entry of a
 * multiset whatever its size, and the accumulator array that the function
 * keeps in its own state stays small. For group and `OVER` aggregation.
 */
import type { RuntimeContext } from "../../../core/runtime-context.ts";
import { MapStateDescriptor, type MapState } from "../../../state/index.ts";
import type { SqlValue } from "../../types/sql-value.ts";
import type { AggregateCall } from "../aggregate-call.ts";
import { callAggregator, type CallAggregator, type CallAggregatorOptions } from "./call-aggregator.ts";
import { mapStateValueCounts, type ValueCount, type ValueCounts } from "./value-counts.ts";

const NONE: ValueCounts = new Map<string, ValueCount>();

/**
 * All calls over an accumulator array plus per-call multiset state.
 *
 * @example
 * ```ts
 * open() { this.aggs.open(this.getRuntimeContext()); this.accs = ctx.getState(...); }
 * processElement(row) {
 *   const accs = this.accs.value() ?? this.aggs.create();
 *   this.aggs.accumulate(accs, row.fields);
 *   this.accs.update(accs);
 *   out.collect({ kind: "+I", fields: this.aggs.values(accs) });
 * }
 * ```
 */
export class KeyedAccumulators {
  private readonly aggs: CallAggregator[];
  private states: (MapState<string, ValueCount> | undefined)[] = [];
  private counts: ValueCounts[] = [];

  constructor(calls: readonly AggregateCall[], options: CallAggregatorOptions) {
    this.aggs = calls.map((c) => callAggregator(c, options));
  }

  /** Registers the multiset states (`counts-<call index>`); call from the function's `open`. */
  open(ctx: RuntimeContext): void {
    this.states = this.aggs.map((a, i) => (a.usesCounts ? ctx.getMapState(new MapStateDescriptor<string, ValueCount>(`counts-${i}`)) : undefined));
    this.counts = this.states.map((s) => (s === undefined ? NONE : mapStateValueCounts(s)));
  }

  create(): unknown[] {
    return this.aggs.map((a) => a.create());
  }

  accumulate(accs: unknown[], fields: readonly SqlValue[]): void {
    for (let i = 0; i < this.aggs.length; i++) accs[i] = this.aggs[i]!.accumulate(accs[i], fields, this.counts[i]!);
  }

  retract(accs: unknown[], fields: readonly SqlValue[]): void {
    for (let i = 0; i < this.aggs.length; i++) accs[i] = this.aggs[i]!.retract(accs[i], fields, this.counts[i]!);
  }

  values(accs: readonly unknown[]): SqlValue[] {
    const out = new Array<SqlValue>(this.aggs.length);
    for (let i = 0; i < this.aggs.length; i++) out[i] = this.aggs[i]!.getValue(accs[i], this.counts[i]!);
    return out;
  }

  /** Clears the current key's multisets. */
  clear(): void {
    for (const s of this.states) s?.clear();
  }
}
