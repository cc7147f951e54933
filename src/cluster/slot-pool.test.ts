import { describe, expect, it } from "vitest";
import { SlotPool, type RegisteredTaskManager, type SlotGrant } from "./slot-pool.ts";

/** A registered task manager without a connection (the pool never uses it). */
function tm(id: string, slots: number): RegisteredTaskManager {
  return { id, host: "127.0.0.1", slots, pid: 0, hardware: { cpuCores: 1, physicalMemory: 0, freeMemory: 0 }, rpc: undefined as never, registeredAt: 0, lastHeartbeat: 0, used: new Set() };
}

const placement = (grants: SlotGrant[]) => grants.map((g) => `${g.index}@${g.taskManager.id}`);

describe("SlotPool", () => {
  it("spreads a job's slots round-robin over the task managers, the one with the most free slots first", () => {
    const pool = new SlotPool();
    pool.add(tm("a", 1));
    pool.add(tm("b", 3));
    pool.add(tm("c", 2));
    let grants: SlotGrant[] = [];
    pool.request("job", [0, 1, 2, 3, 4], (g) => (grants = g));
    expect(placement(grants)).toEqual(["0@b", "1@c", "2@a", "3@b", "4@c"]);
    expect(pool.totalFree).toBe(1);
  });

  it("a request waits until enough slots are free, then is granted; requests are served oldest first", () => {
    const pool = new SlotPool();
    const a = tm("a", 1);
    pool.add(a);
    const granted: string[] = [];
    pool.request("big", [0, 1], (g) => granted.push(`big ${placement(g).join(" ")}`));
    pool.request("small", [0], (g) => granted.push(`small ${placement(g).join(" ")}`));
    // the small one fits now; the big one waits for a second slot
    expect(granted).toEqual(["small 0@a"]);
    pool.add(tm("b", 1));
    expect(granted).toEqual(["small 0@a"]);
    pool.release("small", a);
    expect(granted).toEqual(["small 0@a", "big 0@a 1@b"]);
  });

  it("a withdrawn request is never granted; a removed task manager's slots are gone", () => {
    const pool = new SlotPool();
    const withdraw = pool.request("job", [0], () => expect.fail("granted after it was withdrawn"));
    withdraw();
    pool.add(tm("a", 1));
    expect(pool.totalFree).toBe(1);
    pool.remove("a");
    expect(pool.totalFree).toBe(0);
    expect(pool.taskManagers).toEqual([]);
  });
});
