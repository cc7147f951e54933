/**
 * Failure injection in-process in the weaker modes (`npm run test:long`): the
 * keyed count of failure-injection.long.test.ts fails once at a seeded random point
 * and ends with counts that match the mode's guarantee. Reproduce a failing run
 * with `WEIR_SEED=<seed>`.
 */
import { describe, expect, it } from "vitest";
import { seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { countsBelow, failPoint, runInProcess, truth } from "./support/failure-injection.ts";

const seed = testSeed();
const random = seededRandom(seed);
const repro = `reproduce with WEIR_SEED=${seed}`;

describe(`failure injection in-process (seed ${seed})`, () => {
  it("at-least-once: no key's count is below the truth", async () => {
    const { result, counts, context } = await runInProcess("at-least-once", failPoint(random), repro);
    expect(result.restarts, context).toBe(1);
    expect(countsBelow(counts), context).toEqual([]);
  });

  // At-most-once does not replay: sources go on from where they were, so counts may be
  // below the truth (never above); only that the job recovers and ends is guaranteed.
  it("at-most-once: finishes after one restart and never counts a record twice", async () => {
    const { result, counts, context } = await runInProcess("at-most-once", failPoint(random), repro);
    expect(result.restarts, context).toBe(1);
    const above = Object.entries(counts).filter(([k, c]) => c > truth[k]!);
    expect(above, context).toEqual([]);
  });
});
