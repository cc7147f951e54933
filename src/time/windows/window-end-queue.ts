/**
 * The windows of a window operator waiting for the watermark to reach their
 * end, when a window's only timer is its end (the built-in event-time trigger
 * without allowed lateness): the keys of the windows grouped by end. Windows of
 * one size end on few distinct timestamps (one per slide in flight), so the
 * groups are kept in an array sorted by end, and a map from end to group finds
 * the group of a window whose end is queued already (most windows: a key's
 * window joins the keys before it), without a scan of the later ends (a sliding
 * window's rows queue ends across every slide in flight: with a hundred slides
 * between two watermarks, a scan from the back took about 70 steps per window).
 * A new end is placed by a scan from the back (new ends are mostly the latest);
 * firing a window end takes its group at once.
 */

/** The keys whose window ends at `end`, in the order their windows were created. */
export interface WindowEndGroup {
  readonly end: number;
  readonly keys: unknown[];
}

/**
 * @example
 * ```ts
 * const q = new WindowEndQueue();
 * q.push(1999, "a");
 * q.push(999, "b");
 * q.push(1999, "c");
 * q.nextEnd();    // 999
 * q.pop().keys;   // ["b"]
 * q.pop().keys;   // ["a", "c"]
 * ```
 */
export class WindowEndQueue {
  private readonly groups: (WindowEndGroup | undefined)[] = [];
  /** The queued groups by end. */
  private readonly byEnd = new Map<number, WindowEndGroup>();
  /** Index of the earliest group still queued (popped groups before it are cleared). */
  private head = 0;

  /** Queues `key`'s window ending at `end`. */
  push(end: number, key: unknown): void {
    const queued = this.byEnd.get(end);
    if (queued !== undefined) {
      queued.keys.push(key);
      return;
    }
    const group: WindowEndGroup = { end, keys: [key] };
    this.byEnd.set(end, group);
    const groups = this.groups;
    let at = groups.length;
    while (at > this.head && groups[at - 1]!.end > end) at--;
    if (at === groups.length) groups.push(group);
    else groups.splice(at, 0, group);
  }

  /** The earliest end queued, or undefined. */
  nextEnd(): number | undefined {
    return this.groups[this.head]?.end;
  }

  /** Removes and returns the earliest group (the queue must not be empty). */
  pop(): WindowEndGroup {
    const group = this.groups[this.head]!;
    this.groups[this.head++] = undefined;
    this.byEnd.delete(group.end);
    if (this.head === this.groups.length) {
      this.groups.length = 0;
      this.head = 0;
    } else if (this.head >= 64 && this.head * 2 >= this.groups.length) {
      this.groups.splice(0, this.head);
      this.head = 0;
    }
    return group;
  }
}
