import { describe, expect, it } from "vitest";
import { expectedCountSum, runObjectState } from "./object-state.ts";

describe("the object-state bench job", () => {
  it("expectedCountSum adds up 1..c for the c records of each key", () => {
    expect(expectedCountSum(5, 2)).toBe(6 + 3); // key 1: 1, 3, 5; key 0: 2, 4
    expect(expectedCountSum(3, 10)).toBe(3); // three keys seen once
    expect(expectedCountSum(40, 10)).toBe(10 * (1 + 2 + 3 + 4));
  });

  it("keeps the aggregate object of every key across checkpoints: the running counts add up", async () => {
    const m = await runObjectState({ records: 60_000, keys: 7_000, parallelism: 2, checkpointIntervalMs: 50 });
    expect(m.received).toBe(60_000);
    expect(m.countSum).toBe(expectedCountSum(60_000, 7_000));
    expect(m.checkpoints?.counts.completed).toBeGreaterThan(0);
  });
});
