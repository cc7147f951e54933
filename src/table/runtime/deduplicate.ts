/**
 * Deduplication (`SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k
 * ORDER BY time) AS rn FROM t) WHERE rn = 1`) over an insert-only input, as
 * Flink's deduplicate functions:
 *
 * - keep-first on processing time (`ORDER BY proctime ASC`): the first row of
 *   each key is `+I`, later rows are dropped. The output is insert-only.
 * - keep-last on processing time (`ORDER BY proctime DESC`): the first row is
 *   `+I`, each later one replaces it (`-U[previous]` `+U[row]`, only `+U`
 *   without `generateUpdateBefore`).
 * - on event time (`timeField`): keep-first keeps the row with the smallest
 *   time (the earliest arrival among equal times), keep-last the row with the
 *   largest time (the latest arrival among equal times); a better row that
 *   arrives later replaces the kept one with `-U`/`+U`.
 *
 * State, per key: the kept row (keep-first on processing time: only a flag).
 */
import type { OperatorNaming } from "./operator-naming.ts";
import type { Collector } from "../../core/collector.ts";
import type { DataStream } from "../../api/data-stream.ts";
import { KeyedProcessFunction, type KeyedProcessContext } from "../../core/process-function.ts";
import { ValueStateDescriptor, type ValueState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import { compareForSort } from "../types/sql-compare.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { rowKeySelector } from "./row-key.ts";

/** A planned deduplication. */
export interface DeduplicateSpec {
  /** `PARTITION BY` input positions. */
  keys: readonly number[];
  /** `ORDER BY … DESC`: keep the last row; otherwise the first. */
  keepLast: boolean;
  /** Position of the event-time attribute of `ORDER BY`; absent for processing time (arrival order). */
  timeField?: number;
  /** Emit `-U` before each `+U` (false: an upsert stream by `keys`). */
  generateUpdateBefore: boolean;
}

/**
 * Deduplicates `input` per key, one operator named by `naming`.
 *
 * @example
 * ```ts
 * // The latest order per user: user at 0, order time at 3.
 * const latest = deduplicate(orders, { keys: [0], keepLast: true, timeField: 3, generateUpdateBefore: true },
 *   { uid: "latest-order", name: "Deduplicate(latest-order)" });
 * ```
 */
export function deduplicate(input: DataStream<Row>, spec: DeduplicateSpec, naming: OperatorNaming): DataStream<Row> {
  return input
    .keyBy(rowKeySelector(spec.keys))
    .process(new DeduplicateFunction(spec))
    .uid(naming.uid)
    .name(naming.name);
}

/**
 * True when `candidate` replaces `kept` for a deduplication keeping the
 * first/last row by `timeField` (processing time: arrival, so keep-last always
 * replaces and keep-first never does).
 */
export function replacesKept(kept: readonly SqlValue[], candidate: readonly SqlValue[], keepLast: boolean, timeField: number | undefined): boolean {
  if (timeField === undefined) return keepLast;
  const c = compareForSort(candidate[timeField]!, kept[timeField]!);
  return keepLast ? c >= 0 : c < 0;
}

class DeduplicateFunction extends KeyedProcessFunction<string, Row, Row> {
  private kept!: ValueState<SqlValue[]>;
  private seen!: ValueState<boolean>;

  constructor(private readonly spec: DeduplicateSpec) {
    super();
  }

  override open(): void {
    const ctx = this.getRuntimeContext();
    if (this.firstOnArrival()) this.seen = ctx.getState(new ValueStateDescriptor<boolean>("dedup-seen"));
    else this.kept = ctx.getState(new ValueStateDescriptor<SqlValue[]>("dedup-kept-row"));
  }

  /** Keep-first on processing time needs no row in state. */
  private firstOnArrival(): boolean {
    return !this.spec.keepLast && this.spec.timeField === undefined;
  }

  processElement(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    if (this.firstOnArrival()) {
      if (this.seen.value() === true) return;
      this.seen.update(true);
      out.collect({ kind: "+I", fields: [...row.fields] });
      return;
    }
    const kept = this.kept.value();
    if (kept === undefined) {
      this.kept.update(row.fields);
      out.collect({ kind: "+I", fields: [...row.fields] });
      return;
    }
    if (!replacesKept(kept, row.fields, this.spec.keepLast, this.spec.timeField)) return;
    this.kept.update(row.fields);
    if (this.spec.generateUpdateBefore) out.collect({ kind: "-U", fields: kept });
    out.collect({ kind: "+U", fields: [...row.fields] });
  }
}
