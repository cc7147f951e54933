import { describe, expect, it } from "vitest";
import { cpuBetween } from "./cpu-timeline.ts";
import { steadyWindow } from "./steady-rate.ts";

describe("steadyWindow", () => {
  it("takes the rate between the instants at which the sinks together passed 20 % and 90 % of the records", () => {
    // two sinks, a mark every 100 records, 1 000 records: sink 0 at odd ms, sink 1 at even ms
    const w = steadyWindow([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]], 100, 1_000);
    expect(w).toEqual({ startAt: 2, endAt: 9, records: 700, recordsPerSecond: 100_000 });
  });

  it("leaves out a slow start and a slow end", () => {
    // 10 marks of 100 records: the first two and the last one took 100 ms each, the rest 1 ms
    const marks = [100, 200, 201, 202, 203, 204, 205, 206, 207, 307];
    const w = steadyWindow([marks], 100, 1_000);
    expect(w.startAt).toBe(200);
    expect(w.endAt).toBe(207);
    expect(w.recordsPerSecond).toBe(100_000);
  });

  it("refuses marks that do not cover the window", () => {
    expect(() => steadyWindow([[1, 2]], 100, 1_000)).toThrow(/2 marks of 100 records do not cover 20–90 % of 1000 records/);
  });
});

describe("cpuBetween", () => {
  it("interpolates the CPU time at both instants", () => {
    expect(cpuBetween([[0, 0], [10, 20], [20, 30]], 5, 15)).toBe(15);
    expect(cpuBetween([[0, 0], [10, 20], [20, 30]], 0, 20)).toBe(30);
  });

  it("refuses instants outside the samples", () => {
    expect(() => cpuBetween([[0, 0], [10, 20]], 5, 15)).toThrow(RangeError);
  });
});
