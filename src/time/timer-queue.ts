/**
 * The in-memory queue of a timer service: a binary min-heap by timestamp kept
 * in three parallel arrays (timestamps, keys, namespaces): no object per
 * timer, and the timestamps it compares lie next to each other in memory.
 * Timers deleted from the service's state stay queued and are skipped when due.
 */

/** What a timer belongs to besides its key: a window (its start, or its id), a join side, or "" for none. */
export type TimerNamespace = string | number;

/**
 * @example
 * ```ts
 * const q = new TimerQueue();
 * q.push(20, "a", 0);
 * q.push(10, "b", 0);
 * q.nextTimestamp(); // 10
 * q.pop();           // removes it; then q.key === "b", q.namespace === 0
 * ```
 */
export class TimerQueue {
  private readonly timestamps: number[] = [];
  private readonly keys: unknown[] = [];
  private readonly namespaces: TimerNamespace[] = [];
  /** The key and namespace of the timer the last `pop` removed. */
  key: unknown;
  namespace: TimerNamespace = "";

  push(timestamp: number, key: unknown, namespace: TimerNamespace): void {
    const ts = this.timestamps;
    const keys = this.keys;
    const nss = this.namespaces;
    let i = ts.length;
    ts.push(timestamp);
    keys.push(key);
    nss.push(namespace);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (ts[p]! <= timestamp) break;
      ts[i] = ts[p]!;
      keys[i] = keys[p];
      nss[i] = nss[p]!;
      i = p;
    }
    ts[i] = timestamp;
    keys[i] = key;
    nss[i] = namespace;
  }

  /** The earliest timestamp queued, or undefined. */
  nextTimestamp(): number | undefined {
    return this.timestamps[0];
  }

  /** Removes the earliest timer (the queue must not be empty) and returns its timestamp; its key and namespace are then in `key` and `namespace`. */
  pop(): number {
    const ts = this.timestamps;
    const keys = this.keys;
    const nss = this.namespaces;
    const top = ts[0]!;
    this.key = keys[0];
    this.namespace = nss[0]!;
    const last = ts.pop()!;
    const lastKey = keys.pop();
    const lastNs = nss.pop()!;
    const n = ts.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && ts[r]! < ts[l]! ? r : l;
        if (ts[c]! >= last) break;
        ts[i] = ts[c]!;
        keys[i] = keys[c];
        nss[i] = nss[c]!;
        i = c;
      }
      ts[i] = last;
      keys[i] = lastKey;
      nss[i] = lastNs;
    }
    return top;
  }
}
