/**
 * Top-N (`SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY … ORDER BY
 * …) AS rn FROM t) WHERE rn BETWEEN a AND b`) with retraction, as Flink's
 * retractable Top-N: the rows of each partition are kept sorted in keyed
 * state; after each input row the rows ranked `rankStart..rankEnd` before and
 * after the change are compared and the difference is emitted.
 *
 * - Without the rank number: a row entering the range is `+I`, a row leaving
 *   it `-D`.
 * - `ROW_NUMBER` with the rank number: each rank is a position (the output's
 *   unique key is the partition keys and the rank, as in Flink): a position
 *   whose row changed is updated (`-U[old, n]` `+U[new, n]`, only `+U` without
 *   `generateUpdateBefore`), a position that appears is `+I`, one that
 *   disappears `-D`.
 * - `RANK`/`DENSE_RANK` with the rank number: a row whose rank changed is
 *   updated (`-U[row, old]` `+U[row, new]`), rows entering or leaving the range
 *   are `+I`/`-D`.
 *
 * Ties keep their arrival order (a retraction removes the earliest equal row).
 * A retraction of a row the partition does not hold is ignored (Flink does the
 * same for state that expired).
 *
 * State, per partition: the rows ranked up to `rankEnd` (ties at the
 * boundary included for `RANK` and `DENSE_RANK`), sorted, in one value; every
 * other row of the partition in a map by row content (needed to bring the next
 * row up when a top row is retracted: the map is then scanned once); and an
 * arrival counter that orders ties. A change below the top N reads and writes
 * one map entry, so the cost per row does not grow with the partition. With
 * `inputInsertOnly` the other rows are not kept: an insert-only input never
 * brings a dropped row back.
 */
