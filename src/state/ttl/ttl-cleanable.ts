/**
 * What the TTL cleanups (incremental, and on restore) need from a TTL state:
 * a cheap check of a stored value read without switching keys, and the
 * removal of what has expired at the backend's current key.
 */
export interface TtlCleanable {
  /** Whether `stored` (a value of the state as the backend holds it) holds anything expired at `now`. */
  hasExpired(stored: unknown, now: number): boolean;
  /** Removes what has expired at `now` at the backend's current key (reads afresh: `stored` may be stale). */
  cleanCurrentKey(now: number): void;
}
