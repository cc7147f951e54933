import { describe, expect, it } from "vitest";
import { percentile } from "./percentile.ts";

describe("percentile", () => {
  const values = [15, 20, 35, 40, 50];

  it("uses the nearest rank", () => {
    expect(percentile(values, 30)).toBe(20);
    expect(percentile(values, 40)).toBe(20);
    expect(percentile(values, 50)).toBe(35);
    expect(percentile(values, 100)).toBe(50);
    expect(percentile(values, 0)).toBe(15);
  });

  it("does not depend on input order and leaves the input alone", () => {
    const shuffled = [50, 15, 40, 20, 35];
    expect(percentile(shuffled, 50)).toBe(35);
    expect(shuffled).toEqual([50, 15, 40, 20, 35]);
  });

  it("gives the slow tail for p99 of 100 samples", () => {
    const samples = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(samples, 99)).toBe(99);
  });

  it("returns undefined for no values and rejects an out-of-range p", () => {
    expect(percentile([], 50)).toBeUndefined();
    expect(() => percentile(values, 101)).toThrow(RangeError);
    expect(() => percentile(values, Number.NaN)).toThrow(RangeError);
  });
});
