import { describe, expect, it } from "vitest";
import { WindowEndQueue } from "./window-end-queue.ts";

describe("WindowEndQueue", () => {
  it("groups keys by window end, in order, also for ends pushed out of order", () => {
    const q = new WindowEndQueue();
    for (let i = 0; i < 200; i++) q.push(1_000 * (i % 7), `k${i}`);
    q.push(500, "late");
    const groups: [number, number][] = [];
    while (q.nextEnd() !== undefined) {
      const g = q.pop();
      groups.push([g.end, g.keys.length]);
      if (g.end === 3_000) q.push(10_000, "after"); // a window created while others fire
    }
    expect(groups).toEqual([[0, 29], [500, 1], [1_000, 29], [2_000, 29], [3_000, 29], [4_000, 28], [5_000, 28], [6_000, 28], [10_000, 1]]);
  });
});
