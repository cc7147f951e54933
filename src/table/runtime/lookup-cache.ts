/**
 * The PARTIAL cache of a lookup join (Flink's `DefaultLookupCache`): the rows found for a key, kept per
 * parallel instance, at most `maxRows` keys (the least recently used goes first), each expiring a time after
 * it was looked up (`expireAfterWriteMs`) or last used (`expireAfterAccessMs`), on the clock it is given. With
 * `cacheMissingKey`, a key without rows is cached too (as no rows). Pure: no I/O, no timers.
 */

/** The settings of a PARTIAL lookup cache (`lookup.partial-cache.*`); at least one bound is set. */
export interface LookupCacheOptions {
  /** Keys kept at most. */
  readonly maxRows?: number;
  /** A key expires this many ms after its rows were put. */
  readonly expireAfterWriteMs?: number;
  /** A key expires this many ms after it was last put or found. */
  readonly expireAfterAccessMs?: number;
  /** Whether an empty result is kept. */
  readonly cacheMissingKey: boolean;
}

interface Entry<V> {
  readonly rows: readonly V[];
  readonly writtenAt: number;
  accessedAt: number;
}

/**
 * Rows by lookup key, bounded and expiring.
 *
 * @example
 * ```ts
 * const clock = new ManualClock(0);
 * const cache = new LookupCache<Row>({ maxRows: 1000, expireAfterWriteMs: 60_000, cacheMissingKey: true }, () => clock.now());
 * cache.put("EUR", [rate]);
 * cache.get("EUR"); // [rate]
 * clock.advance(60_000);
 * cache.get("EUR"); // undefined: look it up again
 * ```
 */
export class LookupCache<V> {
  /** In least recently used first order (a found key moves to the end). */
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly options: LookupCacheOptions,
    private readonly now: () => number,
  ) {}

  /** The cached rows of `key` (possibly none: a cached missing key), or undefined when not cached or expired. */
  get(key: string): readonly V[] | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    const now = this.now();
    if (this.expired(e, now)) {
      this.entries.delete(key);
      return undefined;
    }
    e.accessedAt = now;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.rows;
  }

  /** Keeps the rows found for `key` (not kept when there are none and missing keys are not cached). */
  put(key: string, rows: readonly V[]): void {
    this.entries.delete(key);
    if (rows.length === 0 && !this.options.cacheMissingKey) return;
    const now = this.now();
    this.entries.set(key, { rows, writtenAt: now, accessedAt: now });
    const max = this.options.maxRows;
    if (max === undefined || this.entries.size <= max) return;
    // The least recently used goes (with expire-after-access also the first to expire).
    this.entries.delete(this.entries.keys().next().value!);
  }

  /** Keys held (expired ones included until they are met). */
  get size(): number {
    return this.entries.size;
  }

  private expired(e: Entry<V>, now: number): boolean {
    const { expireAfterWriteMs: w, expireAfterAccessMs: a } = this.options;
    return (w !== undefined && now - e.writtenAt >= w) || (a !== undefined && now - e.accessedAt >= a);
  }
}
