/**
 * Window aggregation over the window table-valued functions (`SELECT
 * window_start, window_end, k, AGG(x) FROM TABLE(TUMBLE(…)) GROUP BY
 * window_start, window_end, k`) on an insert-only input: each window's row
 * `[...group key values, ...call results, window_start, window_end,
 * window_time]` (TIMESTAMP(3) epoch ms, `window_time = window_end - 1`) is
 * emitted `+I` exactly once, when the watermark passes `window_end - 1`.
 *
 * The time is read from the row (`window.timeField`), never from the record
 * timestamp. TUMBLE, HOP and CUMULATE keep per group key one accumulator set
 * per slice (see `window-slices.ts`) and merge a window's slices when it
 * fires, so a row updates one accumulator set whatever the number of windows
 * it belongs to. SESSION keeps the open sessions of the group key and merges
 * them as rows bridge their gaps; a session is `[first row, last row + gap)`.
 *
 * A row whose windows all fired already is dropped (no allowed lateness, as
 * Flink SQL); a HOP or CUMULATE row whose first windows fired still counts in
 * its later ones. Sessions are per group key (the group keys include the
 * TVF's `PARTITION BY` columns).
 *
 * TUMBLE, HOP and CUMULATE can also run in two phases (see
 * `local-window-aggregate.ts`): {@link globalWindowAggregate} takes the local
 * phase's accumulator set per group key and slice instead of rows, and merges
 * it into the slice's accumulators, in the same state as one phase.
 */
