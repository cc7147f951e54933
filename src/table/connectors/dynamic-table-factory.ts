/**
 * What the planner asks of a table connector (Flink's `DynamicTableSource` /
 * `DynamicTableSink` factories): given a catalog table and its validated
 * options, a source produces a `DataStream<Row>` of the table's physical
 * columns and a sink consumes the stream of a query's result. Rows follow
 * `src/table/types/sql-value.ts`; a source declares the changelog it emits,
 * a sink the changelog it accepts, so the planner can refuse an updating
 * query for an insert-only sink before the job starts.
 */
import type { DataStream, DataStreamSink } from "../../api/data-stream.ts";
import type { StreamExecutionEnvironment } from "../../api/environment.ts";
import type { CatalogTable } from "../catalog/catalog-table.ts";
import type { FactoryDeclaration, ValidatedTableOptions } from "../catalog/factory-options.ts";
import type { Row } from "../data/row.ts";
import type { RowType } from "../expr/type-rules.ts";
import type { ChangelogMode } from "../plan/changelog-mode.ts";
import type { LookupCacheOptions } from "../runtime/lookup-cache.ts";
import type { LogicalType } from "../types/logical-type.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { RecordWatermarks, SourceWatermarks } from "./source-watermarks.ts";
import type { WatermarkAlignmentParams } from "../../time/watermark-strategy.ts";

/** What a connector knows when the planner creates its source or sink. */
export interface DynamicTableContext {
  env: StreamExecutionEnvironment;
  table: CatalogTable;
  options: ValidatedTableOptions;
  /** The table's physical columns (computed columns excluded), in declaration order. */
  physicalType: RowType;
  /** Positions (in `physicalType`) of the primary key columns, when the table declares one. */
  primaryKey?: readonly number[];
  /**
   * The metadata keys of the table's metadata columns the connector reads
   * (a source appends their values, in this order, after the physical
   * columns) or writes (a sink's rows carry them after the physical columns;
   * VIRTUAL columns excluded). Values have the types the factory declares.
   */
  metadataKeys?: readonly string[];
  /** A stable uid prefix derived from the plan; operator uids start with it. */
  uid: string;
  /** `table.local-time-zone` (an IANA zone id), for TIMESTAMP_LTZ text. */
  timeZone: string;
}

/** A table as a source. */
export interface TableSource {
  /** The row kinds the source emits (insert-only for plain formats, every kind for changelog formats). */
  readonly changelogMode: ChangelogMode;
  /** False when the source ends (bounded files); true when it keeps watching. */
  readonly unbounded: boolean;
  /**
   * True when `produce` generates the table's watermarks itself from its `watermarks` argument, per split
   * (Flink's `SupportsWatermarkPushDown`). Absent: the job assigns them in an operator after the source,
   * from its rows, so a source that does not read that argument still has watermarks.
   */
  readonly supportsWatermarkPushDown?: boolean;
  /** With watermark push-down: the watermark alignment of the source's subtasks (`scan.watermark.alignment.*`). */
  readonly watermarkAlignment?: WatermarkAlignmentParams;
  /**
   * Adds the source to the job: rows of `physicalType`'s columns in order.
   * With `watermarks` (the table has a WATERMARK), the source generates them
   * per split and stamps records with their rowtime. With `projection` (the
   * positions of the columns the job reads), the source may leave the other
   * columns NULL rather than decode them (projection push-down). With `nested` (per ROW column of
   * `projection` whose fields the job reads only some of: the positions of those fields), the source may
   * leave the other fields of its ROW values NULL (nested projection push-down).
   */
  produce(watermarks?: SourceWatermarks, projection?: readonly number[], nested?: ReadonlyMap<number, readonly number[]>): DataStream<Row>;
  /**
   * All rows of the table now (inserts), for a lookup join (`JOIN t FOR
   * SYSTEM_TIME AS OF l.proc_time`), which reads the table whole when each
   * of its tasks opens. Absent when the connector cannot be looked up.
   */
  readAll?(): Promise<readonly Row[]>;
  /**
   * A keyed lookup for a lookup join (Flink's `LookupTableSource`): the join
   * asks the table for the rows whose columns at `lookupKeys` (positions in
   * `physicalType`) equal a left row's key, per key, asynchronously, through
   * the provider's cache. Preferred to `readAll` when both exist.
   */
  lookup?(lookupKeys: readonly number[]): LookupProvider;
  /**
   * The source's own records, for an insert-only source whose rows are its records converted: a Calc
   * (filters and projections) right over the source is then generated over the records, reading only
   * the values it needs, and no row is made for a record it drops (as Flink's generated code reads only
   * the fields it needs of a source's binary rows). Absent: the job reads rows (`produce`).
   */
  readonly records?: TableSourceRecords;
}