import type { OperatorNaming } from "./operator-naming.ts";
import type { Collector } from "../../core/collector.ts";
import type { DataStream } from "../../api/data-stream.ts";
import { KeyedProcessFunction, type KeyedProcessContext } from "../../core/process-function.ts";
import { MapStateDescriptor, ValueStateDescriptor, type MapState, type ValueState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import { isAccumulate, type RowKind } from "../data/row-kind.ts";
import { sqlNotDistinct } from "../types/sql-compare.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";
import { rankNumbers, type RankType } from "./ranked-rows.ts";
import { rowKeySelector } from "./row-key.ts";
import { sortKeyComparator, type FieldsComparator } from "./sort-key-comparator.ts";
import type { SortKey } from "./sort-spec.ts";

/** A planned Top-N. */
export interface RankSpec {
  /** `PARTITION BY` input positions (empty: one partition). */
  partitionKeys: readonly number[];
  orderBy: readonly SortKey[];
  rankType: RankType;
  /** First rank of the result, 1-based. */
  rankStart: number;
  /** Last rank of the result, inclusive. */
  rankEnd: number;
  /** Append the rank as a trailing BIGINT field. */
  outputRankNumber: boolean;
  /** Emit `-U` before each `+U` (false: the output is an upsert stream, see the module notes). */
  generateUpdateBefore: boolean;
  /** The input carries `+I` rows only: keep the top `rankEnd` rows per partition instead of all rows. */
  inputInsertOnly?: boolean;
}

/** Thrown when a Top-N declared insert-only receives a retraction. */
export class UnexpectedRetractionError extends Error {
  constructor(operator: string, row: Row) {
    super(`operator '${operator}' was planned for an insert-only input but received a ${row.kind} row`);
    this.name = "UnexpectedRetractionError";
  }
}

/**
 * Top-N over `input`: keyed by the partition keys, one operator named by `naming`.
 *
 * @example
 * ```ts
 * // Top-2 products by sales per category: category at 0, sales at 2.
 * const top2 = rank(products, {
 *   partitionKeys: [0], orderBy: [{ field: 2, descending: true, nullsFirst: false }],
 *   rankType: "ROW_NUMBER", rankStart: 1, rankEnd: 2, outputRankNumber: true, generateUpdateBefore: true,
 * }, { uid: "top2", name: "Rank(top2)" });
 * ```
 */
export function rank(input: DataStream<Row>, spec: RankSpec, naming: OperatorNaming): DataStream<Row> {
  return input
    .keyBy(rowKeySelector(spec.partitionKeys))
    .process(new RankFunction(spec, naming.uid))
    .uid(naming.uid)
    .name(naming.name);
}

interface Ranked {
  fields: SqlValue[];
  rank: number;
}

/** A row of a partition and its arrival number, which orders rows that tie on the sort keys. */
interface Entry {
  f: SqlValue[];
  s: number;
}

/** The position after every entry of `sorted` that does not sort after `entry`. */
function upperBound(sorted: readonly Entry[], entry: Entry, order: (a: Entry, b: Entry) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order(sorted[mid]!, entry) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

class RankFunction extends KeyedProcessFunction<string, Row, Row> {
  /** The rows ranked up to `rankEnd`, in order. */
  private top!: ValueState<Entry[]>;
  /** Every other row, by `sqlValueKey` of its fields (equal rows in one list). */
  private rest!: MapState<string, Entry[]>;
  private arrivals!: ValueState<number>;
  private readonly cmp: FieldsComparator;
  private readonly order: (a: Entry, b: Entry) => number;

  constructor(
    private readonly spec: RankSpec,
    private readonly uid: string,
  ) {
    super();
    const cmp = sortKeyComparator(spec.orderBy);
    this.cmp = cmp;
    this.order = (a, b) => cmp(a.f, b.f) || a.s - b.s;
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    this.top = ctx.getState(new ValueStateDescriptor<Entry[]>("rank-top-rows"));
    this.rest = ctx.getMapState(new MapStateDescriptor<string, Entry[]>("rank-other-rows"));
    this.arrivals = ctx.getState(new ValueStateDescriptor<number>("rank-arrivals"));
  }

  processElement(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const spec = this.spec;
    const top = this.top.value() ?? [];
    const accumulate = isAccumulate(row.kind);
    let before: Ranked[];
    if (accumulate) {
      const s = this.arrivals.value() ?? 0;
      this.arrivals.update(s + 1);
      const entry: Entry = { f: row.fields, s };
      const last = top[top.length - 1];
      if (last !== undefined && this.cmp(entry.f, last.f) > 0 && !this.rest.isEmpty()) {
        this.addToRest(entry); // below the top N: nothing changes in the result
        return;
      }
      before = this.visible(top);
      top.splice(upperBound(top, entry, this.order), 0, entry);
      this.prune(top);
    } else {
      if (spec.inputInsertOnly) throw new UnexpectedRetractionError(this.uid, row);
      const i = this.findInTop(top, row.fields);
      if (i < 0) {
        this.removeFromRest(row.fields); // below the top N (or not held): nothing changes in the result
        return;
      }
      before = this.visible(top);
      top.splice(i, 1);
      this.refill(top);
    }
    if (top.length > 0) this.top.update(top);
    else {
      // the partition holds no row (other rows exist only while the top is full)
      this.top.clear();
      this.arrivals.clear();
    }
    const after = this.visible(top);
    if (spec.outputRankNumber && spec.rankType === "ROW_NUMBER") this.emitByPosition(before, after, out);
    else this.emitByRow(before, after, accumulate, out);
  }

  /** The rank numbers of `top`'s rows while at most `rankEnd`. */
  private ranks(top: readonly Entry[]): number[] {
    return rankNumbers(
      top.map((e) => e.f),
      this.cmp,
      this.spec.rankType,
      this.spec.rankEnd,
    );
  }

  /** Moves the rows ranked after `rankEnd` out of `top` (drops them for an insert-only input). */
  private prune(top: Entry[]): void {
    const keep = this.ranks(top).length;
    if (keep === top.length) return;
    const extra = top.splice(keep);
    if (!this.spec.inputInsertOnly) for (const e of extra) this.addToRest(e);
  }

  /** Brings the best other rows into `top` while they rank up to `rankEnd` (one scan of the other rows). */
  private refill(top: Entry[]): void {
    if (this.rest.isEmpty()) return;
    const candidates: Entry[] = [];
    for (const list of this.rest.values()) candidates.push(...list);
    candidates.sort(this.order);
    let moved = 0;
    for (const c of candidates) {
      top.push(c);
      if (this.ranks(top).length < top.length) {
        top.pop();
        break;
      }
      moved++;
    }
    for (const c of candidates.slice(0, moved)) this.removeFromRest(c.f, c.s);
  }

  /** The position in `top` of the earliest row equal to `fields`, or -1. */
  private findInTop(top: readonly Entry[], fields: readonly SqlValue[]): number {
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cmp(top[mid]!.f, fields) < 0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < top.length && this.cmp(top[i]!.f, fields) === 0; i++) if (sqlNotDistinct(top[i]!.f, fields as SqlValue[])) return i;
    return -1;
  }

  private addToRest(entry: Entry): void {
    const key = sqlValueKey(entry.f);
    const list = this.rest.get(key);
    if (list === undefined) this.rest.put(key, [entry]);
    else {
      list.splice(upperBound(list, entry, (a, b) => a.s - b.s), 0, entry);
      this.rest.put(key, list);
    }
  }

  /** Removes the row equal to `fields` that arrived `arrival` (the earliest when absent) from the other rows; false if there is none. */
  private removeFromRest(fields: readonly SqlValue[], arrival?: number): boolean {
    const key = sqlValueKey(fields as SqlValue[]);
    const list = this.rest.get(key);
    if (list === undefined) return false;
    if (list.length === 1) this.rest.remove(key);
    else {
      list.splice(Math.max(0, list.findIndex((e) => e.s === arrival)), 1);
      this.rest.put(key, list);
    }
    return true;
  }

  /** The rows ranked `rankStart..rankEnd`, in order. */
  private visible(top: readonly Entry[]): Ranked[] {
    const ranks = this.ranks(top);
    const out: Ranked[] = [];
    for (let i = 0; i < ranks.length; i++) if (ranks[i]! >= this.spec.rankStart) out.push({ fields: top[i]!.f, rank: ranks[i]! });
    return out;
  }
  private emitByPosition(before: readonly Ranked[], after: readonly Ranked[], out: Collector<Row>): void {
    const n = Math.max(before.length, after.length);
    for (let k = 0; k < n; k++) {
      const o = before[k];
      const a = after[k];
      if (o !== undefined && a !== undefined) {
        if (sqlNotDistinct(o.fields, a.fields)) continue;
        if (this.spec.generateUpdateBefore) out.collect(this.output("-U", o));
        out.collect(this.output("+U", a));
      } else if (o !== undefined) out.collect(this.output("-D", o));
      else if (a !== undefined) out.collect(this.output("+I", a));
    }
  }

  /** Rows that left the range are `-D`, rows that entered it `+I`, rows whose rank changed `-U`/`+U`. */
  private emitByRow(before: readonly Ranked[], after: readonly Ranked[], accumulate: boolean, out: Collector<Row>): void {
    const withRank = this.spec.outputRankNumber;
    const key = (r: Ranked) => sqlValueKey(r.fields) + (withRank ? `#${r.rank}` : "");
    const unmatched = new Map<string, number>();
    for (const r of before) unmatched.set(key(r), (unmatched.get(key(r)) ?? 0) + 1);
    const added: Ranked[] = [];
    for (const r of after) {
      const k = key(r);
      const c = unmatched.get(k) ?? 0;
      if (c > 0) unmatched.set(k, c - 1);
      else added.push(r);
    }
    // Rows of `before` whose key was not matched by `after`, by content (a changed rank is an update).
    const removedByContent = new Map<string, Ranked[]>();
    for (const r of before) {
      const k = key(r);
      const c = unmatched.get(k) ?? 0;
      if (c === 0) continue;
      unmatched.set(k, c - 1);
      const content = sqlValueKey(r.fields);
      const list = removedByContent.get(content);
      if (list === undefined) removedByContent.set(content, [r]);
      else list.push(r);
    }
    const emitDeletes = () => {
      for (const list of removedByContent.values()) for (const r of list) out.collect(this.output("-D", r));
      removedByContent.clear();
    };
    // a retraction deletes first; so does an insert-only input (Flink's append-only Top-N: the row that
    // leaves, then the one that enters), while over a changelog an insert comes first (Flink's retractable Top-N)
    if (!accumulate || this.spec.inputInsertOnly === true) emitDeletes();
    for (const r of added) {
      const old = withRank ? removedByContent.get(sqlValueKey(r.fields))?.shift() : undefined;
      if (old === undefined) {
        out.collect(this.output("+I", r));
        continue;
      }
      if (this.spec.generateUpdateBefore) out.collect(this.output("-U", old));
      out.collect(this.output("+U", r));
    }
    emitDeletes();
  }

  private output(kind: RowKind, r: Ranked): Row {
    return { kind, fields: this.spec.outputRankNumber ? [...r.fields, r.rank] : [...r.fields] };
  }
}
