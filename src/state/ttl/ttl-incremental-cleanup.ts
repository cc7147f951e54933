/**
 * Incremental TTL cleanup (Flink's `cleanupIncrementally`): a cursor over the
 * keys of one state that, at each trigger, checks the next few stored values
 * and removes what has expired, wrapping around at the end. Also the one-off
 * sweep of all keys after a restore (`cleanupFullSnapshot`).
 *
 * Both switch the backend's current key to each key with expired content and
 * back, so they only run while a current key is set (during a state access
 * or a record), never re-entrantly.
 */

import type { TtlCleanable } from "./ttl-cleanable.ts";
import type { TtlTime } from "./ttl-value.ts";

/** What TTL cleanup needs from a keyed state backend (the heap backend offers all of it). */
export interface TtlKeyedBackend {
  /** The key set by the last `setCurrentKey`, or undefined when none is set. */
  getCurrentKey(): unknown;
  setCurrentKey(key: unknown): void;
  /** Every key that has state `name`, with the state's stored value. */
  entriesOf(name: string): IterableIterator<[key: unknown, value: unknown]>;
}

/** The cleanup of one TTL state: incremental steps and the sweep after restore. */
export class TtlCleanup {
  /** Backends some cleanup is switching keys of (a cleanup's key switches trigger no other cleanup). */
  private static readonly busy = new WeakSet<TtlKeyedBackend>();
  private cursor: Iterator<[unknown, unknown]> | undefined = undefined;

  constructor(
    private readonly backend: TtlKeyedBackend,
    private readonly name: string,
    private readonly time: TtlTime,
    private readonly state: TtlCleanable,
  ) {}

  /**
   * Checks up to `size` stored values from where the last step stopped (all
   * of them when `size` is Infinity, from the start), removing expired ones.
   * Returns false when it could not run (no current key, or another cleanup
   * of the backend is running).
   */
  step(size: number): boolean {
    const current = this.backend.getCurrentKey();
    if (current === undefined || TtlCleanup.busy.has(this.backend)) return false;
    TtlCleanup.busy.add(this.backend);
    const now = this.time.now();
    try {
      let wrapped = false;
      for (let checked = 0; checked < size; checked++) {
        this.cursor ??= this.backend.entriesOf(this.name);
        const next = this.cursor.next();
        if (next.done) {
          this.cursor = undefined;
          if (wrapped || size === Infinity) break;
          wrapped = true;
          checked--;
          continue;
        }
        const [key, stored] = next.value;
        if (!this.state.hasExpired(stored, now)) continue;
        this.backend.setCurrentKey(key);
        this.state.cleanCurrentKey(now);
      }
    } finally {
      this.backend.setCurrentKey(current);
      TtlCleanup.busy.delete(this.backend);
    }
    return true;
  }

  /** Checks every stored value (the sweep after a restore), restarting the incremental cursor. */
  sweep(): boolean {
    this.cursor = undefined;
    return this.step(Infinity);
  }
}
