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
 * State, per partition: every row of the partition, sorted (needed to bring
 * the next row up when a top row is retracted). With `inputInsertOnly` only
 * the rows ranked up to `rankEnd` are kept (ties at the boundary included for
 * `RANK` and `DENSE_RANK`): an insert-only input never brings a dropped row back.
 */
import type { Collector } from "../../core/collector.ts";
import type { DataStream } from "../../api/data-stream.ts";
import { KeyedProcessFunction, type KeyedProcessContext } from "../../core/process-function.ts";
import { ValueStateDescriptor, type ValueState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import { isAccumulate, type RowKind } from "../data/row-kind.ts";
import { sqlNotDistinct } from "../types/sql-compare.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";
import { insertSorted, lowerBound, rankNumbers, type RankType } from "./ranked-rows.ts";
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
export function rank(input: DataStream<Row>, spec: RankSpec, naming: { uid: string; name: string }): DataStream<Row> {
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

class RankFunction extends KeyedProcessFunction<string, Row, Row> {
  private sorted!: ValueState<SqlValue[][]>;
  private readonly cmp: FieldsComparator;

  constructor(
    private readonly spec: RankSpec,
    private readonly uid: string,
  ) {
    super();
    this.cmp = sortKeyComparator(spec.orderBy);
  }

  override open(): void {
    this.sorted = this.getRuntimeContext().getState(new ValueStateDescriptor<SqlValue[][]>("rank-sorted-rows"));
  }

  processElement(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const spec = this.spec;
    const sorted = this.sorted.value() ?? [];
    const before = this.visible(sorted);
    const accumulate = isAccumulate(row.kind);
    if (accumulate) {
      insertSorted(sorted, row.fields, this.cmp);
    } else {
      if (spec.inputInsertOnly) throw new UnexpectedRetractionError(this.uid, row);
      let i = lowerBound(sorted, row.fields, this.cmp);
      while (i < sorted.length && this.cmp(sorted[i]!, row.fields) === 0 && !sqlNotDistinct(sorted[i]!, row.fields)) i++;
      if (i === sorted.length || this.cmp(sorted[i]!, row.fields) !== 0) return;
      sorted.splice(i, 1);
    }
    const after = this.visible(sorted);
    if (spec.inputInsertOnly) sorted.length = rankNumbers(sorted, this.cmp, spec.rankType, spec.rankEnd).length;
    if (sorted.length === 0) this.sorted.clear();
    else this.sorted.update(sorted);
    if (spec.outputRankNumber && spec.rankType === "ROW_NUMBER") this.emitByPosition(before, after, out);
    else this.emitByRow(before, after, accumulate, out);
  }

  /** The rows ranked `rankStart..rankEnd`, in order. */
  private visible(sorted: readonly SqlValue[][]): Ranked[] {
    const ranks = rankNumbers(sorted, this.cmp, this.spec.rankType, this.spec.rankEnd);
    const out: Ranked[] = [];
    for (let i = 0; i < ranks.length; i++) if (ranks[i]! >= this.spec.rankStart) out.push({ fields: sorted[i]!, rank: ranks[i]! });
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
    if (!accumulate) emitDeletes();
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
    return { kind, fields: this.spec.outputRankNumber ? [...r.fields, BigInt(r.rank)] : [...r.fields] };
  }
}
