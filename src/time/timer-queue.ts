/** A binary min-heap of timers by timestamp (entries of deleted timers are skipped when popped). */

/** A timer in the queue. */
export interface Timer {
  readonly timestamp: number;
  readonly key: unknown;
  readonly namespace: string;
}

export class TimerHeap {
  private readonly heap: Timer[] = [];

  push(t: Timer): void {
    const h = this.heap;
    h.push(t);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p]!.timestamp <= t.timestamp) break;
      h[i] = h[p]!;
      i = p;
    }
    h[i] = t;
  }

  peek(): Timer | undefined {
    return this.heap[0];
  }

  pop(): Timer | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && h[r]!.timestamp < h[l]!.timestamp ? r : l;
        if (h[c]!.timestamp >= last.timestamp) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }

  /** Every queued entry, in no particular order. */
  items(): readonly Timer[] {
    return this.heap;
  }

  get size(): number {
    return this.heap.length;
  }
}
