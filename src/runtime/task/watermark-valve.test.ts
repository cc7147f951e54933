import { describe, expect, it } from "vitest";
import { WatermarkValve } from "./watermark-valve.ts";

describe("WatermarkValve", () => {
  it("is the minimum over channels and never goes back", () => {
    const v = new WatermarkValve(3);
    expect(v.onWatermark(0, 10)).toBeUndefined();
    expect(v.onWatermark(1, 5)).toBeUndefined();
    expect(v.onWatermark(2, 7)).toBe(5);
    expect(v.onWatermark(1, 20)).toBe(7);
    expect(v.onWatermark(2, 6)).toBeUndefined(); // a lower watermark on a channel is ignored
    expect(v.watermark).toBe(7);
    expect(v.onWatermark(2, 30)).toBe(10);
  });

  it("ignores idle channels, and a channel rejoins only once it caught up", () => {
    const v = new WatermarkValve(2);
    v.onWatermark(0, 100);
    expect(v.onStatus(1, true)).toEqual({ watermark: 100, allIdleChanged: false });
    expect(v.onWatermark(0, 150)).toBe(150);
    expect(v.onStatus(1, false)).toEqual({ watermark: undefined, allIdleChanged: false });
    expect(v.onWatermark(1, 120)).toBeUndefined(); // behind: not yet aligned, does not hold back
    expect(v.onWatermark(0, 200)).toBe(200);
    expect(v.onWatermark(1, 210)).toBeUndefined(); // aligned now; min(200, 210) = 200
    expect(v.onWatermark(0, 300)).toBe(210);
  });

  it("reports when the whole task becomes idle and active again", () => {
    const v = new WatermarkValve(2);
    expect(v.onStatus(0, true).allIdleChanged).toBe(false);
    expect(v.onStatus(1, true).allIdleChanged).toBe(true);
    expect(v.isIdle()).toBe(true);
    expect(v.onStatus(0, false).allIdleChanged).toBe(true);
  });

  it("when the last channel goes idle, moves to the highest watermark of any channel (a channel idle first does not hold it back)", () => {
    const v = new WatermarkValve(2);
    v.onWatermark(0, 900);
    expect(v.onStatus(0, true).watermark).toBeUndefined(); // channel 1 has promised nothing yet
    expect(v.onWatermark(1, 300)).toBe(300);
    expect(v.onStatus(1, true)).toEqual({ watermark: 900, allIdleChanged: true });
    expect(v.onStatus(1, false)).toEqual({ watermark: undefined, allIdleChanged: true });
    expect(v.onWatermark(1, 800)).toBeUndefined(); // behind the task's 900: not aligned
  });

  it("passes the maximal watermark of ended inputs", () => {
    const v = new WatermarkValve(2);
    v.onWatermark(0, Infinity);
    expect(v.onWatermark(1, Infinity)).toBe(Infinity);
  });
});
