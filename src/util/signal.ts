/**
 * A reusable wake-up: `wait()` returns a promise that the next `notify()`
 * resolves. Used by mailbox loops and channels to sleep without polling.
 */
export class Signal {
  private pending: { promise: Promise<void>; resolve: () => void } | null = null;

  /** A promise resolved by the next `notify()`. */
  wait(): Promise<void> {
    if (!this.pending) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.pending = { promise, resolve };
    }
    return this.pending.promise;
  }

  /** Wakes every current waiter. Cheap when nobody waits. */
  notify(): void {
    const p = this.pending;
    if (p) {
      this.pending = null;
      p.resolve();
    }
  }
}
