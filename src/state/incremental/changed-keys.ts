/**
 * The keys of one keyed state written since the last snapshot of an
 * incremental chain: what the next delta snapshot must hold. A state map
 * records every write (`set`, `delete`, `getForUpdate`) here; the delta
 * snapshot takes the recorded keys and reads their current values (or their
 * absence) from the map.
 */

import type { StateKey } from "../state-key.ts";

/**
 * Changed keys per key-group index, with their hash codes.
 *
 * @example
 * ```ts
 * const changes = new ChangedKeys(128);
 * changes.record(5, "apple", hashCodeOfStateKey("apple"));
 * for (const [g, keys] of changes.take()) for (const [k, code] of keys) console.log(g, k, code);
 * ```
 */
export class ChangedKeys {
  private groups: (Map<StateKey, number> | undefined)[];
  private count = 0;
  /** False while the backend restores (restored entries are not changes). */
  recording = true;

  constructor(private readonly groupCount: number) {
    this.groups = new Array(groupCount).fill(undefined);
  }

  /** Notes that `k` (hash `code`) of group index `g` was written. */
  record(g: number, k: StateKey, code: number): void {
    if (!this.recording) return;
    let keys = this.groups[g];
    if (keys === undefined) keys = this.groups[g] = new Map();
    const before = keys.size;
    keys.set(k, code);
    this.count += keys.size - before;
  }

  /** Number of distinct keys recorded since the last `take`. */
  get size(): number {
    return this.count;
  }

  /** The recorded keys by group index (ascending), and forgets them. */
  take(): [g: number, keys: Map<StateKey, number>][] {
    const out: [number, Map<StateKey, number>][] = [];
    this.groups.forEach((keys, g) => {
      if (keys !== undefined && keys.size > 0) out.push([g, keys]);
    });
    this.groups = new Array(this.groupCount).fill(undefined);
    this.count = 0;
    return out;
  }
}
