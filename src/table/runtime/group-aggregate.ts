/**
 * Group aggregation (`SELECT k, AGG(x) FROM t GROUP BY k`) on a changelog
 * input, with Flink's `GroupAggFunction` semantics:
 *
 * - `+I`/`+U` input rows accumulate, `-U`/`-D` rows retract;
 * - the first row of a group emits `+I[keys…, results…]`;
 * - a change emits `-U[old]` then `+U[new]` (only `+U` when
 *   `generateUpdateBefore` is false), and nothing when the result row did
 *   not change;
 * - when the group's row count returns to 0 it emits `-D[old]` and forgets
 *   the group; a retraction for a group it does not know is ignored;
 * - no group keys (a global aggregate) puts every row in one group.
 *
 * State per group: one value (the group key's values, the row count and the
 * small accumulators) and one `MapState` per call that keeps a multiset
 * (retractable `MIN`/`MAX`, `DISTINCT`), so a row reads and writes one entry
 * of it whatever the number of distinct values.
 *
 * State TTL (`table.exec.state.ttl`, `stateTtlMs`): a group that no row
 * touched for that long (processing time) is forgotten without any output
 * (a processing-time timer frees it; a row that comes first sees it expired).
 * A later row of that group starts it again from nothing and emits `+I` with
 * a result over the new rows only; its earlier result row stays in the
 * downstream table, and a retraction for the forgotten rows is ignored. So
 * with a TTL the result equals the batch result only over groups that stay
 * active within the TTL (as in Flink).
 *
 * Mini-batch (`table.exec.mini-batch.*`, `spec.miniBatch`): rows are buffered
 * per key and each key's rows are folded at once (see
 * mini-batch-group-aggregate.ts), emitting one change per key and batch.
 */
