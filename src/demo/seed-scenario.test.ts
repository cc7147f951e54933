import { describe, expect, it } from "vitest";
import { runSeedScenario } from "./seed-scenario.ts";

describe("seed scenario", () => {
  it("restores the checkpoint at offset 5 after sum_odd fails at 7 and ends with the failure-free sums", async () => {
    const lines: string[] = [];
    const failed = await runSeedScenario(true, (l) => lines.push(l));
    const clean = await runSeedScenario(false, () => {});
    expect(clean).toEqual({ sumEven: 2 + 4 + 6 + 8 + 10, sumOdd: 1 + 3 + 5 + 7 + 9, restarts: 0 });
    expect(failed).toEqual({ ...clean, restarts: 1 });
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    const checkpoint = at(/^checkpoint (\d+) complete at source offset 5$/);
    const failure = at(/^sum_odd failed at 7$/);
    const restored = at(/^restored from checkpoint (\d+) /);
    const rewound = at(/^source rewound to offset 5$/);
    expect(checkpoint).toBeGreaterThanOrEqual(0);
    expect(failure).toBeGreaterThan(checkpoint);
    expect(restored).toBeGreaterThan(failure);
    expect(rewound).toBeGreaterThan(restored);
    const id = /checkpoint (\d+)/.exec(lines[checkpoint]!)![1];
    expect(lines[restored]).toContain(`restored from checkpoint ${id} `);
    // 7 was never added before the failure, and 6 was replayed after the rewind
    expect(lines.slice(0, failure).some((l) => /sum_odd \+= 7/.test(l))).toBe(false);
    expect(lines.slice(rewound).some((l) => /sum_even \+= 6 -> 12/.test(l))).toBe(true);
  });
});
