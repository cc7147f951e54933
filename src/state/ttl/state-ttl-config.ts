/**
 * Flink's `StateTtlConfig`: how long keyed state lives after its last write
 * (or access), whether expired values may still be read, and how expired
 * values are cleaned up. Enabled per state with
 * `descriptor.enableTimeToLive(config)`. Time is the processing time of the
 * keyed state backend's clock (as in Flink, there is no event-time TTL).
 */

/**
 * When the last-access timestamp of a value is refreshed (Flink's `StateTtlConfig.UpdateType`).
 *
 * @example
 * ```ts
 * StateTtlConfig.newBuilder(60_000).setUpdateType(UpdateType.OnReadAndWrite).build();
 * ```
 */
export enum UpdateType {
  /** On creation and on every write (`update`, `add`, `put`); the default. */
  OnCreateAndWrite = "OnCreateAndWrite",
  /** As {@link UpdateType.OnCreateAndWrite}, and also on every read of an unexpired value. */
  OnReadAndWrite = "OnReadAndWrite",
}

/**
 * Whether an expired value that is still stored may be returned (Flink's `StateTtlConfig.StateVisibility`).
 *
 * @example
 * ```ts
 * StateTtlConfig.newBuilder(60_000).setStateVisibility(StateVisibility.ReturnExpiredIfNotCleanedUp).build();
 * ```
 */
export enum StateVisibility {
  /** Expired values are never returned; the default. */
  NeverReturnExpired = "NeverReturnExpired",
  /** An expired value is returned by the read that finds it (which also removes it). */
  ReturnExpiredIfNotCleanedUp = "ReturnExpiredIfNotCleanedUp",
}

/** Incremental cleanup settings (Flink's `IncrementalCleanupStrategy`). */
export interface IncrementalCleanup {
  /** Stored entries (keys of the state) checked for expiry per state access. */
  readonly cleanupSize: number;
  /** Also check `cleanupSize` entries whenever the backend's current key is set (once per record). */
  readonly runCleanupForEveryRecord: boolean;
}

const DEFAULT_INCREMENTAL_CLEANUP: IncrementalCleanup = { cleanupSize: 5, runCleanupForEveryRecord: false };

/**
 * Time-to-live settings of a keyed state. Build one with
 * {@link StateTtlConfig.newBuilder}; immutable.
 *
 * Expired values are always removed when a read finds them ("cleanup on
 * read"); {@link StateTtlConfigBuilder.cleanupFullSnapshot} also leaves them
 * out of checkpoints and savepoints, and
 * {@link StateTtlConfigBuilder.cleanupIncrementally} checks a few stored
 * entries at each state access.
 *
 * @example
 * ```ts
 * import { StateTtlConfig, StateVisibility, UpdateType, ValueStateDescriptor } from "weirjs";
 *
 * const ttl = StateTtlConfig.newBuilder(60_000)
 *   .setUpdateType(UpdateType.OnReadAndWrite)
 *   .setStateVisibility(StateVisibility.NeverReturnExpired)
 *   .cleanupFullSnapshot()
 *   .cleanupIncrementally(10, false)
 *   .build();
 * const lastSeen = new ValueStateDescriptor<number>("last-seen").enableTimeToLive(ttl);
 * ```
 */
export class StateTtlConfig {
  /** @internal Use {@link StateTtlConfig.newBuilder}. */
  constructor(
    /** Time to live in milliseconds after the last refresh of a value's timestamp. */
    readonly ttlMs: number,
    readonly updateType: UpdateType,
    readonly stateVisibility: StateVisibility,
    /** Expired values are left out of full snapshots (checkpoints and savepoints). */
    readonly cleanupInFullSnapshot: boolean,
    /** Incremental cleanup, or undefined when disabled. */
    readonly incrementalCleanup: IncrementalCleanup | undefined,
  ) {}

  /**
   * A builder for a TTL of `ttlMs` milliseconds (a positive integer).
   *
   * @example
   * ```ts
   * const ttl = StateTtlConfig.newBuilder(24 * 3600_000).build();   // one day, Flink's defaults
   * ```
   */
  static newBuilder(ttlMs: number): StateTtlConfigBuilder {
    return new StateTtlConfigBuilder(ttlMs);
  }

  /** One line, e.g. `TTL 60000 ms, OnCreateAndWrite, NeverReturnExpired`, for messages. */
  toString(): string {
    const cleanup = [
      this.cleanupInFullSnapshot ? "cleanup in full snapshot" : "",
      this.incrementalCleanup
        ? `incremental cleanup of ${this.incrementalCleanup.cleanupSize}${this.incrementalCleanup.runCleanupForEveryRecord ? " per access and record" : " per access"}`
        : "",
    ].filter((s) => s !== "");
    return [`TTL ${this.ttlMs} ms`, this.updateType, this.stateVisibility, ...cleanup].join(", ");
  }
}

/**
 * Builds a {@link StateTtlConfig} (Flink's `StateTtlConfig.Builder`).
 *
 * @example
 * ```ts
 * const ttl = StateTtlConfig.newBuilder(1000).setUpdateType(UpdateType.OnReadAndWrite).build();
 * ```
 */
