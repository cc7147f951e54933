/**
 * The local phase of a window Top-N (`window-rank.ts`): chained to the
 * rank's input, before the exchange by partition and window, it keeps of the
 * rows of each partition and window only those that can still be ranked up to
 * `rankEnd` among the rows it saw, and sends those on; the window rank after
 * the exchange ranks what the local phases sent as it ranks all rows. A row
 * ranked past `rankEnd` among some of a window's rows is ranked past it among
 * all of them (`RANK` and `DENSE_RANK` count only the rows or values that sort
 * before it, `ROW_NUMBER` at least those), so the result is the same; ties
 * come to the window rank in another order, which only `ROW_NUMBER` can show,
 * and it breaks ties by arrival order on any input.
 *
 * Nothing of it is state (`local-phase-operator.ts`): a window's rows are sent
 * on once the watermark reaches `window_end - 1`, and all of them before a
 * checkpoint's barrier is forwarded, when the input goes idle, at the end of
 * input and when more than {@link LOCAL_BUFFER_LIMIT} rows are kept. A row
 * whose window the watermark passed already goes on at once (the window rank
 * drops it by its own watermark). For Nexmark q7's shape (the highest bids of
 * each window) one row per window crosses the exchange instead of every bid.
 */
import type { DataStream, SingleOutputStreamOperator } from "../../api/data-stream.ts";
import type { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { localPhase, LocalPhaseOperator } from "./local-phase-operator.ts";
import type { OperatorNaming } from "./operator-naming.ts";
import { keepRanked } from "./ranked-rows.ts";
import { sortKeyComparator, type FieldsComparator } from "./sort-key-comparator.ts";
import { windowRankKey, type WindowRankSpec } from "./window-rank.ts";

/** The rows a local phase keeps at most before it sends all of them on. */
const LOCAL_BUFFER_LIMIT = 10_000;

/** The kept rows of one partition and window, sorted. */
interface KeptRows {
  readonly windowEnd: number;
  readonly rows: SqlValue[][];
}

/** Keeps each partition and window's best rows; sends them on as the module says. */
class LocalWindowRankOperator extends LocalPhaseOperator<Row> {
  private readonly keyOf: (row: Row) => string;
  private readonly cmp: FieldsComparator;
  /** The kept rows by partition and window (the key of the window rank's exchange). */
  private readonly kept = new Map<string, KeptRows>();
  private keptRows = 0;

  constructor(private readonly spec: WindowRankSpec) {
    super();
    this.keyOf = windowRankKey(spec);
    this.cmp = sortKeyComparator(spec.orderBy);
  }

  processElement(row: Row): void {
    const windowEnd = row.fields[this.spec.windowEndField] as number;
    if (windowEnd - 1 <= this.watermark) return this.out.collect(row);
    const key = this.keyOf(row);
    let kept = this.kept.get(key);
    if (kept === undefined) {
      kept = { windowEnd, rows: [] };
      this.kept.set(key, kept);
      if (windowEnd - 1 < this.nextFire) this.nextFire = windowEnd - 1;
    }
    // the row is this operator's own: kept as it is, and sent on as it is
    this.keptRows += keepRanked(kept.rows, row.fields, this.cmp, this.spec.rankType, this.spec.rankEnd);
    if (this.keptRows > LOCAL_BUFFER_LIMIT) this.flush();
  }

  protected sendFired(timestamp: number): number {
    let next = Infinity;
    for (const [key, kept] of this.kept) {
      if (kept.windowEnd - 1 > timestamp) {
        if (kept.windowEnd - 1 < next) next = kept.windowEnd - 1;
        continue;
      }
      this.sendOn(kept);
      this.kept.delete(key);
    }
    return next;
  }

  protected sendAll(): void {
    for (const kept of this.kept.values()) this.sendOn(kept);
    this.kept.clear();
  }

  private sendOn(kept: KeptRows): void {
    this.keptRows -= kept.rows.length;
    for (const fields of kept.rows) this.out.collect({ kind: "+I", fields });
  }
}

/**
 * The local phase of the window Top-N `spec` over `input` (insert-only), at `input`'s parallelism: the rows
 * of `input` that can be among a window's ranks up to `rankEnd`, for `windowRank` after it.
 *
 * @example
 * ```ts
 * // the highest bids of each 10-second window: price at 2, window_start at 5, window_end at 6
 * const best = localWindowRank(windowed, {
 *   partitionKeys: [], orderBy: [{ field: 2, descending: true, nullsFirst: false }], rankType: "RANK",
 *   rankStart: 1, rankEnd: 1, outputRankNumber: false, windowStartField: 5, windowEndField: 6,
 * }, { uid: "local-window-rank", name: "LocalWindowRank(…)" });
 * const top = windowRank(best, spec, { uid: "window-rank", name: "WindowRank(…)" });
 * ```
 */
export function localWindowRank(input: DataStream<Row>, spec: WindowRankSpec, naming: OperatorNaming): SingleOutputStreamOperator<Row> {
  return localPhase<Row>(input, "local-window-rank", naming, () => new LocalWindowRankOperator(spec));
}