/**
 * A source's records (see {@link TableSource.records}): the code that reads a row's values from a
 * record, and the stream of records. One record is one row, an insert.
 *
 * @example
 * ```ts
 * const code = source.records.columns.column(0, "e"); // "e.type"
 * const events = source.records.produce(watermarks);
 * ```
 */
export interface TableSourceRecords {
  readonly columns: RecordColumns;
  /** Adds the source to the job, as `TableSource.produce` does, with the records instead of rows. */
  produce(watermarks?: RecordWatermarks): DataStream<unknown>;
  /** A record's row, as `TableSource.produce` makes it for `projection` and `nested`. */
  toRow(projection?: readonly number[], nested?: ReadonlyMap<number, readonly number[]>): (record: unknown) => Row;
}

/** JavaScript source that reads a row's values from a record in a variable (the variable's name is given). */
export interface RecordColumns {
  /** The value of column `i` (as the record's row holds it); with `read` (a ROW column), its other fields NULL. */
  column(i: number, record: string, read?: readonly number[]): string;
  /** The value of field `j` of ROW column `i`, read directly; undefined: from `column(i)`'s ROW value. */
  rowField(i: number, j: number, record: string): string | undefined;
}

/** What a lookup join of one parallel instance opens, and the cache in front of it. */
export interface LookupProvider {
  /** A PARTIAL cache kept per parallel instance (absent: every key is looked up). */
  readonly cache?: LookupCacheOptions;
  /** Opens the lookup of one parallel instance (a connection), when the join opens (also after a restart). */
  open(): Promise<LookupFunction>;
  /** Checks the table before the job starts (in the job's client only), e.g. that it exists and its columns fit. */
  check?(): Promise<void>;
}

/** The lookup of one parallel instance. */
export interface LookupFunction {
  /**
   * The rows (of `physicalType`'s columns, inserts) whose lookup columns equal
   * `key` (one value per lookup column, of its type, never NULL). Retries
   * transient failures itself; a rejection fails the job.
   */
  lookup(key: readonly SqlValue[]): Promise<readonly Row[]>;
  close(): Promise<void>;
}

/** A table as a sink. */
export interface TableSink {
  /** The row kinds the sink can write; the planner refuses a query that emits others. */
  readonly acceptedMode: ChangelogMode;
  /**
   * Adds the sink to the job. `stream` carries rows of `physicalType`'s
   * columns, in order, already cast to the sink's column types.
   */
  consume(stream: DataStream<Row>): DataStreamSink;
}

/** The options a connector declares (Flink's `requiredOptions()` / `optionalOptions()`). */
export type TableFactoryOptions = Omit<FactoryDeclaration, "identifier">;

/**
 * A connector: its identifier (`'connector' = '…'`), the options it declares
 * (a table's `WITH` options are checked against them before the factory sees
 * them) and what it can be. Register your own with `registerTableFactory`.
 */
export interface DynamicTableFactory extends FactoryDeclaration {
  /** The metadata a source can read (Flink's `listReadableMetadata`), by key, with its type. */
  readonly readableMetadata?: ReadonlyMap<string, LogicalType>;
  /** The metadata a sink can write (Flink's `listWritableMetadata`), by key, with its type. */
  readonly writableMetadata?: ReadonlyMap<string, LogicalType>;
  createSource?(ctx: DynamicTableContext): TableSource;
  createSink?(ctx: DynamicTableContext): TableSink;
}
