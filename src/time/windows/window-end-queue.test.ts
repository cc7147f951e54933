import { describe, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { WindowEndQueue } from "./window-end-queue.ts";

const SEED = testSeed();

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

  it("pops the same groups as a sorted list of pushes, pushes and pops interleaved, ends pushed again after they fired", () => {
    const random = seededRandom(SEED);
    const q = new WindowEndQueue();
    /** The reference: every queued (end, key) in push order. */
    let queued: [number, string][] = [];
    for (let step = 0; step < 5_000; step++) {
      if (random() < 0.8 || queued.length === 0) {
        const end = 1_000 * randomInt(random, 0, 40);
        const key = `k${step}`;
        q.push(end, key);
        queued.push([end, key]);
      } else {
        const end = Math.min(...queued.map(([e]) => e));
        expect(q.nextEnd(), `seed ${SEED}, step ${step}`).toBe(end);
        const group = q.pop();
        expect(group, `seed ${SEED}, step ${step}`).toEqual({ end, keys: queued.filter(([e]) => e === end).map(([, k]) => k) });
        queued = queued.filter(([e]) => e !== end);
      }
    }
  });
});
