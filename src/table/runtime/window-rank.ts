/**
 * Window Top-N: a Top-N per window over the output of a window TVF
 * (`SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start,
 * window_end, … ORDER BY …) AS rn FROM TABLE(TUMBLE(…))) WHERE rn <= N`), as
 * Flink's window rank: the rows of each partition and window are buffered
 * until the watermark passes `window_end - 1`, then the rows ranked
 * `rankStart..rankEnd` come out as `+I` (in rank order, with the rank as a
 * trailing BIGINT when `outputRankNumber`) and the window's state is cleared.
 * The output is insert-only. A row whose window already fired is dropped.
 *
 * State, per partition and window until it fires: the rows ranked up to
 * `rankEnd` (ties at the boundary included for `RANK` and `DENSE_RANK`).
 */
import type { OperatorNaming } from "./operator-naming.ts";
import type { Collector } from "../../core/collector.ts";
import type { DataStream } from "../../api/data-stream.ts";
import type { KeyedProcessContext } from "../../core/process-function.ts";
import { engineKeyedState } from "../../core/runtime-context.ts";
import type { EngineKeyedState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { keepRanked, rankNumbers, type RankType } from "./ranked-rows.ts";
import { rowKeySelector } from "./row-key.ts";
import { processWindowEnds, WindowEndFunction } from "./window-end-operator.ts";
import { sortKeyComparator, type FieldsComparator } from "./sort-key-comparator.ts";
import type { SortKey } from "./sort-spec.ts";

/** A planned window Top-N. */
export interface WindowRankSpec {
  /** `PARTITION BY` input positions other than the window fields (empty: one partition per window). */
  partitionKeys: readonly number[];
  orderBy: readonly SortKey[];
  rankType: RankType;
  /** First rank of the result, 1-based. */
  rankStart: number;
  /** Last rank of the result, inclusive. */
  rankEnd: number;
  /** Append the rank as a trailing BIGINT field. */
  outputRankNumber: boolean;
  /** Position of `window_start` in the input. */
  windowStartField: number;
  /** Position of `window_end` in the input. */
  windowEndField: number;
}

/**
 * Window Top-N over `input` (a window TVF's output): keyed by the partition
 * keys and the window, one operator named by `naming`.
 *
 * @example
 * ```ts
 * // Top-3 suppliers by price per 10-minute window: price at 1, window_start at 3, window_end at 4.
 * const top3 = windowRank(windowed, {
 *   partitionKeys: [], orderBy: [{ field: 1, descending: true, nullsFirst: false }], rankType: "ROW_NUMBER",
 *   rankStart: 1, rankEnd: 3, outputRankNumber: true, windowStartField: 3, windowEndField: 4,
 * }, { uid: "top3", name: "WindowRank(top3)" });
 * ```
 */
export function windowRank(input: DataStream<Row>, spec: WindowRankSpec, naming: OperatorNaming): DataStream<Row> {
  return processWindowEnds(input, windowRankKey(spec), new WindowRankFunction(spec)).uid(naming.uid).name(naming.name);
}

/**
 * The key of a window Top-N's rows: their partition and window.
 *
 * @example
 * ```ts
 * const key = windowRankKey(spec); // key(row): the string of its partition keys, window_start and window_end
 * ```
 */
export function windowRankKey(spec: WindowRankSpec): (row: Row) => string {
  return rowKeySelector([...spec.partitionKeys, spec.windowStartField, spec.windowEndField]);
}

/**
 * The rows of one partition and window in engine keyed state (the same state
 * as the value state of earlier versions), changed in place; the window fires
 * from the operator's queue of window ends, queued when its first row arrives.
 */
class WindowRankFunction extends WindowEndFunction<Row, Row> {
  readonly queueState = "window-rank-rows";
  private sorted!: EngineKeyedState<SqlValue[][]>;
  private readonly cmp: FieldsComparator;

  constructor(private readonly spec: WindowRankSpec) {
    super();
    this.cmp = sortKeyComparator(spec.orderBy);
  }

  override open(): void {
    this.sorted = engineKeyedState<SqlValue[][]>(this.getRuntimeContext(), this.queueState);
  }

  queuedEnds(stored: unknown): readonly number[] {
    const rows = stored as SqlValue[][];
    return [(rows[0]![this.spec.windowEndField] as number) - 1];
  }

  processElement(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    const windowEnd = row.fields[this.spec.windowEndField] as number;
    if (windowEnd - 1 <= ctx.timerService().currentWatermark()) return; // the window already fired
    let sorted = this.sorted.getOwned();
    if (sorted === undefined) {
      sorted = [];
      this.sorted.set(sorted);
      this.queueWindowEnd(windowEnd - 1, ctx.getCurrentKey());
    }
    // the row is this function's own: kept as it is (unless it ranks past rankEnd)
    keepRanked(sorted, row.fields, this.cmp, this.spec.rankType, this.spec.rankEnd);
  }

  protected queueLegacyTimer(maxTimestamp: number, key: string): void {
    // state of earlier versions: a window's only timer; its key queued nothing
    this.queueWindowEnd(maxTimestamp, key);
  }

  fireWindowEnd(_maxTimestamp: number, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const sorted = this.sorted.getOwned();
    if (sorted === undefined) return;
    this.sorted.set(undefined);
    const ranks = rankNumbers(sorted, this.cmp, this.spec.rankType, this.spec.rankEnd);
    for (let i = 0; i < ranks.length; i++) {
      const rank = ranks[i]!;
      if (rank < this.spec.rankStart) continue;
      out.collect({ kind: "+I", fields: this.spec.outputRankNumber ? [...sorted[i]!, rank] : sorted[i]! });
    }
  }
}
