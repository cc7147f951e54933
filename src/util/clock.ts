/**
 * Time as the engine sees it. Everything whose behaviour depends on time
 * (checkpoint intervals, timeouts, restart delays, processing-time timers)
 * takes a `Clock`, so tests can drive time by hand.
 *
 * @example
 * ```ts
 * const clock = new ManualClock(0);
 * clock.setTimeout(() => console.log("fired"), 100);
 * clock.advance(100); // prints "fired"
 * ```
 */
export interface Clock {
  /** Milliseconds since the epoch (or since an arbitrary origin for a manual clock). */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds; returns a handle that cancels it. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
}

/** A scheduled callback that can be cancelled. */
export interface TimerHandle {
  cancel(): void;
}

/** The wall clock, backed by `Date.now()` and the Node.js timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    return { cancel: () => clearTimeout(t) };
  },
};

/** A clock that moves only when `advance` or `set` is called; timers fire in time order. */
export class ManualClock implements Clock {
  private time: number;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.seq++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), fn });
    return { cancel: () => void this.timers.delete(id) };
  }

  /** Moves time forward by `ms`, firing every timer that falls due, in order. */
  advance(ms: number): void {
    this.set(this.time + ms);
  }

  /** Moves time to `t`, firing every timer that falls due, in order. */
  set(t: number): void {
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.timers) if (e[1].at <= t && (!next || e[1].at < next[1].at)) next = e;
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = Math.max(this.time, next[1].at);
      next[1].fn();
    }
    this.time = Math.max(this.time, t);
  }

  /** Number of timers not yet fired or cancelled. */
  pendingTimers(): number {
    return this.timers.size;
  }
}
