/**
 * Window deduplication over the output of a window TVF (`SELECT * FROM
 * (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, …
 * ORDER BY rowtime [DESC]) AS rn FROM TABLE(TUMBLE(…))) WHERE rn = 1`), as
 * Flink's window deduplicate: per partition and window the first row (the
 * smallest `timeField`, the earliest arrival among equal times) or the last
 * (the largest, the latest arrival among equal times) is kept until the
 * watermark passes `window_end - 1`, then it comes out as `+I` and the
 * window's state is cleared. The output is insert-only. A row whose window
 * already fired is dropped.
 *
 * State, per partition and window until it fires: one row.
 */
import type { OperatorNaming } from "./operator-naming.ts";
import type { Collector } from "../../core/collector.ts";
import type { DataStream } from "../../api/data-stream.ts";
import { KeyedProcessFunction, type KeyedProcessContext, type OnTimerContext } from "../../core/process-function.ts";
import { ValueStateDescriptor, type ValueState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { replacesKept } from "./deduplicate.ts";
import { rowKeySelector } from "./row-key.ts";

/** A planned window deduplication. */
export interface WindowDeduplicateSpec {
  /** `PARTITION BY` input positions other than the window fields. */
  keys: readonly number[];
  /** `ORDER BY … DESC`: keep the last row; otherwise the first. */
  keepLast: boolean;
  /** Position of the event-time attribute of `ORDER BY`. */
  timeField: number;
  /** Position of `window_start` in the input. */
  windowStartField: number;
  /** Position of `window_end` in the input. */
  windowEndField: number;
}

/**
 * Window deduplication over `input` (a window TVF's output): keyed by the keys
 * and the window, one operator named by `naming`.
 *
 * @example
 * ```ts
 * // The last bid per item and 10-minute window: item at 0, bidtime at 2, window_start at 3, window_end at 4.
 * const lastBids = windowDeduplicate(windowed, { keys: [0], keepLast: true, timeField: 2, windowStartField: 3, windowEndField: 4 },
 *   { uid: "last-bid", name: "WindowDeduplicate(last-bid)" });
 * ```
 */
export function windowDeduplicate(input: DataStream<Row>, spec: WindowDeduplicateSpec, naming: OperatorNaming): DataStream<Row> {
  return input
    .keyBy(rowKeySelector([...spec.keys, spec.windowStartField, spec.windowEndField]))
    .process(new WindowDeduplicateFunction(spec))
    .uid(naming.uid)
    .name(naming.name);
}

class WindowDeduplicateFunction extends KeyedProcessFunction<string, Row, Row> {
  private kept!: ValueState<SqlValue[]>;

  constructor(private readonly spec: WindowDeduplicateSpec) {
    super();
  }

  override open(): void {
    this.kept = this.getRuntimeContext().getState(new ValueStateDescriptor<SqlValue[]>("window-dedup-kept-row"));
  }

  processElement(row: Row, ctx: KeyedProcessContext<string>, _out: Collector<Row>): void {
    const windowEnd = row.fields[this.spec.windowEndField] as number;
    if (windowEnd - 1 <= ctx.timerService().currentWatermark()) return; // the window already fired
    const kept = this.kept.value();
    if (kept === undefined) ctx.timerService().registerEventTimeTimer(windowEnd - 1);
    else if (!replacesKept(kept, row.fields, this.spec.keepLast, this.spec.timeField)) return;
    this.kept.update(row.fields);
  }

  override onTimer(_timestamp: number, _ctx: OnTimerContext<string>, out: Collector<Row>): void {
    const kept = this.kept.value();
    if (kept === undefined) return;
    this.kept.clear();
    out.collect({ kind: "+I", fields: kept });
  }
}