import type { OperatorNaming } from "./operator-naming.ts";
import type { DataStream } from "../../api/data-stream.ts";
import type { Collector } from "../../core/collector.ts";
import { KeyedProcessFunction, type KeyedProcessContext, type OnTimerContext } from "../../core/process-function.ts";
import { engineKeyedState } from "../../core/runtime-context.ts";
import type { EngineKeyedState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import { isAccumulate } from "../data/row-kind.ts";
import { sqlNotDistinct } from "../types/sql-compare.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { AggregateCall } from "./aggregate-call.ts";
import { KeyedAccumulators } from "./agg/keyed-accumulators.ts";
import { joinedFields } from "./join-spec.ts";
import { rowKeySelector } from "./row-key.ts";
import { miniBatchGroupAggregate, type MiniBatchSpec } from "./mini-batch-group-aggregate.ts";

/** A planned group aggregation. */
export interface GroupAggregateSpec {
  /** Input positions of the GROUP BY keys (empty: one global group). */
  groupKeys: readonly number[];
  calls: readonly AggregateCall[];
  /** Emit `-U` before each `+U` (retract mode); false for upsert sinks. */
  generateUpdateBefore: boolean;
  /** `table.exec.state.ttl` in ms: forget a group untouched this long (processing time). */
  stateTtlMs?: number;
  /** `table.exec.mini-batch.*` when enabled: buffer rows and fold each key's rows at once (see mini-batch-group-aggregate.ts). */
  miniBatch?: MiniBatchSpec;
}


/** What a group keeps besides the multisets. */
interface GroupState {
  /** The group key's values (of the group's first row). */
  key: SqlValue[];
  /** Rows accumulated minus rows retracted. */
  rows: number;
  accs: unknown[];
  /** Processing time of the last row (with a TTL). */
  touched?: number;
  /** The cleanup timer pending (with a TTL). */
  timer?: number;
}

/** True when two result rows are equal (NULLs equal): no update to emit. */
function sameValues(a: readonly SqlValue[], b: readonly SqlValue[]): boolean {
  for (let i = 0; i < a.length; i++) if (!sqlNotDistinct(a[i]!, b[i]!)) return false;
  return true;
}

/** A result row's fields: the group key's values and the call results, objects copied (they may be held in state). */
function resultFields(key: readonly SqlValue[], values: readonly SqlValue[]): SqlValue[] {
  return joinedFields(key, key.length, values, values.length);
}

export class GroupAggFunction extends KeyedProcessFunction<string, Row, Row> {
  /** Made in `open`: it holds this parallel instance's state handles (the function object is cloned per instance). */
  private aggs!: KeyedAccumulators;
  /** Engine keyed state (no copy per access): never handed out, emitted rows get copies of its objects. */
  private group!: EngineKeyedState<GroupState>;

  constructor(private readonly spec: GroupAggregateSpec) {
    super();
  }

  open(): void {
    const ctx = this.getRuntimeContext();
    this.group = engineKeyedState<GroupState>(ctx, "_group");
    this.aggs = new KeyedAccumulators(this.spec.calls, { retractable: true });
    this.aggs.open(ctx);
  }

  private clear(): void {
    this.group.set(undefined);
    this.aggs.clear();
  }

  /** One row: a fold of one row, into a reused array. */
  private readonly one: Row[] = [];

  processElement(row: Row, ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    this.one[0] = row;
    this.fold(this.one, ctx, out);
  }

  /**
   * Applies `rows` (all of the current key, in arrival order) to the group and
   * emits the one change they make to its result row (see the module doc):
   * one row, or a mini-batch of rows folded.
   */
  fold(rows: readonly Row[], ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const ttl = this.spec.stateTtlMs;
    const now = ttl === undefined ? 0 : ctx.timerService().currentProcessingTime();
    let st = this.group.getOwned(); // changed in place below
    if (st !== undefined && ttl !== undefined && st.touched! + ttl <= now) {
      this.clear(); // expired: never read, even before its cleanup timer ran
      st = undefined;
    }
    const prev = st === undefined ? undefined : this.aggs.values(st.accs);
    const key = st?.key;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const accumulate = isAccumulate(row.kind);
      if (st === undefined) {
        if (!accumulate) continue; // a retraction for a group it does not know
        // the row is this function's own, so its key values may be kept
        st = { key: this.spec.groupKeys.map((p) => row.fields[p] ?? null), rows: 0, accs: this.aggs.create() };
        this.group.set(st);
      }
      if (accumulate) {
        st.rows++;
        this.aggs.accumulate(st.accs, row.fields);
      } else {
        st.rows--;
        this.aggs.retract(st.accs, row.fields);
      }
      if (st.rows <= 0) {
        this.clear();
        st = undefined;
      }
    }
    if (st === undefined) {
      if (prev !== undefined) out.collect({ kind: "-D", fields: resultFields(key!, prev) });
      return;
    }
    if (ttl !== undefined) {
      st.touched = now;
      if (st.timer === undefined) {
        st.timer = now + ttl;
        ctx.timerService().registerProcessingTimeTimer(st.timer);
      }
    }
    const next = this.aggs.values(st.accs);
    if (prev === undefined) {
      out.collect({ kind: "+I", fields: resultFields(st.key, next) });
    } else if (!sameValues(prev, next)) {
      if (this.spec.generateUpdateBefore) out.collect({ kind: "-U", fields: resultFields(st.key, prev) });
      out.collect({ kind: "+U", fields: resultFields(st.key, next) });
    }
  }

  onTimer(timestamp: number, ctx: OnTimerContext<string>): void {
    const ttl = this.spec.stateTtlMs;
    const st = this.group.getOwned(); // changed in place below
    if (ttl === undefined || st === undefined || st.timer !== timestamp) return;
    if (st.touched! + ttl <= timestamp) {
      this.clear();
      return;
    }
    st.timer = st.touched! + ttl;
    ctx.timerService().registerProcessingTimeTimer(st.timer);
  }
}

/**
 * The group aggregation of `input` (any changelog) by `spec`: rows
 * `[...group key values, ...call results]` as a retract (or, without
 * `generateUpdateBefore`, upsert) changelog.
 *
 * @example
 * ```ts
 * // SELECT user, COUNT(url) FROM clicks GROUP BY user
 * const counts = groupAggregate(clicks, {
 *   groupKeys: [0],
 *   calls: [{ fn: "COUNT", args: [1], argTypes: [STRING], distinct: false, resultType: BIGINT_NOT_NULL, text: "COUNT(url)" }],
 *   generateUpdateBefore: true,
 * }, { uid: "agg-1", name: "GroupAggregate(groupBy=[user])" });
 * // Mary, Bob, Mary → +I[Mary, 1] +I[Bob, 1] -U[Mary, 1] +U[Mary, 2]
 * ```
 */
export function groupAggregate(input: DataStream<Row>, spec: GroupAggregateSpec, naming: OperatorNaming): DataStream<Row> {
  const key = rowKeySelector(spec.groupKeys);
  const fn = new GroupAggFunction(spec);
  const out = spec.miniBatch === undefined ? input.keyBy(key).process(fn) : miniBatchGroupAggregate(input, key, fn, spec.miniBatch);
  return out.uid(naming.uid).name(naming.name);
}
