/**
 * The source of the `datagen` connector: rows of generated values, the row
 * at index `i` (in the whole table) made by each column's generator from
 * `i` and a random source seeded with the table's seed and `i`. The indexes
 * are split across the source's subtasks (subtask k of p takes k, k + p,
 * k + 2p, …), so which rows a table has does not depend on the parallelism:
 * a sequence field's values are each generated once, and with a seed the
 * same rows come out at any parallelism.
 *
 * Each split's position (its next index) is in every checkpoint, so after a
 * recovery a split continues where the checkpoint left it: no row is lost or
 * generated twice. Rows are throttled to `rows-per-second` (shared by the
 * subtasks) against the engine's clock: a reader ahead of its rate waits for
 * a clock timer, never in a loop.
 */
import type { PollStatus, ReaderOutput, Source, SourceReader, SourceReaderContext } from "../../core/source.ts";
import type { Clock, TimerHandle } from "../../util/clock.ts";
import { seededRandom } from "../../util/seeded-random.ts";
import type { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import type { FieldGenerator } from "./datagen-field-generator.ts";

/** The row indexes a split still generates: `next`, `next + step`, … below `end` (-1: no end). */
export interface DatagenSplit {
  next: number;
  step: number;
  end: number;
}

/** What the source generates. */
export interface DatagenSpec {
  /** One generator per physical column, in order. */
  fields: readonly FieldGenerator[];
  /** The number of rows; undefined for an unbounded source. */
  rows?: number;
  /** Rows per second over all subtasks. */
  rowsPerSecond: number;
  /** The seed of every row's random source. */
  seed: number;
  clock: Clock;
}

/** A 32-bit seed for the row at `index` from the table's seed (a SplitMix-style mix of both). */
function rowSeed(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index >>> 0, 0x9e3779b1) ^ Math.imul(Math.floor(index / 2 ** 32), 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The datagen source of `spec`.
 *
 * @example
 * ```ts
 * env.fromSource(datagenSource({ fields: [(i) => BigInt(i)], rows: 100, rowsPerSecond: 10_000, seed: 7, clock: systemClock }), WatermarkStrategy.noWatermarks(), "gen");
 * ```
 */
export function datagenSource(spec: DatagenSpec): Source<Row, DatagenSplit> {
  return {
    boundedness: spec.rows === undefined ? "continuous" : "bounded",
    createSplits(parallelism) {
      const splits: DatagenSplit[] = [];
      for (let k = 0; k < parallelism; k++) {
        if (spec.rows === undefined || k < spec.rows) splits.push({ next: k, step: parallelism, end: spec.rows ?? -1 });
      }
      return splits;
    },
    createReader: (context) => new DatagenReader(spec, context),
  };
}

class DatagenReader implements SourceReader<Row, DatagenSplit> {
  private readonly splits: DatagenSplit[] = [];
  private readonly ratePerReader: number;
  private startedAt: number | undefined;
  private emitted = 0;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly spec: DatagenSpec,
    context: SourceReaderContext,
  ) {
    this.ratePerReader = spec.rowsPerSecond / context.parallelism;
  }

  addSplits(splits: DatagenSplit[]): void {
    for (const s of splits) this.splits.push({ ...s });
  }

  /** The rows the rate allows now: those due by the time elapsed since the first poll. */
  private budget(now: number): number {
    this.startedAt ??= now;
    return Math.floor(((now - this.startedAt) * this.ratePerReader) / 1000) + 1 - this.emitted;
  }

  pollNext(output: ReaderOutput<Row>, maxRecords: number): PollStatus {
    // the splits take turns, so each advances at its share of the rate
    const s = this.splits.shift();
    if (s === undefined) return "end-of-input";
    const now = this.spec.clock.now();
    const budget = Math.min(maxRecords, this.budget(now));
    if (budget <= 0) {
      this.splits.unshift(s);
      return "nothing-available";
    }
    const id = `datagen-${s.next % s.step}`;
    const out = output.createOutputForSplit(id);
    const fields = this.spec.fields;
    for (let n = 0; n < budget && (s.end < 0 || s.next < s.end); n++, s.next += s.step) {
      const random = seededRandom(rowSeed(this.spec.seed, s.next));
      const row: Row = { kind: RowKind.INSERT, fields: fields.map((f) => f(s.next, random, now)) };
      out.collect(row);
      this.emitted++;
    }
    if (s.end >= 0 && s.next >= s.end) output.releaseOutputForSplit(id);
    else this.splits.push(s);
    return this.splits.length === 0 ? "end-of-input" : "more-available";
  }

  isAvailable(): Promise<void> {
    const now = this.spec.clock.now();
    const dueAt = (this.startedAt ?? now) + Math.ceil((this.emitted * 1000) / this.ratePerReader);
    return new Promise((resolve) => {
      this.timer = this.spec.clock.setTimeout(() => {
        this.timer = undefined;
        resolve();
      }, dueAt - now);
    });
  }

  snapshotState(): DatagenSplit[] {
    return this.splits.map((s) => ({ ...s }));
  }

  close(): void {
    this.timer?.cancel();
  }
}
