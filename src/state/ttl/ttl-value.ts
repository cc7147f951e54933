/**
 * The stored form of a value under TTL, and the time rules every TTL state
 * shares. A TTL state stores `[value, lastAccess]` (plain data, so snapshots
 * encode it like any value): per key for value, reducing and aggregating
 * state, per element for list state, per entry for map state. User code
 * never sees the pair.
 */

import type { Clock } from "../../util/clock.ts";
import { StateVisibility, type StateTtlConfig, UpdateType } from "./state-ttl-config.ts";

/** A value with the processing time (ms) of its last timestamp refresh. */
export type TtlValue<T> = [value: T, lastAccess: number];

/** Whether `v` has the shape of a {@link TtlValue} (a stored value of a TTL state). */
export function isTtlValue(v: unknown): v is TtlValue<unknown> {
  return Array.isArray(v) && v.length === 2 && typeof v[1] === "number";
}

/** The TTL rules of one state: its config and the clock. */
export class TtlTime {
  /** Refresh the timestamp when an unexpired value is read. */
  readonly updateOnRead: boolean;
  /** Return an expired value found by a read (which removes it). */
  readonly returnExpired: boolean;

  constructor(
    readonly config: StateTtlConfig,
    private readonly clock: Clock,
  ) {
    this.updateOnRead = config.updateType === UpdateType.OnReadAndWrite;
    this.returnExpired = config.stateVisibility === StateVisibility.ReturnExpiredIfNotCleanedUp;
  }

  now(): number {
    return this.clock.now();
  }

  /** `v` with the current time. */
  wrap<T>(v: T): TtlValue<T> {
    return [v, this.clock.now()];
  }

  /** Whether a value stamped `lastAccess` has expired at `now` (Flink: `lastAccess + ttl <= now`). */
  isExpired(lastAccess: number, now = this.clock.now()): boolean {
    return lastAccess + this.config.ttlMs <= now;
  }
}
