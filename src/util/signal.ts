/**
 * A reusable wake-up: `wait()` returns a promise that the next `notify()`
 * resolves. A `notify()` with nobody waiting is remembered and resolves the
 * next `wait()` at once, so a wake-up that races with going to sleep is never
 * lost. Waiters must re-check their condition (a wake-up may be stale).
 */
export class Signal {
  private pending: { promise: Promise<void>; resolve: () => void } | null = null;
  private notified = false;

  /** A promise resolved by the next `notify()` (or at once if one came since the last wait). */
  wait(): Promise<void> {
    if (this.notified) {
      this.notified = false;
      return Promise.resolve();
    }
    if (!this.pending) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.pending = { promise, resolve };
    }
    return this.pending.promise;
  }

  /** Wakes every current waiter, or the next one if none waits. */
  notify(): void {
    const p = this.pending;
    if (p) {
      this.pending = null;
      p.resolve();
    } else this.notified = true;
  }
}
