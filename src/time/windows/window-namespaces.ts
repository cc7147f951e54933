/**
 * How a window operator names its windows in keyed state and timers (Flink's
 * state namespace). Windows of one fixed size (tumbling, sliding) are named by
 * their start, a number: no string is built or hashed per record, and the
 * operator keeps one window object per window. Other windows (sessions, the
 * global window, windows of user assigners) are named by `Window.id()`.
 */
import type { TimerNamespace } from "../timer-service.ts";
import { TimeWindow, windowFromId, type Window } from "./window.ts";

/** The name of a window in state and timers: a fixed-size window's start, or a window id. */
export type WindowNamespace = TimerNamespace;

/** Converts between windows and their names. */
export interface WindowNamespaces<W extends Window> {
  namespaceOf(window: W): WindowNamespace;
  /** The window named `namespace` (the inverse of `namespaceOf`). */
  windowOf(namespace: WindowNamespace): W;
}

/** Windows named by their id (any window kind). */
export const windowIds: WindowNamespaces<Window> = {
  namespaceOf: (window) => window.id(),
  windowOf: (namespace) => windowFromId(namespace as string),
};

/** Windows kept in the cache of {@link FixedSizeWindows} before it starts over. */
const CACHE_LIMIT = 1024;

/**
 * Time windows of one size, named by their start. `windowOf` hands out one
 * object per window (shared by every key), from a small cache.
 *
 * @example
 * ```ts
 * const windows = new FixedSizeWindows(10_000);
 * windows.windowOf(20_000); // TimeWindow [20 000, 30 000)
 * windows.windowOf(20_000) === windows.windowOf(20_000); // true
 * ```
 */
export class FixedSizeWindows implements WindowNamespaces<TimeWindow> {
  private readonly cache = new Map<number, TimeWindow>();
  /** The window handed out last: the timers of many keys for one window fire in a row. */
  private last: TimeWindow | undefined;

  constructor(readonly size: number) {}

  namespaceOf(window: TimeWindow): number {
    return window.start;
  }

  windowOf(start: WindowNamespace): TimeWindow {
    const s = start as number;
    if (this.last !== undefined && this.last.start === s) return this.last;
    let w = this.cache.get(s);
    if (w === undefined) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear(); // windows in use are few: those that ended are dropped with it
      w = new TimeWindow(s, s + this.size);
      this.cache.set(s, w);
    }
    this.last = w;
    return w;
  }
}
