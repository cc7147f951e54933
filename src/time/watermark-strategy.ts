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

/** The watermark alignment of a source (see {@link WatermarkStrategy.withWatermarkAlignment}). */
export interface WatermarkAlignmentParams {
  /** Sources (and their subtasks) of one group align with each other. */
  readonly group: string;
  /** How far (ms of event time) a subtask's watermark may be ahead of the group's lowest before it pauses. */
  readonly maxAllowedDriftMs: number;
  /** How often (ms of wall time) at most a subtask reports its watermark to the job master. */
  readonly updateIntervalMs: number;
}

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
    /** @internal Watermark alignment of the source's subtasks with the others of its group; null: none. */
    readonly alignment: WatermarkAlignmentParams | null = null,
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
    return new WatermarkStrategy<T>(this.createGenerator, assigner, this.idleTimeoutMs, this.customGenerator, this.alignment);
  }

  /** Marks a reader idle after `idleTimeoutMs` without records, so it does not hold back event time. */
  withIdleness(idleTimeoutMs: number): WatermarkStrategy<T> {
    if (!(idleTimeoutMs > 0)) throw new RangeError(`idle timeout must be > 0 ms, got ${idleTimeoutMs}`);
    return new WatermarkStrategy<T>(this.createGenerator, this.timestampAssigner, idleTimeoutMs, this.customGenerator, this.alignment);
  }

  /**
   * Aligns the watermarks of this source's subtasks with those of every source of `group` (Flink's watermark
   * alignment): a subtask whose watermark is more than `maxAllowedDriftMs` ahead of the group's lowest stops
   * reading until the others catch up. A subtask that reads faster than the others (fewer splits than they
   * have, a head start after a restore or a rescale, a backlog to catch up) then does not run ahead in event
   * time, which would fill the windows and joins downstream with rows far ahead of the watermark. Subtasks
   * report their watermarks to the job master at most every `updateIntervalMs` of wall time; an idle or
   * finished subtask holds nobody back.
   *
   * @example
   * ```ts
   * WatermarkStrategy.forBoundedOutOfOrderness<Bid>(5_000).withWatermarkAlignment("bids", 20_000);
   * ```
   */
  withWatermarkAlignment(group: string, maxAllowedDriftMs: number, updateIntervalMs = 1_000): WatermarkStrategy<T> {
    if (group === "") throw new RangeError("watermark alignment needs a group name");
    if (!(maxAllowedDriftMs >= 0) || !Number.isFinite(maxAllowedDriftMs)) throw new RangeError(`max allowed drift must be a finite number ≥ 0 ms, got ${maxAllowedDriftMs}`);
    if (!(updateIntervalMs > 0) || !Number.isFinite(updateIntervalMs)) throw new RangeError(`alignment update interval must be > 0 ms, got ${updateIntervalMs}`);
    if (!this.createGenerator) throw new Error("watermark alignment needs watermarks: noWatermarks() has none to align");
    return new WatermarkStrategy<T>(this.createGenerator, this.timestampAssigner, this.idleTimeoutMs, this.customGenerator, { group, maxAllowedDriftMs, updateIntervalMs });
  }

  /** @internal The generator of one reader, with idleness if configured; null for no watermarks. */
  generator(now: () => number): WatermarkGenerator<T> | null {
    if (!this.createGenerator) return null;
    const g = this.createGenerator(now);
    return this.idleTimeoutMs === null ? g : new WatermarksWithIdleness(g, this.idleTimeoutMs, now);
  }
}
