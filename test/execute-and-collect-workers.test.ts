/**
 * executeAndCollect with worker threads: the collect sink runs in a worker and
 * its results reach the client thread; with checkpointing, exactly once across
 * a failure; and the results do not depend on the number of workers.
 */
import { describe, expect, it } from "vitest";
import { jsonResult, runCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const RECORDS = 10_000;
const KEYS = 7;
const tempDir = tempDirs("weir-execute-and-collect-");

/** Every running sum of the job, sorted: per key, the sums after each of its numbers. */
function expectedSums(records: number): [number, number][] {
  const sums = new Map<number, number>();
  const out: [number, number][] = [];
  for (let n = 1; n <= records; n++) {
    const k = n % KEYS;
    sums.set(k, (sums.get(k) ?? 0) + n);
    out.push([k, sums.get(k)!]);
  }
  return out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

const sorted = (rs: [number, number][]) => [...rs].sort((a, b) => a[0] - b[0] || a[1] - b[1]);

describe("executeAndCollect on worker threads", () => {
  it.each([
    ["no checkpoints, 2 workers", ["--workers", "2"], 0],
    ["exactly-once with a failure, 2 workers", ["--workers", "2", "--checkpoint-interval", "20"], 1],
    ["exactly-once with a failure, in-process", ["--checkpoint-interval", "20"], 1],
  ] as const)("%s: every running sum exactly once", async (_label, flags, fail) => {
    const checkpoints = tempDir();
    const run = await runCli(
      ["run", "test/fixtures/execute-and-collect-job.ts", "--parallelism", "2", ...flags, "--checkpoint-dir", checkpoints, "--", String(RECORDS), String(fail), checkpoints],
      60_000,
    );
    expect(run.code, run.stderr).toBe(0);
    const out = jsonResult<{ results: [number, number][]; restarts: number }>(run);
    expect(out.restarts, run.stderr).toBe(fail);
    expect(sorted(out.results)).toEqual(expectedSums(RECORDS));
  });
});
