import { describe, expect, it } from "vitest";
import { WatermarkAlignment } from "./watermark-alignment.ts";

describe("WatermarkAlignment", () => {
  it("announces a group's lowest watermark when it changes, per group", () => {
    const a = new WatermarkAlignment();
    expect(a.report("bids", "src#0", 5_000)).toBe(5_000);
    expect(a.report("bids", "src#1", 2_000)).toBe(2_000);
    expect(a.report("bids", "src#0", 7_000)).toBeUndefined(); // src#1 is still the lowest
    expect(a.report("persons", "p#0", 100)).toBe(100); // groups apart
    expect(a.report("bids", "src#1", 9_000)).toBe(7_000);
    expect(a.report("bids", "src#1", Number.POSITIVE_INFINITY)).toBeUndefined(); // idle: holds nobody back
  });

  it("lets a subtask that has no more input leave its groups", () => {
    const a = new WatermarkAlignment();
    a.report("bids", "src#0", 1_000);
    a.report("bids", "src#1", 8_000);
    a.report("persons", "src#0", 500);
    a.report("persons", "p#0", 600);
    expect(a.leave("src#0")).toEqual([
      ["bids", 8_000],
      ["persons", 600],
    ]);
    expect(a.leave("src#0")).toEqual([]);
    expect(a.leave("src#1")).toEqual([["bids", Number.POSITIVE_INFINITY]]);
  });
});
