import { describe, expect, it } from "vitest";
import { ManualClock } from "../../util/clock.ts";
import { SourceAlignment } from "./source-alignment.ts";

function alignment() {
  const clock = new ManualClock(0);
  const reports: [string, number][] = [];
  const a = new SourceAlignment({ group: "bids", maxAllowedDriftMs: 1_000, updateIntervalMs: 100 }, "src#1", (g, wm) => reports.push([g, wm]), clock);
  return { a, clock, reports };
}

describe("SourceAlignment", () => {
  it("reads until it has a watermark, waits there for the group's first announcement, then pauses more than the drift ahead of the lowest other subtask", () => {
    const { a } = alignment();
    expect(a.paused(Number.NEGATIVE_INFINITY)).toBe(false);
    expect(a.paused(0)).toBe(true);
    a.announce("persons", { lowest: 0, lowestTask: "p#0", second: 0 }); // another group
    expect(a.paused(0)).toBe(true);
    a.announce("bids", { lowest: 3_000, lowestTask: "src#0", second: 7_000 });
    expect(a.paused(4_000)).toBe(false);
    expect(a.paused(4_001)).toBe(true);
  });

  it("is not held back by its own report when it holds the group's lowest watermark", () => {
    const { a } = alignment();
    a.announce("bids", { lowest: 3_000, lowestTask: "src#1", second: 7_000 });
    expect(a.paused(8_000)).toBe(false); // its own watermark moved on since it reported 3 000
    expect(a.paused(8_001)).toBe(true);
    a.announce("bids", { lowest: 3_000, lowestTask: "src#1", second: Number.POSITIVE_INFINITY }); // alone in its group
    expect(a.paused(1e12)).toBe(false);
  });

  it("reports a changed watermark at most once per update interval, never the one before any, and says when a pending one is due", () => {
    const { a, clock, reports } = alignment();
    a.update(Number.NEGATIVE_INFINITY);
    expect(reports).toEqual([]);
    expect(a.reportDueInMs(Number.NEGATIVE_INFINITY)).toBeUndefined();
    a.update(5);
    a.update(5);
    expect(reports).toEqual([["bids", 5]]);
    expect(a.reportDueInMs(5)).toBeUndefined();
    clock.advance(40);
    a.update(9);
    expect(reports).toHaveLength(1);
    expect(a.reportDueInMs(9)).toBe(60);
    clock.advance(60);
    a.update(9);
    expect(reports).toEqual([["bids", 5], ["bids", 9]]);
  });
});