export class StateTtlConfigBuilder {
  private ttlMs: number;
  private updateType = UpdateType.OnCreateAndWrite;
  private stateVisibility = StateVisibility.NeverReturnExpired;
  private fullSnapshot = false;
  private incremental: IncrementalCleanup | undefined = undefined;
  private background = true;

  constructor(ttlMs: number) {
    this.ttlMs = checkTtl(ttlMs);
  }

  /** Sets the time to live in milliseconds. */
  setTtl(ttlMs: number): this {
    this.ttlMs = checkTtl(ttlMs);
    return this;
  }

  /** When the timestamp is refreshed (default {@link UpdateType.OnCreateAndWrite}). */
  setUpdateType(updateType: UpdateType): this {
    this.updateType = checkEnum("setUpdateType", UpdateType, updateType);
    return this;
  }

  /** Shorthand for `setUpdateType(UpdateType.OnCreateAndWrite)`. */
  updateTtlOnCreateAndWrite(): this {
    return this.setUpdateType(UpdateType.OnCreateAndWrite);
  }

  /** Shorthand for `setUpdateType(UpdateType.OnReadAndWrite)`. */
  updateTtlOnReadAndWrite(): this {
    return this.setUpdateType(UpdateType.OnReadAndWrite);
  }

  /** Whether expired values may be returned (default {@link StateVisibility.NeverReturnExpired}). */
  setStateVisibility(visibility: StateVisibility): this {
    this.stateVisibility = checkEnum("setStateVisibility", StateVisibility, visibility);
    return this;
  }

  /** Shorthand for `setStateVisibility(StateVisibility.NeverReturnExpired)`. */
  neverReturnExpired(): this {
    return this.setStateVisibility(StateVisibility.NeverReturnExpired);
  }

  /** Shorthand for `setStateVisibility(StateVisibility.ReturnExpiredIfNotCleanedUp)`. */
  returnExpiredIfNotCleanedUp(): this {
    return this.setStateVisibility(StateVisibility.ReturnExpiredIfNotCleanedUp);
  }

  /** Leaves expired values out of full snapshots (they are also not restored). */
  cleanupFullSnapshot(): this {
    this.fullSnapshot = true;
    return this;
  }

  /**
   * Checks `cleanupSize` stored entries for expiry at each access of the
   * state (and, with `runCleanupForEveryRecord`, each time the current key
   * is set, i.e. per record), removing the expired ones. Flink's defaults are
   * 5 and false.
   */
  cleanupIncrementally(
    cleanupSize = DEFAULT_INCREMENTAL_CLEANUP.cleanupSize,
    runCleanupForEveryRecord = DEFAULT_INCREMENTAL_CLEANUP.runCleanupForEveryRecord,
  ): this {
    if (!Number.isInteger(cleanupSize) || cleanupSize <= 0) {
      throw new RangeError(`cleanupIncrementally: cleanupSize must be a positive integer, got ${String(cleanupSize)}`);
    }
    if (typeof runCleanupForEveryRecord !== "boolean") {
      throw new TypeError(`cleanupIncrementally: runCleanupForEveryRecord must be a boolean, got ${String(runCleanupForEveryRecord)}`);
    }
    this.incremental = { cleanupSize, runCleanupForEveryRecord };
    return this;
  }

  /**
   * Turns off the default background cleanup: without an explicit
   * {@link cleanupIncrementally}, expired values are then removed only when
   * read (or, with {@link cleanupFullSnapshot}, on restore).
   */
  disableCleanupInBackground(): this {
    this.background = false;
    return this;
  }

  /**
   * The config. As in Flink, background cleanup is on by default: without an
   * explicit {@link cleanupIncrementally} (and unless
   * {@link disableCleanupInBackground} was called) it is incremental cleanup
   * of 5 entries per access.
   */
  build(): StateTtlConfig {
    const incremental = this.incremental ?? (this.background ? DEFAULT_INCREMENTAL_CLEANUP : undefined);
    return new StateTtlConfig(this.ttlMs, this.updateType, this.stateVisibility, this.fullSnapshot, incremental);
  }
}

function checkTtl(ttlMs: number): number {
  if (typeof ttlMs !== "number" || !Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`StateTtlConfig: the time to live must be a positive integer number of milliseconds, got ${String(ttlMs)}`);
  }
  return ttlMs;
}

function checkEnum<E extends string>(method: string, values: Record<string, E>, value: E): E {
  const valid = Object.values(values);
  if (!valid.includes(value)) {
    throw new TypeError(`${method}: got ${JSON.stringify(value)}; valid values are ${valid.join(", ")}`);
  }
  return value;
}

/**
 * How the TTL settings of two registrations of one state differ, as the end
 * of "registered with …"; undefined if they are the same.
 *
 * @example
 * ```ts
 * ttlConfigDifference(undefined, StateTtlConfig.newBuilder(1000).disableCleanupInBackground().build());
 * // 'no TTL and again with TTL 1000 ms, OnCreateAndWrite, NeverReturnExpired'
 * ```
 */
export function ttlConfigDifference(a: StateTtlConfig | undefined, b: StateTtlConfig | undefined): string | undefined {
  const [sa, sb] = [a?.toString() ?? "no TTL", b?.toString() ?? "no TTL"];
  return sa === sb ? undefined : `${sa} and again with ${sb}`;
}
