import { describe, expect, it } from "vitest";
import { otherCores } from "./machine-busy.ts";

describe("otherCores", () => {
  it("is the machine's busy time less this process's, over the wall time", () => {
    // 1 s: the machine was busy 1.5 CPU-seconds, this process used 0.5 of them
    expect(otherCores({ at: 0, machineMs: 1_000, ownMs: 100 }, { at: 1_000, machineMs: 2_500, ownMs: 600 })).toBe(1);
    // the counters' granularity can make it slightly negative on an idle machine
    expect(otherCores({ at: 0, machineMs: 0, ownMs: 0 }, { at: 1_000, machineMs: 490, ownMs: 500 })).toBe(0);
  });

  it("is unknown without the machine's counters", () => {
    expect(otherCores({ at: 0, machineMs: undefined, ownMs: 0 }, { at: 1_000, machineMs: undefined, ownMs: 5 })).toBeUndefined();
  });
});
