import { describe, expect, it } from "vitest";
import { ManualClock } from "../../util/clock.ts";
import { SourceAlignment } from "./source-alignment.ts";

function alignment() {
  const clock = new ManualClock(0);
  const reports: [string, number][] = [];
  const a = new SourceAlignment({ group: "bids", maxAllowedDriftMs: 1_000, updateIntervalMs: 100 }, (g, wm) => reports.push([g, wm]), clock);
  return { a, clock, reports };
}

describe("SourceAlignment", () => {
  it("reads until the job master announces its group's lowest watermark, then pauses more than the drift ahead of it", () => {
    const { a } = alignment();
    expect(a.paused(1_000_000)).toBe(false);
    a.announce("persons", 0); // another group
    expect(a.paused(1_000_000)).toBe(false);
    a.announce("bids", 3_000);
    expect(a.paused(4_000)).toBe(false);
    expect(a.paused(4_001)).toBe(true);
    a.announce("bids", Number.NEGATIVE_INFINITY); // a subtask without a watermark yet
    expect(a.paused(0)).toBe(true);
  });

  it("reports a changed watermark at most once per update interval, and says when a pending one is due", () => {
    const { a, clock, reports } = alignment();
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
