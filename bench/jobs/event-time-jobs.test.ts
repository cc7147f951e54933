import { describe, expect, it } from "vitest";
import { runIntervalJoin } from "./interval-join.ts";
import { WINDOWS_PER_EVENT, runSlidingWindowCount } from "./sliding-window-count.ts";

describe("the event-time bench jobs", () => {
  it("sliding window: every event is counted in size/slide windows, none is late", async () => {
    const m = await runSlidingWindowCount({ events: 8_000, parallelism: 2, checkpointIntervalMs: 0 });
    expect(m.lateEvents).toBe(0);
    expect(m.countSum).toBe(WINDOWS_PER_EVENT * 8_000);
    expect(m.windowsFired).toBeGreaterThan(8_000);
  });

  it("interval join: each order is paired with its own payment only, with checkpoints", async () => {
    const m = await runIntervalJoin({ orders: 40_000, parallelism: 2, checkpointIntervalMs: 100 });
    expect(m).toMatchObject({ matchedPairs: 40_000, foreignPairs: 0, lateRecords: 0 });
  });
});
