/**
 * Windows: the finite buckets a keyed stream is grouped into. A
 * {@link TimeWindow} covers `[start, end)`; the {@link GlobalWindow} holds
 * everything. Every window has a string id (timer namespace and state key).
 */

/** A window: a bucket of records that a trigger fires. */
export interface Window {
  /** The largest timestamp that still belongs to the window. */
  maxTimestamp(): number;
  /** A stable string id, used as timer namespace and state key. */
  id(): string;
}

/**
 * A time interval `[start, end)` (Flink's TimeWindow).
 *
 * @example
 * ```ts
 * const w = new TimeWindow(0, 1000);
 * w.maxTimestamp(); // 999
 * ```
 */
export class TimeWindow implements Window {
  /** The id, built once (window state, triggers and timers ask for it many times per record). */
  private cachedId: string | undefined;

  constructor(
    readonly start: number,
    readonly end: number,
    id?: string,
  ) {
    this.cachedId = id;
  }

  /** `end - 1`: the last millisecond of the window. */
  maxTimestamp(): number {
    return this.end - 1;
  }

  id(): string {
    return (this.cachedId ??= `t${this.start},${this.end}`);
  }

  /** True if the two windows overlap or touch neither (Flink: `this.start <= other.end && this.end >= other.start`). */
  intersects(other: TimeWindow): boolean {
    return this.start <= other.end && this.end >= other.start;
  }

  /** The smallest window covering both. */
  cover(other: TimeWindow): TimeWindow {
    return new TimeWindow(Math.min(this.start, other.start), Math.max(this.end, other.end));
  }

  toString(): string {
    return `TimeWindow{start=${this.start}, end=${this.end}}`;
  }
}

/** The single window of {@link GlobalWindows}: it never ends by itself. */
export class GlobalWindow implements Window {
  private static readonly INSTANCE = new GlobalWindow();
  private constructor() {}

  /** The one global window. */
  static get(): GlobalWindow {
    return GlobalWindow.INSTANCE;
  }

  /** The largest safe integer: the global window's results carry it as their timestamp. */
  maxTimestamp(): number {
    return Number.MAX_SAFE_INTEGER;
  }

  id(): string {
    return "g";
  }

  toString(): string {
    return "GlobalWindow";
  }
}

/** The window with id `id` (the inverse of `Window.id()`). */
export function windowFromId(id: string): Window {
  if (id === "g") return GlobalWindow.get();
  const comma = id.indexOf(",");
  return new TimeWindow(Number(id.slice(1, comma)), Number(id.slice(comma + 1)), id);
}

/**
 * Start of the window of `size` (shifted by `offset`) that contains `timestamp`
 * (Flink's `TimeWindow.getWindowStartWithOffset`).
 */
export function windowStartWithOffset(timestamp: number, offset: number, size: number): number {
  return timestamp - floorRemainder(timestamp - offset, size);
}

/** Whole numbers up to this size take the floor division of {@link floorRemainder} (its products stay exact). */
const EXACT = 2 ** 52;

/**
 * `x` modulo `size` in `[0, size)` (for a positive `size`; a zero is +0). Whole numbers up to 2^52 take a floor division
 * (a quotient off by one corrected): `%` of numbers that are not small integers, as epoch milliseconds
 * are not, is a call into C.
 *
 * @example
 * ```ts
 * floorRemainder(-1, 10); // 9
 * floorRemainder(1_767_225_600_123, 60_000); // 123
 * ```
 */
export function floorRemainder(x: number, size: number): number {
  let r: number;
  if (x === Math.floor(x) && Math.abs(x) <= EXACT) {
    r = x - Math.floor(x / size) * size;
    if (r >= size) r -= size;
  } else r = x % size;
  return r < 0 ? r + size : r + 0;
}
