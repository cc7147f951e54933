import { describe, expect, it } from "vitest";
import { seededRandom, testSeed } from "../util/seeded-random.ts";
import { TimerQueue } from "./timer-queue.ts";

describe("TimerQueue", () => {
  it("pops timers in timestamp order with their keys and namespaces (seeded pushes and pops interleaved)", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const q = new TimerQueue();
    const model: [number, string, number][] = [];
    for (let i = 0; i < 5000; i++) {
      if (random() < 0.6 || model.length === 0) {
        const ts = Math.floor(random() * 200) + 1_767_225_600_000; // many equal timestamps, none a small integer
        q.push(ts, `k${i}`, i);
        model.push([ts, `k${i}`, i]);
      } else {
        const ts = q.pop();
        const at = model.findIndex(([t, k, ns]) => t === ts && k === q.key && ns === q.namespace);
        expect(at, `WEIR_SEED=${seed}`).toBeGreaterThanOrEqual(0);
        expect(Math.min(...model.map(([t]) => t)), `WEIR_SEED=${seed}`).toBe(ts);
        model.splice(at, 1);
      }
    }
    const rest: number[] = [];
    while (q.nextTimestamp() !== undefined) rest.push(q.pop());
    expect(rest, `WEIR_SEED=${seed}`).toEqual(model.map(([t]) => t).sort((a, b) => a - b));
  });
});
