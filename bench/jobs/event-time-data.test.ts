import { describe, expect, it } from "vitest";
import { eventIndex, seededOffset } from "./event-time-data.ts";

describe("eventIndex", () => {
  it("interleaves the readers' contiguous ranges into one sequence of event indexes", () => {
    // fromSequence(1, 12) over 3 readers: [1..4], [5..8], [9..12]
    const indexes = Array.from({ length: 12 }, (_, i) => eventIndex(i + 1, 12, 3));
    expect(indexes).toEqual([0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11]);
  });

  it("refuses ranges of unequal length", () => {
    expect(() => eventIndex(1, 10, 4)).toThrow(/do not split evenly over 4 readers/);
  });
});

describe("seededOffset", () => {
  it("stays in [0, range), is the same on every call and spreads over the range", () => {
    const values = Array.from({ length: 20_000 }, (_, i) => seededOffset(i, 5_000, 1));
    expect(values.every((v) => Number.isInteger(v) && v >= 0 && v < 5_000)).toBe(true);
    expect(Array.from({ length: 20_000 }, (_, i) => seededOffset(i, 5_000, 1))).toEqual(values);
    expect(Math.min(...values)).toBeLessThan(50);
    expect(Math.max(...values)).toBeGreaterThan(4_950);
    expect(new Set(values).size).toBeGreaterThan(4_000);
  });

  it("differs between seeds", () => {
    const a = Array.from({ length: 100 }, (_, i) => seededOffset(i, 1_000, 2));
    const b = Array.from({ length: 100 }, (_, i) => seededOffset(i, 1_000, 3));
    expect(a).not.toEqual(b);
  });
});
