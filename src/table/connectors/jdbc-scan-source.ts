/**
 * The source of a `jdbc` table's bounded scan: one split per query (the whole table, or each range of a
 * partitioned scan), spread over the source's parallel readers; a reader runs its splits' queries one after
 * the other. A split's position is the number of rows it emitted: after a restore its query runs again and
 * skips them (see jdbc-table-scan.ts for when that is exact).
 */
import { AsyncIterableSource, type IterableSplit } from "../../connectors/node/async-iterable-source.ts";
import type { PollStatus, ReaderOutput, Source, SourceReader } from "../../core/source.ts";
import type { Row } from "../data/row.ts";
import type { JdbcScanRange } from "./jdbc-table-scan.ts";

/** One query of the scan and how many of its rows were emitted. */
export interface JdbcScanSplit {
  readonly index: number;
  /** Absent: the whole table. */
  readonly range?: JdbcScanRange;
  emitted: number;
}

/**
 * The scan as a source of rows.
 *
 * @example
 * ```ts
 * const source = new JdbcScanSource([undefined], (range) => scanJdbcTable(config, physicalType, undefined, "weir jdbc scan rates", range));
 * env.fromSource(source, WatermarkStrategy.noWatermarks(), "Source: rates").setParallelism(1);
 * ```
 */
export class JdbcScanSource implements Source<Row, JdbcScanSplit> {
  readonly boundedness = "bounded";

  constructor(
    private readonly ranges: readonly (JdbcScanRange | undefined)[],
    private readonly query: (range: JdbcScanRange | undefined) => AsyncIterable<Row>,
  ) {}

  createSplits(): JdbcScanSplit[] {
    return this.ranges.map((range, index) => (range === undefined ? { index, emitted: 0 } : { index, range, emitted: 0 }));
  }

  createReader(): SourceReader<Row, JdbcScanSplit> {
    return new JdbcScanReader(this.query);
  }
}

/** Reads its splits in turn, each through a reader of its query's rows. */
class JdbcScanReader implements SourceReader<Row, JdbcScanSplit> {
  private readonly pending: JdbcScanSplit[] = [];
  private current: { split: JdbcScanSplit; reader: SourceReader<Row, IterableSplit> } | undefined;

  constructor(private readonly query: (range: JdbcScanRange | undefined) => AsyncIterable<Row>) {}

  addSplits(splits: JdbcScanSplit[]): void {
    for (const s of splits) this.pending.push({ ...s });
  }

  pollNext(output: ReaderOutput<Row>, maxRecords: number): PollStatus | Promise<PollStatus> {
    if (this.current === undefined) {
      const split = this.pending.shift();
      if (split === undefined) return "end-of-input";
      const reader = new AsyncIterableSource<Row>(() => this.query(split.range)).createReader();
      reader.addSplits([{ index: split.emitted }]);
      this.current = { split, reader };
    }
    const status = this.current.reader.pollNext(output, maxRecords);
    return status instanceof Promise ? status.then((s) => this.settle(s)) : this.settle(status);
  }

  isAvailable(): Promise<void> {
    return this.current?.reader.isAvailable?.() ?? Promise.resolve();
  }

  snapshotState(checkpointId: number): JdbcScanSplit[] {
    const splits = this.pending.map((s) => ({ ...s }));
    if (this.current !== undefined) {
      const emitted = this.current.reader.snapshotState(checkpointId)[0]?.index ?? this.current.split.emitted;
      splits.unshift({ ...this.current.split, emitted });
    }
    return splits;
  }

  async close(): Promise<void> {
    await this.current?.reader.close?.();
    this.current = undefined;
  }

  /** A finished query makes way for the next split. */
  private settle(status: PollStatus): PollStatus {
    if (status !== "end-of-input") return status;
    void this.current?.reader.close?.();
    this.current = undefined;
    return this.pending.length > 0 ? "more-available" : "end-of-input";
  }
}
