/**
 * Watermarks generated in a table source, per split (Flink's watermark
 * push-down): the largest value of the table's WATERMARK expression over
 * the rows of each split, so a reader that moves between splits, or is
 * given other splits after a restore, never makes one split's rows late
 * because of another's.
 */
import type { Row } from "../data/row.ts";
import type { Evaluator } from "../expr/compile-expression.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { WatermarkStrategy, type WatermarkAlignmentParams } from "../../time/watermark-strategy.ts";
import type { WatermarkGenerator, WatermarkOutput } from "../../time/watermark-generator.ts";

/** What a source needs to generate a table's watermarks, over rows of its physical columns. */
export interface SourceWatermarks {
  /** The rowtime of a row (epoch ms; NULL when the row has none). */
  readonly rowtime: Evaluator;
  /** The WATERMARK expression's value for a row. */
  readonly watermark: Evaluator;
  /**
   * When the WATERMARK expression reads the rowtime only: its value for a rowtime, so that a record of one row
   * takes it from the record's timestamp instead of computing the rowtime again.
   */
  readonly watermarkOfRowtime?: (rowtime: SqlValue) => SqlValue;
  /**
   * `watermarkOfRowtime` never decreases as the rowtime grows (`rowtime - INTERVAL '4' SECOND`): the largest
   * WATERMARK value of the rows is then that of the largest rowtime, so a record of one row only updates the
   * largest rowtime, and the expression is computed per periodic emit instead of per row.
   */
  readonly watermarkGrowsWithRowtime?: boolean;
  /** `table.exec.source.idle-timeout` (0: never idle). */
  readonly idleTimeoutMs: number;
  /** The table's `scan.watermark.alignment.*`, if any. */
  readonly alignment?: WatermarkAlignmentParams;
}

/** {@link SourceWatermarks} of a source of records (see `TableSourceRecords`), whose WATERMARK reads the rowtime only. */
export interface RecordWatermarks extends SourceWatermarks {
  /** The rowtime of a record (its row's `rowtime`). */
  readonly rowtimeOf: (record: unknown) => SqlValue;
  readonly watermarkOfRowtime: (rowtime: SqlValue) => SqlValue;
}

/**
 * The watermark strategy of a source whose records hold rows (`rowsOf`
 * gives them; without it each record is one row): each split's watermark is
 * the largest WATERMARK value of its rows, each record's timestamp its last row's rowtime.
 *
 * @example
 * ```ts
 * env.fromSource(files, sourceWatermarkStrategy(watermarks, (rows: Row[]) => rows), "orders");
 * env.fromSource(rows, sourceWatermarkStrategy(watermarks), "bids");
 * ```
 */
export function sourceWatermarkStrategy(spec: SourceWatermarks): WatermarkStrategy<Row>;
export function sourceWatermarkStrategy<R>(spec: SourceWatermarks, rowsOf: (record: R) => readonly Row[]): WatermarkStrategy<R>;
export function sourceWatermarkStrategy<R>(spec: SourceWatermarks, rowsOf?: (record: R) => readonly Row[]): WatermarkStrategy<R> {
  const rowtime = spec.rowtime;
  // a record that is one row is read as that row (no array per record)
  const lastRow: (record: R) => Row | undefined = rowsOf === undefined ? (record) => record as Row : (record) => rowsOf(record).at(-1);
  return maxWatermarks(spec, rowsOf, (record) => {
    const row = lastRow(record);
    return row === undefined ? null : rowtime(row.fields);
  });
}

/**
 * The watermark strategy of a source of records that are its rows in another form (see
 * `TableSourceRecords`): as {@link sourceWatermarkStrategy}, each record's timestamp its `rowtimeOf`.
 *
 * @example
 * ```ts
 * env.fromSource(events, recordWatermarkStrategy(watermarks), "nexmark");
 * ```
 */
export function recordWatermarkStrategy(spec: RecordWatermarks): WatermarkStrategy<unknown> {
  return maxWatermarks(spec, undefined, spec.rowtimeOf);
}

/** {@link MaxWatermarks} per split, each record's timestamp its `rowtimeOf` (NULL: none), idle after `spec.idleTimeoutMs`. */
function maxWatermarks<R>(spec: SourceWatermarks, rowsOf: ((record: R) => readonly Row[]) | undefined, rowtimeOf: (record: R) => SqlValue): WatermarkStrategy<R> {
  const strategy = WatermarkStrategy.forGenerator<R>(() => new MaxWatermarks(spec.watermark, rowsOf, spec.watermarkOfRowtime, spec.watermarkGrowsWithRowtime)).withTimestampAssigner((record) => {
    const t = rowtimeOf(record);
    return typeof t === "number" ? t : NO_ROWTIME;
  });
  const idle = spec.idleTimeoutMs > 0 ? strategy.withIdleness(spec.idleTimeoutMs) : strategy;
  const a = spec.alignment;
  return a === undefined ? idle : idle.withWatermarkAlignment(a.group, a.maxAllowedDriftMs, a.updateIntervalMs);
}

/** The timestamp of a record whose last row has no rowtime (NULL). */
const NO_ROWTIME = Number.MIN_SAFE_INTEGER;

/** Flink SQL's watermarks: the largest value of the WATERMARK expression seen so far. */
export class MaxWatermarks<R> implements WatermarkGenerator<R> {
  private max = Number.NEGATIVE_INFINITY;
  /** With `growsWithRowtime`: the largest rowtime of the one-row records, whose WATERMARK value is not in `max` yet. */
  private maxRowtime = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly watermark: Evaluator,
    /** The rows of a record; undefined when each record is one row. */
    private readonly rowsOf: ((record: R) => readonly Row[]) | undefined,
    private readonly ofRowtime?: (rowtime: SqlValue) => SqlValue,
    /** `ofRowtime` never decreases as the rowtime grows (see {@link SourceWatermarks.watermarkGrowsWithRowtime}). */
    private readonly growsWithRowtime = false,
  ) {}

  onEvent(record: R, timestamp: number): void {
    const rows = this.rowsOf?.(record);
    if (this.ofRowtime !== undefined && (rows === undefined || rows.length === 1)) {
      // the record's timestamp is its row's rowtime (see sourceWatermarkStrategy)
      if (!this.growsWithRowtime) this.observe(this.ofRowtime(timestamp === NO_ROWTIME ? null : timestamp));
      else if (timestamp !== NO_ROWTIME && timestamp > this.maxRowtime) this.maxRowtime = timestamp;
    } else if (rows === undefined) this.observe(this.watermark((record as Row).fields));
    else for (const row of rows) this.observe(this.watermark(row.fields));
  }

  private observe(v: SqlValue): void {
    if (typeof v === "number" && v > this.max) this.max = v;
  }

  onPeriodicEmit(output: WatermarkOutput): void {
    if (this.maxRowtime !== Number.NEGATIVE_INFINITY) {
      this.observe(this.ofRowtime!(this.maxRowtime));
      this.maxRowtime = Number.NEGATIVE_INFINITY;
    }
    if (this.max !== Number.NEGATIVE_INFINITY) output.emitWatermark(this.max);
  }
}
