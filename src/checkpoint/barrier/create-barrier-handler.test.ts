import { describe, expect, it } from "vitest";
import { ManualClock } from "../../util/clock.ts";
import { createBarrierHandler } from "./index.ts";
import { barrier } from "./test-gate.ts";

describe("createBarrierHandler", () => {
  it("aligns (blocks) in exactly-once mode and only counts in the other modes", () => {
    for (const [mode, blocks] of [["exactly-once", true], ["at-least-once", false], ["at-most-once", false]] as const) {
      const handler = createBarrierHandler(mode, 2, new ManualClock(0));
      handler.processBarrier(0, barrier(1));
      expect(handler.isBlocked(0), mode).toBe(blocks);
      expect(handler.pendingCheckpointId(), mode).toBe(1);
    }
  });

  it("rejects a channel count that is not a positive integer", () => {
    for (const n of [0, -1, 1.5, Number.NaN]) {
      expect(() => createBarrierHandler("exactly-once", n, new ManualClock(0))).toThrow(RangeError);
    }
  });
});