import type { OperatorNaming } from "./operator-naming.ts";
import type { DataStream } from "../../api/data-stream.ts";
import type { Collector } from "../../core/collector.ts";
import { KeyedProcessFunction, type KeyedProcessContext, type OnTimerContext } from "../../core/process-function.ts";
import { engineKeyedState } from "../../core/runtime-context.ts";
import type { EngineKeyedState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { Aggregates, type AccumulatorSet, type Counts } from "./agg/accumulator-set.ts";
import type { ValueCount } from "./agg/value-counts.ts";
import type { AggregateCall } from "./aggregate-call.ts";
import { own } from "./join-spec.ts";
import { rowKeySelector } from "./row-key.ts";
import type { SlicePartial } from "./local-window-aggregate.ts";
import { processWindowEnds, WindowEndFunction } from "./window-end-operator.ts";
import { CurrentSlice, windowSlicing, type WindowSlicing } from "./window-slices.ts";
import type { WindowSpec } from "./window-spec.ts";

/** A planned window aggregation. */
export interface WindowAggregateSpec {
  window: WindowSpec;
  /** Input positions of the group keys besides the window. */
  groupKeys: readonly number[];
  calls: readonly AggregateCall[];
}

/**
 * The output row of a window: `key` may be held in state and the call results may be accumulators', so
 * their object values are copied; one array of the row's length, filled in place. The results are those
 * of the set at `at` of the flat `accs` and `counts` (see `Aggregates.accumulateAt`).
 */
function windowRow(key: readonly SqlValue[], aggs: Aggregates, accs: readonly unknown[], counts: Counts | undefined, at: number, start: number, end: number): Row {
  const k = key.length;
  const n = aggs.size;
  const fields = new Array<SqlValue>(k + n + 3);
  for (let i = 0; i < k; i++) fields[i] = own(key[i]!);
  aggs.valuesAt(accs, counts, at, fields, k);
  for (let i = k; i < k + n; i++) fields[i] = own(fields[i]!);
  fields[k + n] = start;
  fields[k + n + 1] = end;
  fields[k + n + 2] = end - 1;
  return { kind: "+I", fields };
}

/** The state of one group key of a sliced window aggregation. */
interface SliceTable {
  /** The group key values (for the output rows). */
  key: SqlValue[];
  /** The ends of the slices with rows, ascending. */
  ends: number[];
  /**
   * The accumulators of the slices of {@link ends}, flat: `Aggregates.size` per slice, in the same order
   * (no object per slice). Absent in state written before (see {@link sliceTable}).
   */
  accs?: unknown[];
  /** The multisets of the slices as {@link accs} holds their accumulators, when a call keeps one (DISTINCT). */
  counts?: (Map<string, ValueCount> | null)[];
  /**
   * The window ends (max timestamps) queued for this key, each once. Absent in
   * state written before the window-end queue: its pending windows have timers.
   */
  queued?: number[];
  /** State written before {@link accs}: the accumulator set of each slice of {@link ends}, at the same position. */
  sets?: AccumulatorSet[];
  /** State written before `ends` and `sets`: the accumulator set of each slice, by slice end. */
  slices?: Map<number, AccumulatorSet>;
}

/** A {@link SliceTable} in the current form. */
type FlatSliceTable = SliceTable & { accs: unknown[] };

/**
 * `stored` in the current form: a table written before `accs` (an accumulator set per slice, in an
 * array along `ends` or in a Map by slice end) is changed into it, in place.
 */
function sliceTable(stored: SliceTable, aggs: Aggregates): FlatSliceTable {
  if (stored.accs !== undefined) return stored as FlatSliceTable;
  const old = stored.slices;
  if (old !== undefined) {
    const slices = [...old].sort((a, b) => a[0] - b[0]);
    stored.ends = slices.map(([end]) => end);
    stored.sets = slices.map(([, set]) => set);
    delete stored.slices;
  }
  const sets = stored.sets ?? [];
  stored.accs = sets.flatMap((set) => set.accs);
  if (aggs.usesCounts) stored.counts = sets.flatMap((set) => set.counts);
  delete stored.sets;
  return stored as FlatSliceTable;
}

const NOTHING_QUEUED: readonly number[] = [];

/** Removes the first `count` elements of `a` in place (no array of the removed ones, as `splice` makes). */
function dropFirst(a: unknown[], count: number): void {
  const n = a.length - count;
  for (let i = 0; i < n; i++) a[i] = a[i + count];
  a.length = n;
}

/** Removes the element at `at` of `a` in place (no array of the removed one, as `splice` makes). */
function dropAt(a: unknown[], at: number): void {
  const n = a.length - 1;
  for (let i = at; i < n; i++) a[i] = a[i + 1];
  a.length = n;
}

/**
 * TUMBLE, HOP and CUMULATE: accumulators per slice, in engine keyed state,
 * updated in place (they never reach user code, and what is emitted is
 * copied); windows fire from the operator's queue of window ends.
 */
class SlicedWindowAggFunction extends WindowEndFunction<Row, Row> {
  readonly queueState = "_slices";
  private readonly aggs: Aggregates;
  private readonly slicing: WindowSlicing;
  private state!: EngineKeyedState<SliceTable>;
  /** The slice of the last row (rows come in slice after slice, whatever their key). */
  private readonly at: CurrentSlice;
  /** Scratch of {@link fireWindowEnd}: the merge of a window's slices (its results are copied into the row). */
  private readonly merged: AccumulatorSet;

  /**
   * @param global - the global phase of a two-phase aggregation: the input is the local phase's
   *   {@link SlicePartial}s (their slice and accumulators instead of the time and the row; the group
   *   key values at the first positions), merged into the slices' accumulators
   */
  constructor(
    private readonly spec: WindowAggregateSpec,
    private readonly timeField: number,
    window: Exclude<WindowSpec, { kind: "session" }>,
    private readonly global = false,
  ) {
    super();
    this.aggs = new Aggregates(spec.calls, { retractable: false });
    this.slicing = windowSlicing(window);
    this.at = new CurrentSlice(this.slicing);
    this.merged = this.aggs.create();
  }

  open(): void {
    this.state = engineKeyedState<SliceTable>(this.getRuntimeContext(), this.queueState);
  }

  queuedEnds(stored: unknown): readonly number[] {
    return (stored as SliceTable).queued ?? NOTHING_QUEUED;
  }

  processElement(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    const partial = this.global ? (row as SlicePartial) : undefined;
    const t = partial === undefined ? row.fields[this.timeField] : partial.slice - 1;
    if (typeof t !== "number") return; // a NULL time belongs to no window
    const slice = this.at;
    slice.moveTo(t);
    const sliceEnd = slice.end;
    const first = slice.firstEnd;
    const last = slice.lastEnd;
    const wm = ctx.timerService().currentWatermark();
    if (last < first || last - 1 <= wm) return; // in no window (HOP with gaps), or every window fired
    const aggs = this.aggs;
    const n = aggs.size;
    let table: FlatSliceTable;
    const stored = this.state.getOwned();
    if (stored === undefined) {
      // the row is this function's own, so its key values may be kept
      table = { key: this.spec.groupKeys.map((p) => row.fields[p] ?? null), ends: [], accs: [], queued: [] };
      if (aggs.usesCounts) table.counts = [];
      this.state.set(table);
    } else table = sliceTable(stored, aggs);
    // the slice's position in the ascending ends (rows come mostly in order: searched from the last)
    const { ends, accs, counts } = table;
    let at = ends.length;
    while (at > 0 && ends[at - 1]! > sliceEnd) at--;
    if (at > 0 && ends[at - 1] === sliceEnd) {
      // a partial's accumulators follow its group key values
      if (partial === undefined) aggs.accumulateAt(accs, counts, (at - 1) * n, row.fields);
      else aggs.mergeAt(accs, counts, (at - 1) * n, partial.fields, undefined, this.spec.groupKeys.length);
    } else {
      if (at < ends.length) {
        // a slice before the last: room for its accumulators (rare: rows come mostly in order)
        accs.splice(at * n, 0, ...new Array<unknown>(n));
        counts?.splice(at * n, 0, ...new Array<null>(n));
      }
      if (at === ends.length) ends.push(sliceEnd);
      else ends.splice(at, 0, sliceEnd);
      if (partial === undefined) {
        aggs.createAt(accs, at * n);
        if (counts !== undefined) {
          const fresh = aggs.newCounts();
          for (let i = 0; i < n; i++) counts[at * n + i] = fresh[i]!;
        }
        aggs.accumulateAt(accs, counts, at * n, row.fields);
      } else {
        // a partial's accumulators are this function's own (the local phase let go of them), so they are kept as they are
        const k = this.spec.groupKeys.length;
        for (let i = 0; i < n; i++) accs[at * n + i] = partial.fields[k + i];
      }
    }
    let fire = first;
    if (fire - 1 <= wm) {
      const step = this.slicing.windowStep;
      fire += Math.ceil((wm + 2 - fire) / step) * step;
    }
    this.queue(table, fire - 1, ctx.getCurrentKey());
  }

  /** Queues the key's window ending at `maxTimestamp + 1` unless it is queued already. */
  private queue(table: SliceTable, maxTimestamp: number, key: string): void {
    const queued = (table.queued ??= []);
    if (queued.includes(maxTimestamp)) return;
    queued.push(maxTimestamp);
    this.queueWindowEnd(maxTimestamp, key);
  }

  protected queueLegacyTimer(maxTimestamp: number, key: string): void {
    const table = this.state.getOwned();
    if (table !== undefined) this.queue(table, maxTimestamp, key);
  }

  fireWindowEnd(maxTimestamp: number, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const stored = this.state.getOwned();
    if (stored === undefined) return;
    const aggs = this.aggs;
    const n = aggs.size;
    const table = sliceTable(stored, aggs);
    const queued = table.queued!;
    // this window's entry: replaced by the key's next window below, or dropped (not emptied and pushed
    // again: an array emptied by `length = 0` lets go of its storage, and the push allocates it anew)
    const queuedAt = queued.indexOf(maxTimestamp);
    const s = this.slicing;
    const end = maxTimestamp + 1;
    const start = s.windowStart(end);
    const { ends, accs, counts } = table;
    // the window's slices: a run of the ascending ends
    let from = 0;
    while (from < ends.length && ends[from]! <= start) from++;
    let to = from;
    while (to < ends.length && ends[to]! <= end) to++;
    if (to - from === 1) out.collect(windowRow(table.key, aggs, accs, counts, from * n, start, end));
    else if (to > from) {
      const merged = this.merged;
      aggs.reset(merged);
      for (let i = from; i < to; i++) aggs.mergeAt(merged.accs, merged.counts, 0, accs, counts, i * n);
      out.collect(windowRow(table.key, aggs, merged.accs, merged.counts, 0, start, end));
    }
    // the slices in no later window: a prefix (a slice's last window end grows with its end)
    let done = 0;
    while (done < ends.length && s.lastWindowEnd(ends[done]!) <= end) done++;
    if (done === ends.length) {
      this.state.set(undefined);
      return;
    }
    if (done > 0) {
      dropFirst(ends, done);
      dropFirst(accs, done * n);
      if (counts !== undefined) dropFirst(counts, done * n);
    }
    // the next window of the slices left: the first one's (a slice's first window end grows with its end too)
    const first = s.firstWindowEnd(ends[0]!);
    const next = (first > end + s.windowStep ? first : end + s.windowStep) - 1;
    if (queuedAt < 0 || queued.includes(next)) {
      if (queuedAt >= 0) dropAt(queued, queuedAt);
      this.queue(table, next, ctx.getCurrentKey());
    } else {
      queued[queuedAt] = next;
      this.queueWindowEnd(next, ctx.getCurrentKey());
    }
  }
}

/** An open session of a group key. */
interface Session {
  start: number;
  /** Last row's time + gap. */
  end: number;
  set: AccumulatorSet;
}

/** The state of one group key of a session window aggregation. */
interface OpenSessions {
  /** The group key values (for the output rows). */
  key: SqlValue[];
  open: Session[];
}

/** SESSION: the open sessions of each group key, merged as rows bridge them; in engine keyed state as the slices. */
class SessionWindowAggFunction extends KeyedProcessFunction<string, Row, Row> {
  private readonly aggs: Aggregates;
  private sessions!: EngineKeyedState<OpenSessions>;

  constructor(
    private readonly spec: WindowAggregateSpec,
    private readonly timeField: number,
    private readonly gap: number,
  ) {
    super();
    this.aggs = new Aggregates(spec.calls, { retractable: false });
  }

  open(): void {
    this.sessions = engineKeyedState<OpenSessions>(this.getRuntimeContext(), "_sessions");
  }

  processElement(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    const t = row.fields[this.timeField];
    if (typeof t !== "number") return;
    // changed in place below; a new group key keeps the values of its first row (the function's own)
    const st = this.sessions.getOwned() ?? { key: this.spec.groupKeys.map((p) => row.fields[p] ?? null), open: [] };
    let start = t;
    let end = t + this.gap;
    // Sessions that touch [t, t + gap) merge with it (and, through it, with each other).
    const touching: Session[] = [];
    const rest: Session[] = [];
    for (const s of st.open) (s.start <= end && s.end >= start ? touching : rest).push(s);
    for (const s of touching) {
      start = Math.min(start, s.start);
      end = Math.max(end, s.end);
    }
    if (end - 1 <= ctx.timerService().currentWatermark()) return; // late: no open session takes it
    touching.sort((a, b) => a.start - b.start);
    let set: AccumulatorSet;
    if (touching.length === 0) set = this.aggs.create();
    else {
      set = touching[0]!.set;
      for (let i = 1; i < touching.length; i++) this.aggs.merge(set, touching[i]!.set);
    }
    this.aggs.accumulate(set, row.fields);
    for (const s of touching) if (s.end !== end) ctx.timerService().deleteEventTimeTimer(s.end - 1); // its end moved
    rest.push({ start, end, set });
    st.open = rest;
    this.sessions.set(st);
    ctx.timerService().registerEventTimeTimer(end - 1);
  }

  onTimer(timestamp: number, _ctx: OnTimerContext<string>, out: Collector<Row>): void {
    const st = this.sessions.getOwned(); // changed in place below
    if (st === undefined) return;
    const open: Session[] = [];
    const due: Session[] = [];
    for (const s of st.open) (s.end - 1 <= timestamp ? due : open).push(s);
    if (due.length === 0) return; // a timer of a session that grew since
    due.sort((a, b) => a.start - b.start);
    for (const s of due) out.collect(windowRow(st.key, this.aggs, s.set.accs, s.set.counts, 0, s.start, s.end));
    if (open.length === 0) this.sessions.set(undefined);
    else st.open = open;
  }
}

/**
 * Whether the window aggregation `spec` can run in two phases (see
 * `local-window-aggregate.ts`): a TUMBLE, HOP or CUMULATE window, and calls
 * whose merge of partial accumulators gives what accumulating the rows gives
 * (no DISTINCT, whose multisets would cross the exchange; a user-defined
 * function needs its `merge`).
 *
 * @example
 * ```ts
 * canRunInTwoPhases({ window: hop, groupKeys: [0], calls: [countStar] }); // true
 * ```
 */
export function canRunInTwoPhases(spec: WindowAggregateSpec): boolean {
  return spec.window.kind !== "session" && spec.calls.every((c) => !c.distinct && (c.fn !== "USER" || c.udf?.merge !== undefined));
}

/**
 * The window aggregation of `input` (insert-only) by `spec`: one `+I` row
 * per group key and window, `[...group key values, ...call results,
 * window_start, window_end, window_time]`, when the watermark passes the
 * window's end.
 *
 * @example
 * ```ts
 * // SELECT item, SUM(price), window_start, window_end, window_time
 * // FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)) GROUP BY item, window_start, window_end
 * windowAggregate(bids, {
 *   window: { kind: "tumble", timeField: 0, size: 600_000, offset: 0 },
 *   groupKeys: [2],
 *   calls: [{ fn: "SUM", args: [1], argTypes: [PRICE], distinct: false, resultType: PRICE_SUM, text: "SUM(price)" }],
 * }, { uid: "window-agg-1", name: "WindowAggregate(TUMBLE(10 min))" });
 * ```
 */
export function windowAggregate(input: DataStream<Row>, spec: WindowAggregateSpec, naming: OperatorNaming): DataStream<Row> {
  const w = spec.window;
  const key = rowKeySelector(spec.groupKeys);
  const keyed =
    w.kind === "session"
      ? input.keyBy(key).process(new SessionWindowAggFunction(spec, w.timeField, w.gap))
      : processWindowEnds(input, key, new SlicedWindowAggFunction(spec, w.timeField, w));
  return keyed.uid(naming.uid).name(naming.name);
}

/**
 * The global phase of the two-phase window aggregation `spec` (one that
 * {@link canRunInTwoPhases}) over the partials of its local phase
 * (`localWindowAggregate` of the same spec): the rows of {@link windowAggregate},
 * from the same state (a savepoint of either form restores into the other
 * under the same uid).
 *
 * @example
 * ```ts
 * const partials = localWindowAggregate(bids, spec, { uid: "local-window-aggregate", name: "LocalWindowAggregate(…)" });
 * globalWindowAggregate(partials, spec, { uid: "window-aggregate", name: "GlobalWindowAggregate(…)" });
 * ```
 */
export function globalWindowAggregate(partials: DataStream<SlicePartial>, spec: WindowAggregateSpec, naming: OperatorNaming): DataStream<Row> {
  const w = spec.window;
  if (w.kind === "session" || !canRunInTwoPhases(spec)) throw new Error(`the window aggregation ${naming.name} cannot run in two phases`);
  // the partials' fields are the group key values
  const keys = spec.groupKeys.map((_, i) => i);
  const fn = new SlicedWindowAggFunction({ ...spec, groupKeys: keys }, w.timeField, w, true);
  return processWindowEnds(partials as unknown as DataStream<Row>, rowKeySelector(keys), fn).uid(naming.uid).name(naming.name);
}
