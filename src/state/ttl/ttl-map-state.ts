/**
 * {@link MapState} under TTL: a decorator over a plain map state that stores
 * `[value, lastAccess]` per entry, so entries expire one by one (as in
 * Flink). A read that finds an expired entry removes it.
 */

import type { MapState } from "../state-handles.ts";
import type { TtlCleanable } from "./ttl-cleanable.ts";
import { isTtlValue, type TtlTime, type TtlValue } from "./ttl-value.ts";

/** A {@link MapState} whose entries expire (see `StateTtlConfig`). */
export class TtlMapState<K, V> implements MapState<K, V>, TtlCleanable {
  constructor(
    private readonly raw: MapState<K, TtlValue<V>>,
    private readonly time: TtlTime,
    private readonly accessed: () => void,
  ) {}

  /** The entry at `k` under the TTL rules, boxed (a stored value may be undefined). */
  private entry(k: K): [V] | undefined {
    this.accessed();
    const stored = this.raw.get(k);
    if (stored === undefined) return undefined;
    const now = this.time.now();
    if (this.time.isExpired(stored[1], now)) {
      this.raw.remove(k);
      return this.time.returnExpired ? [stored[0]] : undefined;
    }
    if (this.time.updateOnRead) this.raw.put(k, [stored[0], now]);
    return [stored[0]];
  }

  /** Every entry under the TTL rules (removing the expired ones, re-stamping read ones on `OnReadAndWrite`). */
  private visible(): [K, V][] {
    this.accessed();
    const now = this.time.now();
    const out: [K, V][] = [];
    const expired: K[] = [];
    const refreshed: [K, TtlValue<V>][] = [];
    for (const [k, [v, ts]] of [...this.raw.entries()]) {
      if (this.time.isExpired(ts, now)) {
        expired.push(k);
        if (this.time.returnExpired) out.push([k, v]);
      } else {
        out.push([k, v]);
        if (this.time.updateOnRead) refreshed.push([k, [v, now]]);
      }
    }
    for (const k of expired) this.raw.remove(k);
    if (refreshed.length > 0) this.raw.putAll(refreshed);
    return out;
  }

  get(k: K): V | undefined {
    return this.entry(k)?.[0];
  }
  put(k: K, v: V): void {
    this.accessed();
    this.raw.put(k, this.time.wrap(v));
  }
  putAll(entries: Iterable<[K, V]> | Map<K, V>): void {
    this.accessed();
    const now = this.time.now();
    const wrapped: [K, TtlValue<V>][] = [];
    for (const [k, v] of entries) wrapped.push([k, [v, now]]);
    this.raw.putAll(wrapped);
  }
  remove(k: K): void {
    this.accessed();
    this.raw.remove(k);
  }
  contains(k: K): boolean {
    return this.entry(k) !== undefined;
  }
  entries(): IterableIterator<[K, V]> {
    return this.visible().values();
  }
  keys(): IterableIterator<K> {
    return this.visible().map(([k]) => k).values();
  }
  values(): IterableIterator<V> {
    return this.visible().map(([, v]) => v).values();
  }
  isEmpty(): boolean {
    return this.visible().length === 0;
  }
  clear(): void {
    this.accessed();
    this.raw.clear();
  }
  hasExpired(stored: unknown, now: number): boolean {
    if (!(stored instanceof Map)) return false;
    for (const e of stored.values()) if (isTtlValue(e) && this.time.isExpired(e[1], now)) return true;
    return false;
  }
  cleanCurrentKey(now: number): void {
    const expired: K[] = [];
    for (const [k, [, ts]] of this.raw.entries()) if (this.time.isExpired(ts, now)) expired.push(k);
    for (const k of expired) this.raw.remove(k);
  }
}
