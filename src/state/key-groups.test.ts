import { describe, expect, it } from "vitest";
import { canonicalKey } from "./canonical-key.ts";
import {
  DEFAULT_MAX_PARALLELISM,
  keyGroupOf,
  keyGroupOfStateKey,
  keyGroupRangeForSubtask,
  subtaskForKeyGroup,
} from "./key-groups.ts";
import { flinkMurmurHash, murmur3String } from "./murmur-hash.ts";
import { stateKeyOf } from "./state-key.ts";

describe("keyGroupOf", () => {
  it("gives stable, pinned key groups (a change of hash is caught here)", () => {
    const kg = (k: unknown, max = 128): number => keyGroupOf(k, max);
    expect(kg("apple")).toBe(100);
    expect(kg("banana")).toBe(23);
    expect(kg("")).toBe(94);
    expect(kg(42n)).toBe(43);
    expect(kg(true)).toBe(47);
    expect(kg(["a", 1])).toBe(10);
    expect(kg("apple", 32768)).toBe(16868);
    expect(kg(["a", 1], 32768)).toBe(19978);
    expect(kg(1)).toBe(86);
    expect(kg(42)).toBe(29);
    expect(kg(-1)).toBe(80);
    expect(kg(2 ** 31)).toBe(28);
    expect(kg(1.5)).toBe(65);
    expect(kg(1e300)).toBe(111);
    expect(kg(1, 32768)).toBe(16342);
  });

  it("hashes strings, bigints, booleans and arrays over their canonical string", () => {
    for (const key of ["word", "", "\u0000escaped", "héllo ✓", 42n, false, ["a", [1, 2n]], [1.5]]) {
      expect(keyGroupOf(key, 128)).toBe(flinkMurmurHash(murmur3String(canonicalKey(key)) | 0) % 128);
    }
  });

  it("hashes an int32 number as Flink hashes an Integer key (murmurHash(value) % maxParallelism)", () => {
    for (const n of [0, 1, -1, 7, 2 ** 31 - 1, -(2 ** 31)]) expect(keyGroupOf(n, 128)).toBe(flinkMurmurHash(n) % 128);
    expect(keyGroupOf(-0, 128)).toBe(keyGroupOf(0, 128));
  });

  it("is the key group of the key's state key, for every kind of key", () => {
    for (const key of [5, -0, 2 ** 53, 0.1, "k", "\u0000k", 9n, true, [1, "a"]]) {
      expect(keyGroupOfStateKey(stateKeyOf(key), 128)).toBe(keyGroupOf(key, 128));
    }
  });

  it("refuses what is not a key", () => {
    expect(() => keyGroupOf(NaN, 128)).toThrow(/the number NaN/);
    expect(() => keyGroupOf({ id: 1 }, 128)).toThrow(/a plain object/);
  });

  it("spreads keys nearly uniformly over the key groups", () => {
    const counts = new Array<number>(DEFAULT_MAX_PARALLELISM).fill(0);
    const n = 128_000;
    for (let i = 0; i < n; i++) counts[keyGroupOf(`user-${i}`, DEFAULT_MAX_PARALLELISM)]!++;
    const expected = n / DEFAULT_MAX_PARALLELISM; // 1000
    for (const c of counts) {
      expect(c).toBeGreaterThan(expected * 0.85);
      expect(c).toBeLessThan(expected * 1.15);
    }
    const numeric = new Array<number>(DEFAULT_MAX_PARALLELISM).fill(0);
    for (let i = 0; i < n; i++) numeric[keyGroupOf(i, DEFAULT_MAX_PARALLELISM)]!++;
    for (const c of numeric) {
      expect(c).toBeGreaterThan(expected * 0.85);
      expect(c).toBeLessThan(expected * 1.15);
    }
    const floats = new Set<number>();
    for (let i = 0; i < 2000; i++) floats.add(keyGroupOf(i + 0.5, 128));
    expect(floats.size).toBe(128);
  });
});

describe("key-group ranges", () => {
  for (const parallelism of [1, 2, 3, 7, 128]) {
    it(`cover 0..127 exactly once for parallelism ${parallelism} and agree with subtaskForKeyGroup`, () => {
      const owner = new Array<number>(128).fill(-1);
      let previousEnd = -1;
      for (let s = 0; s < parallelism; s++) {
        const [start, end] = keyGroupRangeForSubtask(128, parallelism, s);
        expect(start).toBe(previousEnd + 1);
        expect(end).toBeGreaterThanOrEqual(start);
        previousEnd = end;
        for (let kg = start; kg <= end; kg++) {
          expect(owner[kg]).toBe(-1);
          owner[kg] = s;
        }
      }
      expect(previousEnd).toBe(127);
      for (let kg = 0; kg < 128; kg++) expect(subtaskForKeyGroup(128, parallelism, kg)).toBe(owner[kg]);
    });
  }

  it("matches Flink's ranges for parallelism 3", () => {
    expect(keyGroupRangeForSubtask(128, 3, 0)).toEqual([0, 42]);
    expect(keyGroupRangeForSubtask(128, 3, 1)).toEqual([43, 85]);
    expect(keyGroupRangeForSubtask(128, 3, 2)).toEqual([86, 127]);
  });

  it("rejects impossible parallelism and subtask indexes", () => {
    expect(() => keyGroupRangeForSubtask(128, 129, 0)).toThrow(RangeError);
    expect(() => keyGroupRangeForSubtask(128, 2, 2)).toThrow(/subtaskIndex/);
    expect(() => keyGroupRangeForSubtask(0, 1, 0)).toThrow(/maxParallelism/);
  });
});
