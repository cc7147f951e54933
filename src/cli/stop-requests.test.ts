import { describe, expect, it } from "vitest";
import { ManualClock } from "../util/clock.ts";
import { DUPLICATE_SIGNAL_WINDOW_MS, StopRequests } from "./stop-requests.ts";

describe("StopRequests", () => {
  it("the same signal twice within the window is one request", () => {
    const clock = new ManualClock(1_000);
    const r = new StopRequests(clock);
    expect(r.receive("SIGTERM")).toBe("stop");
    clock.advance(1);
    expect(r.receive("SIGTERM")).toBe("duplicate");
    clock.advance(DUPLICATE_SIGNAL_WINDOW_MS - 2);
    expect(r.receive("SIGTERM")).toBe("duplicate");
  });

  it("the same signal again after the window is a second request: cancel", () => {
    const clock = new ManualClock(0);
    const r = new StopRequests(clock);
    expect(r.receive("SIGINT")).toBe("stop");
    clock.advance(DUPLICATE_SIGNAL_WINDOW_MS);
    expect(r.receive("SIGINT")).toBe("cancel");
  });

  it("another signal right after is a second request", () => {
    const clock = new ManualClock(0);
    const r = new StopRequests(clock);
    expect(r.receive("SIGINT")).toBe("stop");
    expect(r.receive("SIGTERM")).toBe("cancel");
  });

  it("a duplicate does not extend the window", () => {
    const clock = new ManualClock(0);
    const r = new StopRequests(clock, 100);
    expect(r.receive("SIGTERM")).toBe("stop");
    clock.advance(90);
    expect(r.receive("SIGTERM")).toBe("duplicate");
    clock.advance(20);
    expect(r.receive("SIGTERM")).toBe("cancel");
  });
});
