/**
 * Watermarks for the table operator suites: after each row, the largest time
 * seen so far minus `bound` minus 1, emitted on every row, so which rows are
 * late is decided by the input order alone (see `watermarksBefore` in
 * `table-operator-oracles.ts`).
 */
import { WatermarkStrategy } from "../../src/time/watermark-strategy.ts";
import type { Row } from "../../src/table/data/row.ts";

/** Row timestamps from the TIMESTAMP(3) field `timeField`, watermarks `max - bound - 1` after every row. */
export function rowWatermarks(timeField: number, bound: number): WatermarkStrategy<Row> {
  return WatermarkStrategy.forGenerator<Row>(() => {
    let max = Number.NEGATIVE_INFINITY;
    return {
      onEvent: (row, _ts, out) => {
        max = Math.max(max, row.fields[timeField] as number);
        out.emitWatermark(max - bound - 1);
      },
      onPeriodicEmit: () => {},
    };
  }).withTimestampAssigner((row) => row.fields[timeField] as number);
}
