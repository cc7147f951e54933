/**
 * The write-back cache's eviction while a checkpoint's flush is in flight
 * (write-back-cache.ts): only entries whose value is in the store go, a
 * frozen entry as soon as its generation's flush wrote it, and nothing is
 * written meanwhile.
 */
import { describe, expect, it } from "vitest";
import type { StateKey } from "../state-key.ts";
import { type CacheEntry, WriteBackCache } from "./write-back-cache.ts";

const index = new Map<StateKey, CacheEntry>();
const entry = (key: number, dirty: boolean): CacheEntry => ({ index, stateId: 1, keyGroup: 0, key, value: key, dirty, hot: false, shared: false, unwritten: 0 });

describe("WriteBackCache.evictWritten", () => {
  it("evicts clean entries and frozen ones whose slice was written, never dirty or unwritten ones, and writes nothing", () => {
    index.clear();
    const writes: CacheEntry[][] = [];
    const cache = new WriteBackCache(80, (entries) => writes.push([...entries]));
    for (let k = 0; k < 64; k++) cache.add(entry(k, true));
    const frozen = cache.freeze(); // keys 0..63: unwritten
    expect(frozen.generation).toBe(1);
    for (let k = 64; k < 80; k++) cache.add(entry(k, true)); // dirty after the barrier
    for (let k = 80; k < 90; k++) cache.add(entry(k, false)); // read: in the store
    cache.evictWritten();
    expect([...index.keys()].filter((k) => (k as number) >= 80)).toEqual([]); // the read ones went
    expect(cache.size).toBe(80);
    for (let k = 90; k < 95; k++) cache.add(entry(k, false));
    cache.evictWritten(); // fell short before and has not grown by an eighth since: does nothing
    expect(cache.size).toBe(85);
    cache.written(frozen, 0, 32); // the first slice is in the store
    cache.evictWritten();
    expect(cache.size).toBe(70); // down to capacity minus an eighth
    for (let k = 0; k < 64; k++) expect(index.has(k), `key ${k}`).toBe(k >= 15); // the oldest written ones went first
    for (let k = 64; k < 80; k++) expect(index.get(k)?.dirty, `key ${k}`).toBe(true);
    expect(writes).toEqual([]);
  });

  it("keeps an entry frozen again by a newer generation when the older one is written", () => {
    index.clear();
    const cache = new WriteBackCache(2, () => {});
    const a = entry(1, true);
    cache.add(a);
    const first = cache.freeze();
    cache.markDirty(a);
    const second = cache.freeze();
    cache.written(first, 0, 1);
    expect(a.unwritten).toBe(second.generation);
    cache.written(second, 0, 1);
    expect(a.unwritten).toBe(0);
  });
});
