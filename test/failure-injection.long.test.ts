/**
 * Failure injection: a keyed count over 100 000 records at parallelism 4
 * fails once at a seeded random point 40–70 % through the input, restarts
 * from the latest completed checkpoint, and ends with counts that match the
 * delivery guarantee: on 2 worker threads in each mode, in-process exactly-once
 * (the in-process at-least-once and at-most-once runs are in
 * failure-injection-modes.long.test.ts). Reproduce a failing run with `WEIR_SEED=<seed>`.
 */
import { describe, expect, it } from "vitest";
import { jsonResult, runCli } from "./support/cli-process.ts";
import { seededRandom, testSeed } from "../src/util/seeded-random.ts";
import type { Counts } from "./fixtures/keyed-count.ts";
import { countsBelow, failPoint, KEYS, RECORDS, runInProcess, THROTTLE, truth } from "./support/failure-injection.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const seed = testSeed();
const random = seededRandom(seed);
const repro = `reproduce with WEIR_SEED=${seed}`;
const tempDir = tempDirs("weir-failure-");

describe(`failure injection on 2 worker threads (seed ${seed})`, () => {
  const runs = [
    ["exactly-once", "heap"],
    ["at-least-once", "heap"],
    ["exactly-once", "disk"], // lmdb stores in worker threads, incremental checkpoints
  ] as const;
  for (const [mode, backend] of runs) {
    it(`${mode}, ${backend} state backend: recovers from a failure at a random point`, async () => {
      const failAt = failPoint(random);
      const run = await runCli([
        "run", "test/fixtures/keyed-count-job.ts", "--state-backend", backend,
        "--parallelism", "4", "--workers", "2", "--checkpoint-interval", "50", "--mode", mode, "--checkpoint-dir", tempDir(),
        "--", String(RECORDS), String(KEYS), String(failAt), String(THROTTLE.perPoll), String(THROTTLE.pauseMs),
      ]);
      const context = `${repro} (fail at ${failAt})\nstderr:\n${run.stderr}`;
      expect(run.code, context).toBe(0);
      const { counts, restarts } = jsonResult<{ counts: Counts; restarts: number }>(run);
      expect(restarts, context).toBe(1);
      expect(run.stderr, context).toMatch(/injected failure at record \d+/);
      expect(run.stderr, context).toMatch(/restored from checkpoint \d+/);
      expect(run.stderr, context).toMatch(/fail-once \d attempt 1 restored=true/);
      if (mode === "exactly-once") expect(counts, context).toEqual(truth);
      else expect(countsBelow(counts), context).toEqual([]);
    });
  }
});

describe(`failure injection in-process (seed ${seed})`, () => {
  it("exactly-once: every key's count is exact", async () => {
    const { result, counts, reopened, context } = await runInProcess("exactly-once", failPoint(random), repro);
    expect(result.restarts, context).toBe(1);
    expect(reopened.length, context).toBe(4);
    expect(reopened.every((l) => l.endsWith("restored=true")), context).toBe(true);
    expect(counts, context).toEqual(truth);
  });
});
