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

  it("after the end: the stop's signal again is ignored once however late, then ends the process; another signal ends it", () => {
    const clock = new ManualClock(0);
    const r = new StopRequests(clock, 100);
    expect(r.receive("SIGTERM")).toBe("stop");
    clock.advance(50);
    expect(r.receiveAfterEnd("SIGTERM")).toBe("ignore"); // a duplicate
    clock.advance(5_000);
    expect(r.receiveAfterEnd("SIGTERM")).toBe("ignore"); // the group's delivery after a slow stop
    clock.advance(5_000);
    expect(r.receiveAfterEnd("SIGTERM")).toBe("end");
    const other = new StopRequests(clock, 100);
    other.receive("SIGTERM");
    clock.advance(5_000);
    expect(other.receiveAfterEnd("SIGINT")).toBe("end");
    const finished = new StopRequests(clock, 100); // a job that ended without a stop request
    expect(finished.receiveAfterEnd("SIGTERM")).toBe("end");
  });
});
