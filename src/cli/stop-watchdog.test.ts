import { describe, expect, it } from "vitest";
import { ManualClock } from "../util/clock.ts";
import { watchStoppingJob } from "./stop-watchdog.ts";

describe("watchStoppingJob", () => {
  it("names the blocked tasks once the timeout passed since the stop request, not before", () => {
    const clock = new ManualClock(0);
    const blockedSince = 0; // the worker's event loop stopped turning at 0
    const client = { getBlockedTasks: (ms: number) => (clock.now() - blockedSince >= ms ? ["task 'spin' 1/1 (worker thread 0)"] : []) };
    clock.advance(50_000); // blocked long before the stop
    const stuck: string[][] = [];
    watchStoppingJob(client, 1_000, clock, (tasks) => stuck.push(tasks));
    clock.advance(999);
    expect(stuck).toEqual([]);
    clock.advance(1);
    expect(stuck).toEqual([["task 'spin' 1/1 (worker thread 0)"]]);
    clock.advance(10_000);
    expect(stuck).toHaveLength(1);
  });

  it("waits as long as the threads keep turning (a slow savepoint), and stops watching when told", () => {
    const clock = new ManualClock(0);
    let blocked = false;
    const client = { getBlockedTasks: () => (blocked ? ["task 'spin' 1/1 (worker thread 0)"] : []) };
    const stuck: string[][] = [];
    const watchdog = watchStoppingJob(client, 1_000, clock, (tasks) => stuck.push(tasks));
    clock.advance(60_000);
    expect(stuck).toEqual([]);
    watchdog.stop();
    blocked = true;
    clock.advance(60_000);
    expect(stuck).toEqual([]);
  });
});
