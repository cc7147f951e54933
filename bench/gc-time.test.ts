import { describe, expect, it } from "vitest";
import { gcShare, measureGcTime } from "./gc-time.ts";

describe("measureGcTime", () => {
  it("passes the run's result on and sums the GC pauses of a run that allocates", async () => {
    const { result, gcMs } = await measureGcTime(async () => {
      let kept: { n: number; s: string }[] = [];
      for (let n = 0; n < 2_000_000; n++) {
        kept.push({ n, s: `row ${n}` });
        if (kept.length === 10_000) kept = [];
      }
      return kept.length;
    });
    expect(result).toBe(0);
    expect(gcMs).toBeGreaterThan(0);
  });
});

describe("gcShare", () => {
  it("divides the pauses by the wall time, undefined where not measured", () => {
    expect(gcShare(150, 1_000)).toBe(0.15);
    expect(gcShare(undefined, 1_000)).toBeUndefined();
    expect(gcShare(1, 0)).toBeUndefined();
  });
});
