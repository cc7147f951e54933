/**
 * Punctuated watermarks for table operator tests: after every row, the
 * largest time seen minus `bound` minus 1, read from the row's time field,
 * so which rows are late is decided by the input order alone.
 */
import { WatermarkStrategy } from "../../src/time/watermark-strategy.ts";
import type { Row } from "../../src/table/data/row.ts";

/** Watermarks `max(time) - bound - 1` emitted on every row (time = `fields[timeField]`). */
export function rowWatermarks(timeField: number, bound: number): WatermarkStrategy<Row> {
  return WatermarkStrategy.forGenerator<Row>(() => {
    let max = Number.NEGATIVE_INFINITY;
    return {
      onEvent: (r, _ts, out) => {
        max = Math.max(max, r.fields[timeField] as number);
        out.emitWatermark(max - bound - 1);
      },
      onPeriodicEmit: () => {},
    };
  }).withTimestampAssigner((r) => r.fields[timeField] as number);
}
