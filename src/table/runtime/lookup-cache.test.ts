import { describe, expect, it } from "vitest";
import { ManualClock } from "../../util/clock.ts";
import { LookupCache, type LookupCacheOptions } from "./lookup-cache.ts";

function cacheOf(options: Partial<LookupCacheOptions>): { cache: LookupCache<string>; clock: ManualClock } {
  const clock = new ManualClock(1_000);
  return { cache: new LookupCache<string>({ cacheMissingKey: true, ...options }, () => clock.now()), clock };
}

describe("LookupCache", () => {
  it("keeps at most max-rows keys, dropping the least recently used", () => {
    const { cache } = cacheOf({ maxRows: 2 });
    cache.put("a", ["A"]);
    cache.put("b", ["B"]);
    expect(cache.get("a")).toEqual(["A"]); // a is now the most recently used
    cache.put("c", ["C"]);
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.size]).toEqual([["A"], undefined, ["C"], 2]);
  });

  it("expires a key a time after it was written, however often it is used", () => {
    const { cache, clock } = cacheOf({ expireAfterWriteMs: 100 });
    cache.put("a", ["A"]);
    clock.advance(99);
    expect(cache.get("a")).toEqual(["A"]);
    clock.advance(1);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("expires a key a time after it was last used", () => {
    const { cache, clock } = cacheOf({ expireAfterAccessMs: 100 });
    cache.put("a", ["A"]);
    for (let i = 0; i < 5; i++) {
      clock.advance(60);
      expect(cache.get("a")).toEqual(["A"]);
    }
    clock.advance(100);
    expect(cache.get("a")).toBeUndefined();
  });

  it("caches a missing key (no rows) only with cache-missing-key", () => {
    const kept = cacheOf({ maxRows: 10 }).cache;
    kept.put("x", []);
    expect(kept.get("x")).toEqual([]);
    const notKept = cacheOf({ maxRows: 10, cacheMissingKey: false }).cache;
    notKept.put("x", ["X"]);
    notKept.put("x", []); // a key that lost its rows is not served stale
    expect(notKept.get("x")).toBeUndefined();
  });
});
