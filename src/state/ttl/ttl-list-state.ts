/**
 * {@link ListState} under TTL: a decorator over a plain list state that
 * stores `[element, lastAccess]` per element, so elements expire one by one
 * (as in Flink). A read removes the expired elements from state.
 */

import type { ListState } from "../state-handles.ts";
import type { TtlCleanable } from "./ttl-cleanable.ts";
import { isTtlValue, type TtlTime, type TtlValue } from "./ttl-value.ts";

/** A {@link ListState} whose elements expire (see `StateTtlConfig`). */
export class TtlListState<T> implements ListState<T>, TtlCleanable {
  constructor(
    private readonly raw: ListState<TtlValue<T>>,
    private readonly time: TtlTime,
    private readonly accessed: () => void,
  ) {}
  get(): T[] {
    this.accessed();
    const stored = this.raw.get();
    if (stored.length === 0) return [];
    const now = this.time.now();
    const out: T[] = [];
    const live: TtlValue<T>[] = [];
    for (const [v, ts] of stored) {
      if (this.time.isExpired(ts, now)) {
        if (this.time.returnExpired) out.push(v);
      } else {
        out.push(v);
        live.push(this.time.updateOnRead ? [v, now] : [v, ts]);
      }
    }
    if (live.length !== stored.length || this.time.updateOnRead) this.raw.update(live);
    return out;
  }
  add(v: T): void {
    this.accessed();
    this.raw.add(this.time.wrap(v));
  }
  addAll(vs: T[]): void {
    this.accessed();
    const now = this.time.now();
    this.raw.addAll(vs.map((v): TtlValue<T> => [v, now]));
  }
  update(vs: T[]): void {
    this.accessed();
    const now = this.time.now();
    this.raw.update(vs.map((v): TtlValue<T> => [v, now]));
  }
  clear(): void {
    this.accessed();
    this.raw.clear();
  }
  hasExpired(stored: unknown, now: number): boolean {
    return Array.isArray(stored) && stored.some((e) => isTtlValue(e) && this.time.isExpired(e[1], now));
  }
  cleanCurrentKey(now: number): void {
    const stored = this.raw.get();
    const live = stored.filter(([, ts]) => !this.time.isExpired(ts, now));
    if (live.length !== stored.length) this.raw.update(live);
  }
}
