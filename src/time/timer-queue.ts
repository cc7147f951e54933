/**
 * The in-memory queue of a timer service: timers grouped by timestamp, the
 * distinct timestamps in a binary min-heap. Timers often share a timestamp
 * (the windows of many keys end together): such a group costs one heap entry,
 * and its timers are kept in two parallel arrays (no object per timer).
 * Timers deleted from the service's state stay queued and are skipped when due.
 */

/** What a timer belongs to besides its key: a window (its start, or its id), a join side, or "" for none. */
export type TimerNamespace = string | number;

/** The timers of one timestamp, in registration order. */
export interface TimerGroup {
  readonly keys: unknown[];
  readonly namespaces: TimerNamespace[];
}

/**
 * @example
 * ```ts
 * const q = new TimerQueue();
 * q.push(20, "a", 0);
 * q.push(10, "b", 0);
 * q.push(20, "c", 0);
 * q.nextTimestamp(); // 10
 * q.pop().keys;      // ["b"]
 * q.pop().keys;      // ["a", "c"]
 * ```
 */
export class TimerQueue {
  private readonly heap: number[] = [];
  private readonly groups = new Map<number, TimerGroup>();

  push(timestamp: number, key: unknown, namespace: TimerNamespace): void {
    let group = this.groups.get(timestamp);
    if (group === undefined) {
      group = { keys: [], namespaces: [] };
      this.groups.set(timestamp, group);
      this.siftUp(timestamp);
    }
    group.keys.push(key);
    group.namespaces.push(namespace);
  }

  /** The earliest timestamp queued, or undefined. */
  nextTimestamp(): number | undefined {
    return this.heap[0];
  }

  /** Removes the timers of the earliest timestamp and returns them (call only when `nextTimestamp()` is defined). */
  pop(): TimerGroup {
    const h = this.heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && h[r]! < h[l]! ? r : l;
        if (h[c]! >= last) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    const group = this.groups.get(top)!;
    this.groups.delete(top);
    return group;
  }

  private siftUp(timestamp: number): void {
    const h = this.heap;
    h.push(timestamp);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p]! <= timestamp) break;
      h[i] = h[p]!;
      i = p;
    }
    h[i] = timestamp;
  }
}
