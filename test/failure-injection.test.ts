/**
 * Failure injection: a keyed count over 100 000 records at parallelism 4
 * fails once at a seeded random point 40–70 % through the input, restarts
 * from the latest completed checkpoint, and ends with counts that match the
 * delivery guarantee. Reproduce a failing run with `WEIR_SEED=<seed>`.
 */
import { describe, expect, it } from "vitest";
import { RestartStrategies, StreamExecutionEnvironment, type CheckpointingMode } from "../src/index.ts";
import { jsonResult, runCli } from "./support/cli-process.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { buildKeyedCount, expectedCounts, finalCounts, type Counts } from "./fixtures/keyed-count.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const RECORDS = 100_000;
const KEYS = 10;
/** Read at most 100 numbers per poll, then pause 2 ms: about a second of input, many checkpoints. */
const THROTTLE = { perPoll: 100, pauseMs: 2 };
const seed = testSeed();
const random = seededRandom(seed);
const repro = `reproduce with WEIR_SEED=${seed}`;
const truth = expectedCounts(RECORDS, KEYS);

const tempDir = tempDirs("weir-failure-");

function failPoint(): number {
  return randomInt(random, Math.ceil(RECORDS * 0.4), Math.floor(RECORDS * 0.7));
}

/** Keys whose count differs from the truth, as `key: got/expected`. */
function countsBelow(counts: Counts): string[] {
  return Object.entries(truth)
    .filter(([k, c]) => (counts[k] ?? 0) < c)
    .map(([k, c]) => `${k}: ${counts[k] ?? 0}/${c}`);
}

describe(`failure injection on 2 worker threads (seed ${seed})`, () => {
  const runs = [
    ["exactly-once", "heap"],
    ["at-least-once", "heap"],
    ["exactly-once", "disk"], // lmdb stores in worker threads, incremental checkpoints
  ] as const;
  for (const [mode, backend] of runs) {
    it(`${mode}, ${backend} state backend: recovers from a failure at a random point`, async () => {
      const failAt = failPoint();
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
  async function runInProcess(mode: CheckpointingMode) {
    const failAt = failPoint();
    const log: string[] = [];
    const env = StreamExecutionEnvironment.create({ parallelism: 4, checkpointInterval: 50, mode, log: (l) => log.push(l) });
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const reopened: string[] = [];
    buildKeyedCount(env, { records: RECORDS, keys: KEYS, failAt, throttle: THROTTLE, onReopen: (l) => reopened.push(l) });
    const result = await env.execute(`keyed-count-${mode}`);
    return { result, counts: finalCounts(result), reopened, context: `${repro} (fail at ${failAt})\nlog:\n${log.join("\n")}` };
  }

  it("exactly-once: every key's count is exact", async () => {
    const { result, counts, reopened, context } = await runInProcess("exactly-once");
    expect(result.restarts, context).toBe(1);
    expect(reopened.length, context).toBe(4);
    expect(reopened.every((l) => l.endsWith("restored=true")), context).toBe(true);
    expect(counts, context).toEqual(truth);
  });

  it("at-least-once: no key's count is below the truth", async () => {
    const { result, counts, context } = await runInProcess("at-least-once");
    expect(result.restarts, context).toBe(1);
    expect(countsBelow(counts), context).toEqual([]);
  });

  // At-most-once does not replay: sources go on from where they were, so counts may be
  // below the truth (never above); only that the job recovers and ends is guaranteed.
  it("at-most-once: finishes after one restart and never counts a record twice", async () => {
    const { result, counts, context } = await runInProcess("at-most-once");
    expect(result.restarts, context).toBe(1);
    const above = Object.entries(counts).filter(([k, c]) => c > truth[k]!);
    expect(above, context).toEqual([]);
  });
});
