/**
 * The local phase of a two-phase window aggregation (Flink's
 * `LocalWindowAggregate`): chained to the aggregation's input, before the
 * exchange by group key, it folds the rows of each group key and slice (see
 * `window-slices.ts`) into one accumulator set and sends that set on as one
 * {@link SlicePartial}; the global phase (`window-aggregate.ts`) merges the
 * partials of a key and slice as the one-phase aggregation accumulates rows.
 * Fewer records cross the exchange and touch keyed state: one per group key
 * and slice and flush instead of one per row.
 *
 * The buffer is never state (`local-phase-operator.ts`). A watermark that reaches the first window of a
 * buffered slice sends that slice's partials on before it is forwarded, so
 * every row reaches the global phase before the watermark that fires any of
 * its windows, as in one phase; the slices whose windows are all later stay
 * (each slice of in-order rows leaves once). The whole buffer is flushed when
 * it holds {@link LOCAL_BUFFER_LIMIT} partials, before a
 * checkpoint's barrier is forwarded (a checkpoint holds every row before its
 * barrier in the global phase's state, which is the one-phase aggregation's
 * state), when the input goes idle, and at the end of input. A late row is
 * sent on like any other: the global phase drops it by its own watermark, as
 * the one-phase aggregation does.
 */
import type { DataStream, SingleOutputStreamOperator } from "../../api/data-stream.ts";
import type { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { Aggregates } from "./agg/accumulator-set.ts";
import { localPhase, LocalPhaseOperator } from "./local-phase-operator.ts";
import type { AggregateCall } from "./aggregate-call.ts";
import type { OperatorNaming } from "./operator-naming.ts";
import { rowKeySelector } from "./row-key.ts";
import { CurrentSlice, windowSlicing, type WindowSlicing } from "./window-slices.ts";
import type { WindowSpec } from "./window-spec.ts";

/**
 * The accumulators of the rows of one group key and slice that a local phase
 * saw between two flushes: a row whose `fields` are the `k` group key values
 * (so the global phase's key selector reads them at positions `0 … k - 1`),
 * then one accumulator per call (the global phase may keep them).
 */
export interface SlicePartial extends Row {
  /** The end of the slice. */
  slice: number;
}

/**
 * The partials of one slice while buffered, flat (no object per group key until they are sent on): the
 * position of each group key's entry, and the entries' key values and accumulators in two arrays.
 */
interface SliceBuffer {
  /** The end of the slice. */
  readonly end: number;
  /** Entry by group key (see {@link bufferKeySelector}), numbered in the order of their first rows. */
  readonly entries: Map<unknown, number>;
  /** The group key values of the entries, `k` per entry. */
  readonly keys: SqlValue[];
  /** The accumulators of the entries, one per call per entry (see `Aggregates.accumulateAt`). */
  readonly accs: unknown[];
}

/** The partials a local phase holds at most before it flushes them (Flink's `table.exec.window-agg.buffer-size-limit` is 100 000). */
const LOCAL_BUFFER_LIMIT = 10_000;

/** What the local phase of a TUMBLE, HOP or CUMULATE aggregation needs. */
export interface LocalWindowAggregateSpec {
  window: Exclude<WindowSpec, { kind: "session" }>;
  /** Input positions of the group keys besides the window. */
  groupKeys: readonly number[];
  /** The calls: each one's merge must give what accumulating the rows gives (no DISTINCT). */
  calls: readonly AggregateCall[];
}

/**
 * What the buffer finds a row's partial by: for one group key, its value when it is primitive (a Map
 * compares those as `sqlValueKey` does: -0 is 0, NaN is NaN; an integer as a number and as a bigint
 * only get two partials, which the global phase merges), else the key string of `rowKeySelector`.
 */
function bufferKeySelector(groupKeys: readonly number[]): (row: Row) => unknown {
  if (groupKeys.length !== 1) return rowKeySelector(groupKeys);
  const p = groupKeys[0]!;
  const keyOf = rowKeySelector(groupKeys);
  return (row) => {
    const v = row.fields[p] ?? null;
    return typeof v === "object" && v !== null ? keyOf(row) : v;
  };
}

/** Folds rows into partials per slice and group key; flushes them as the module says. */
class LocalWindowAggOperator extends LocalPhaseOperator<SlicePartial> {
  private readonly aggs: Aggregates;
  private readonly slicing: WindowSlicing;
  private readonly keyOf: (row: Row) => unknown;
  private readonly timeField: number;
  /** The partials by slice end. */
  private readonly buffer = new Map<number, SliceBuffer>();
  private buffered = 0;
  /** The slice of the last row, and its partials. */
  private readonly at: CurrentSlice;
  private partials: SliceBuffer | undefined;

  constructor(private readonly spec: LocalWindowAggregateSpec) {
    super();
    this.aggs = new Aggregates(spec.calls, { retractable: false });
    if (this.aggs.usesCounts) throw new Error("a local window aggregation cannot keep multisets (DISTINCT)");
    this.slicing = windowSlicing(spec.window);
    this.at = new CurrentSlice(this.slicing);
    this.keyOf = bufferKeySelector(spec.groupKeys);
    this.timeField = spec.window.timeField;
  }

  processElement(row: Row): void {
    const t = row.fields[this.timeField];
    if (typeof t !== "number") return; // a NULL time belongs to no window
    const at = this.at;
    if (at.moveTo(t)) this.partials = undefined;
    if (at.lastEnd < at.firstEnd) return; // in no window (HOP with gaps)
    let partials = this.partials;
    if (partials === undefined) {
      partials = this.buffer.get(at.end);
      if (partials === undefined) {
        partials = { end: at.end, entries: new Map(), keys: [], accs: [] };
        this.buffer.set(at.end, partials);
        if (at.firstEnd - 1 < this.nextFire) this.nextFire = at.firstEnd - 1;
      }
      this.partials = partials;
    }
    const key = this.keyOf(row);
    const n = this.aggs.size;
    let entry = partials.entries.get(key);
    if (entry === undefined) {
      // the row is this operator's own, so its key values may be kept (and sent on)
      entry = partials.entries.size;
      partials.entries.set(key, entry);
      const keys = this.spec.groupKeys;
      for (let i = 0; i < keys.length; i++) partials.keys.push(row.fields[keys[i]!] ?? null);
      this.aggs.createAt(partials.accs, entry * n);
      this.buffered++;
    }
    this.aggs.accumulateAt(partials.accs, undefined, entry * n, row.fields);
    if (this.buffered >= LOCAL_BUFFER_LIMIT) this.flush();
  }

  /** Sends on the partials of the slices with a window that the watermark `timestamp` fires, in the order of their first rows. */
  protected sendFired(timestamp: number): number {
    let next = Infinity;
    for (const [end, partials] of this.buffer) {
      const fire = this.slicing.firstWindowEnd(end) - 1;
      if (fire > timestamp) {
        if (fire < next) next = fire;
        continue;
      }
      this.sendOn(partials);
      this.buffered -= partials.entries.size;
      this.buffer.delete(end);
      if (this.partials === partials) this.partials = undefined;
    }
    return next;
  }

  /** Sends every partial on, slice after slice in the order of their first rows, and empties the buffer. */
  protected sendAll(): void {
    for (const partials of this.buffer.values()) this.sendOn(partials);
    this.buffer.clear();
    this.buffered = 0;
    this.partials = undefined;
  }

  /** Sends on the partials of one slice, in the order of their first rows (each a new row: the buffer lets go of its values). */
  private sendOn(partials: SliceBuffer): void {
    const k = this.spec.groupKeys.length;
    const n = this.aggs.size;
    const { keys, accs } = partials;
    for (let e = 0, count = partials.entries.size; e < count; e++) {
      const fields = new Array<SqlValue>(k + n);
      for (let i = 0; i < k; i++) fields[i] = keys[e * k + i]!;
      for (let i = 0; i < n; i++) fields[k + i] = accs[e * n + i] as SqlValue;
      const partial: SlicePartial = { kind: "+I", fields, slice: partials.end };
      this.out.collect(partial);
    }
  }
}

/**
 * The local phase of the window aggregation `spec` over `input` (insert-only),
 * at `input`'s parallelism: the {@link SlicePartial}s of its rows, for
 * `windowAggregate`'s global phase.
 *
 * @example
 * ```ts
 * const partials = localWindowAggregate(bids, { window: hop, groupKeys: [0], calls: [countStar] }, { uid: "local-window-aggregate", name: "LocalWindowAggregate(…)" });
 * ```
 */
export function localWindowAggregate(input: DataStream<Row>, spec: LocalWindowAggregateSpec, naming: OperatorNaming): SingleOutputStreamOperator<SlicePartial> {
  return localPhase<SlicePartial>(input, "local-window-aggregate", naming, () => new LocalWindowAggOperator(spec));
}
