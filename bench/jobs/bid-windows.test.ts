import { describe, expect, it } from "vitest";
import { runBidWindows } from "./bid-windows.ts";

describe("the bid-window jobs", () => {
  it("hop: the counts sum to 5 × bids, one hottest auction per window end (checked by the run), with checkpoints", async () => {
    const m = await runBidWindows({ job: "hop", bids: 30_000, checkpointIntervalMs: 50 });
    expect(m.check).toBe(5 * 30_000);
    expect(m.results).toBeGreaterThan(30_000 / 2_000);
  });

  it("tumble: the largest price of each 10 s window (checked by the run)", async () => {
    const m = await runBidWindows({ job: "tumble", bids: 50_000, checkpointIntervalMs: 0 });
    expect(m.results).toBeGreaterThanOrEqual(5);
    expect(m.lateBids).toBe(0);
  });
});
