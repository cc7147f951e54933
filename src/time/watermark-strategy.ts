/**
 * How a source assigns event timestamps and generates watermarks (Flink's
 * WatermarkStrategy), given to `fromSource` or `assignTimestampsAndWatermarks`.
 */
import {
  BoundedOutOfOrdernessWatermarks,
  WatermarksWithIdleness,
  type WatermarkGenerator,
} from "./watermark-generator.ts";

/** Extracts the event timestamp (ms) of a record; `recordTimestamp` is the one the source gave, if any. */
export type TimestampAssigner<T> = (event: T, recordTimestamp: number | undefined) => number;

/**
 * @example
 * ```ts
 * env.fromSource(source, WatermarkStrategy
 *     .forBoundedOutOfOrderness<Bid>(5_000)
 *     .withTimestampAssigner((bid) => bid.dateTime)
 *     .withIdleness(60_000), "bids");
 * ```
 */
export class WatermarkStrategy<T> {
  private constructor(
    /** @internal Creates the generator of one reader; null: no watermarks. */
    readonly createGenerator: ((now: () => number) => WatermarkGenerator<T>) | null,
    /** @internal */ readonly timestampAssigner: TimestampAssigner<T> | null,
    /** @internal */ readonly idleTimeoutMs: number | null,
    /** @internal The generator is the user's (`forGenerator`): it sees the records. */
    private readonly customGenerator = false,
  ) {}

  /** @internal Whether user code sees the source's records here: a timestamp assigner or a custom generator. */
  get seesRecords(): boolean {
    return this.timestampAssigner !== null || this.customGenerator;
  }

  /** No event time: records keep the source's timestamps (if any), no watermarks are generated. */
  static noWatermarks<T>(): WatermarkStrategy<T> {
    return new WatermarkStrategy<T>(null, null, null);
  }

  /** Watermarks `maxOutOfOrdernessMs` behind the highest timestamp seen: records may be that much out of order. */
  static forBoundedOutOfOrderness<T>(maxOutOfOrdernessMs: number): WatermarkStrategy<T> {
    new BoundedOutOfOrdernessWatermarks(maxOutOfOrdernessMs); // validates
    return new WatermarkStrategy<T>(() => new BoundedOutOfOrdernessWatermarks<T>(maxOutOfOrdernessMs), null, null);
  }

  /** For timestamps that never decrease: the watermark follows the highest timestamp. */
  static forMonotonousTimestamps<T>(): WatermarkStrategy<T> {
    return WatermarkStrategy.forBoundedOutOfOrderness<T>(0);
  }

  /** A custom generator (created once per source reader). */
  static forGenerator<T>(create: () => WatermarkGenerator<T>): WatermarkStrategy<T> {
    return new WatermarkStrategy<T>(() => create(), null, null, true);
  }

  /** Sets how event timestamps are extracted from records. */
  withTimestampAssigner(assigner: TimestampAssigner<T>): WatermarkStrategy<T> {
    return new WatermarkStrategy<T>(this.createGenerator, assigner, this.idleTimeoutMs, this.customGenerator);
  }

  /** Marks a reader idle after `idleTimeoutMs` without records, so it does not hold back event time. */
  withIdleness(idleTimeoutMs: number): WatermarkStrategy<T> {
    if (!(idleTimeoutMs > 0)) throw new RangeError(`idle timeout must be > 0 ms, got ${idleTimeoutMs}`);
    return new WatermarkStrategy<T>(this.createGenerator, this.timestampAssigner, idleTimeoutMs, this.customGenerator);
  }

  /** @internal The generator of one reader, with idleness if configured; null for no watermarks. */
  generator(now: () => number): WatermarkGenerator<T> | null {
    if (!this.createGenerator) return null;
    const g = this.createGenerator(now);
    return this.idleTimeoutMs === null ? g : new WatermarksWithIdleness(g, this.idleTimeoutMs, now);
  }
}
