import { describe, expect, it } from "vitest";
import { BoundedOutOfOrdernessWatermarks, WatermarksWithIdleness, type WatermarkGenerator, type WatermarkOutput } from "./watermark-generator.ts";
import { WatermarkStrategy } from "./watermark-strategy.ts";

function recorder(): WatermarkOutput & { log: string[] } {
  const log: string[] = [];
  return { log, emitWatermark: (t) => void log.push(`wm ${t}`), markIdle: () => void log.push("idle"), markActive: () => void log.push("active") };
}

describe("watermark generators", () => {
  it("bounded out-of-orderness trails the highest timestamp by the bound (minus 1 ms)", () => {
    const g: WatermarkGenerator<number> = new BoundedOutOfOrdernessWatermarks<number>(100);
    const out = recorder();
    g.onPeriodicEmit(out); // nothing seen yet: no watermark
    g.onEvent(0, 1000, out);
    g.onEvent(0, 900, out); // out of order: does not lower it
    g.onPeriodicEmit(out);
    g.onEvent(0, 1500, out);
    g.onPeriodicEmit(out);
    expect(out.log).toEqual(["wm 899", "wm 1399"]);
    expect(() => new BoundedOutOfOrdernessWatermarks(-1)).toThrow(/≥ 0/);
  });

  it("idleness marks the input idle after the timeout without events (after a last emit) and active with the next event", () => {
    let now = 0;
    const g = new WatermarksWithIdleness(new BoundedOutOfOrdernessWatermarks<number>(0), 50, () => now);
    const out = recorder();
    g.onEvent(0, 10, out);
    g.onEvent(0, 30, out);
    now = 60;
    // 60 - 0 ≥ 50 since the last event, and no periodic emit since it: what it promised is emitted first
    g.onPeriodicEmit(out);
    g.onPeriodicEmit(out); // stays idle, emits nothing
    now = 70;
    g.onEvent(0, 40, out);
    g.onPeriodicEmit(out);
    expect(out.log).toEqual(["wm 29", "idle", "active", "wm 39"]);
  });

  it("the strategy builds generators with the assigner and idleness it was given", () => {
    const s = WatermarkStrategy.forMonotonousTimestamps<{ t: number }>().withTimestampAssigner((e) => e.t).withIdleness(5);
    expect(s.timestampAssigner!({ t: 42 }, undefined)).toBe(42);
    expect(s.generator(() => 0)).toBeInstanceOf(WatermarksWithIdleness);
    expect(WatermarkStrategy.noWatermarks().generator(() => 0)).toBeNull();
    expect(() => s.withIdleness(0)).toThrow(/> 0/);
  });

  it("takes a watermark alignment that the later settings keep, and refuses one it cannot honour", () => {
    const aligned = WatermarkStrategy.forBoundedOutOfOrderness<{ t: number }>(10).withWatermarkAlignment("bids", 2_000);
    expect(aligned.alignment).toEqual({ group: "bids", maxAllowedDriftMs: 2_000, updateIntervalMs: 1_000 });
    expect(aligned.withTimestampAssigner((e) => e.t).withIdleness(5).alignment).toEqual(aligned.alignment);
    expect(WatermarkStrategy.forMonotonousTimestamps().alignment).toBeNull();
    expect(() => WatermarkStrategy.forMonotonousTimestamps().withWatermarkAlignment("", 1)).toThrow(/group name/);
    expect(() => WatermarkStrategy.forMonotonousTimestamps().withWatermarkAlignment("g", -1)).toThrow(/drift/);
    expect(() => WatermarkStrategy.forMonotonousTimestamps().withWatermarkAlignment("g", 1, 0)).toThrow(/update interval/);
    expect(() => WatermarkStrategy.noWatermarks().withWatermarkAlignment("g", 1)).toThrow(/needs watermarks/);
  });
});
