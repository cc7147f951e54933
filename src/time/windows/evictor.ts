/**
 * Evictors (Flink's Evictor): remove records from a window's contents before
 * and/or after the window function runs when it fires. A window with an evictor
 * keeps all its records (no incremental aggregation).
 */
import type { Window } from "./window.ts";

/** A record in a window with its timestamp (NO_TIMESTAMP = -Infinity when it has none). */
export interface TimestampedValue<T> {
  readonly value: T;
  readonly timestamp: number;
}

/** What an evictor may ask about the operator. */
export interface EvictorContext {
  getCurrentProcessingTime(): number;
  getCurrentWatermark(): number;
}

/**
 * Chooses the records of a firing window to keep.
 *
 * @example
 * ```ts
 * // drop records with a negative value before the function sees them
 * const positive: Evictor<number, TimeWindow> = {
 *   evictBefore: (els) => els.filter((e) => e.value >= 0),
 *   evictAfter: (els) => [...els],
 * };
 * ```
 */
export interface Evictor<T, W extends Window> {
  /** Before the window function: returns the records to keep (in order). */
  evictBefore(elements: readonly TimestampedValue<T>[], window: W, ctx: EvictorContext): TimestampedValue<T>[];
  /** After the window function: returns the records to keep (in order). */
  evictAfter(elements: readonly TimestampedValue<T>[], window: W, ctx: EvictorContext): TimestampedValue<T>[];
}

function checkWhole(what: string, n: number, min: number): number {
  if (!Number.isInteger(n) || n < min) throw new RangeError(`${what} must be a whole number ≥ ${min}, got ${n}`);
  return n;
}

/**
 * Keeps at most the last `maxCount` records.
 *
 * @example
 * ```ts
 * stream.keyBy(k).window(GlobalWindows.create()).trigger(CountTrigger.of(1)).evictor(CountEvictor.of(10)).process(lastTen);
 * ```
 */
export class CountEvictor implements Evictor<unknown, Window> {
  private constructor(
    private readonly maxCount: number,
    private readonly doEvictAfter: boolean,
  ) {}

  /** Keeps the last `maxCount` records, before the function runs (or after, with `doEvictAfter`). */
  static of(maxCount: number, doEvictAfter = false): CountEvictor {
    return new CountEvictor(checkWhole("CountEvictor count", maxCount, 0), doEvictAfter);
  }

  evictBefore<T>(elements: readonly TimestampedValue<T>[]): TimestampedValue<T>[] {
    return this.doEvictAfter ? [...elements] : this.evict(elements);
  }

  evictAfter<T>(elements: readonly TimestampedValue<T>[]): TimestampedValue<T>[] {
    return this.doEvictAfter ? this.evict(elements) : [...elements];
  }

  private evict<T>(elements: readonly TimestampedValue<T>[]): TimestampedValue<T>[] {
    return elements.length <= this.maxCount ? [...elements] : elements.slice(elements.length - this.maxCount);
  }
}

/**
 * Keeps the records whose timestamp is within `windowSize` ms of the newest
 * record's (removes those at or below `max - windowSize`).
 *
 * @example
 * ```ts
 * stream.keyBy(k).window(GlobalWindows.create()).trigger(CountTrigger.of(1)).evictor(TimeEvictor.of(60_000));
 * ```
 */
export class TimeEvictor implements Evictor<unknown, Window> {
  private constructor(
    private readonly windowSize: number,
    private readonly doEvictAfter: boolean,
  ) {}

  /** Keeps the last `windowSize` ms of records. */
  static of(windowSize: number, doEvictAfter = false): TimeEvictor {
    return new TimeEvictor(checkWhole("TimeEvictor size", windowSize, 0), doEvictAfter);
  }

  evictBefore<T>(elements: readonly TimestampedValue<T>[]): TimestampedValue<T>[] {
    return this.doEvictAfter ? [...elements] : this.evict(elements);
  }

  evictAfter<T>(elements: readonly TimestampedValue<T>[]): TimestampedValue<T>[] {
    return this.doEvictAfter ? this.evict(elements) : [...elements];
  }

  private evict<T>(elements: readonly TimestampedValue<T>[]): TimestampedValue<T>[] {
    if (elements.length === 0 || !Number.isFinite(elements[0]!.timestamp)) return [...elements];
    const newest = Math.max(...elements.map((e) => e.timestamp));
    const cutoff = newest - this.windowSize;
    return elements.filter((e) => e.timestamp > cutoff);
  }
}

/** The distance between two records, for {@link DeltaEvictor}. */
export type DeltaFunction<T> = (a: T, b: T) => number;

/**
 * Removes the records whose delta to the newest record is at or above `threshold`.
 *
 * @example
 * ```ts
 * stream.keyBy(k).window(GlobalWindows.create()).trigger(CountTrigger.of(1))
 *   .evictor(DeltaEvictor.of(10, (a: Reading, b: Reading) => Math.abs(a.value - b.value)));
 * ```
 */
export class DeltaEvictor<T> implements Evictor<T, Window> {
  private constructor(
    private readonly threshold: number,
    private readonly delta: DeltaFunction<T>,
    private readonly doEvictAfter: boolean,
  ) {}

  /** Evicts by `delta(record, newest) >= threshold`. */
  static of<T>(threshold: number, delta: DeltaFunction<T>, doEvictAfter = false): DeltaEvictor<T> {
    return new DeltaEvictor(threshold, delta, doEvictAfter);
  }

  evictBefore(elements: readonly TimestampedValue<T>[]): TimestampedValue<T>[] {
    return this.doEvictAfter ? [...elements] : this.evict(elements);
  }

  evictAfter(elements: readonly TimestampedValue<T>[]): TimestampedValue<T>[] {
    return this.doEvictAfter ? this.evict(elements) : [...elements];
  }

  private evict(elements: readonly TimestampedValue<T>[]): TimestampedValue<T>[] {
    const last = elements[elements.length - 1];
    if (last === undefined) return [];
    return elements.filter((e) => this.delta(e.value, last.value) < this.threshold);
  }
}
