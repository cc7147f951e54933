/**
 * Worker threads: the same job gives the same results on one or two workers,
 * a job module that builds another graph in the workers than in the client is
 * refused with a fingerprint error, and a worker thread that dies is started
 * again and the job recovers from its checkpoint.
 */
import { describe, expect, it } from "vitest";
import { jsonResult, runCli } from "./support/cli-process.ts";
import { expectedCounts } from "./fixtures/keyed-count.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const RECORDS = 20_000;

const tempDir = tempDirs("weir-workers-");

/** What pipeline-job.ts must output: every kept number (and the negated fifth ones), doubled, tagged with its key. */
function expectedPipeline(records: number): [number, number][] {
  const out: [number, number][] = [];
  for (let n = 1; n <= records; n++) {
    if (n % 3 === 0) continue;
    for (const v of n % 5 === 0 ? [n, -n] : [n]) out.push([Math.abs(v * 2) % 13, v * 2]);
  }
  return out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

describe("worker threads", () => {
  it("one and two workers give the same records as the definition of the job", async () => {
    const run = (workers: number) =>
      runCli([
        "run", "test/fixtures/pipeline-job.ts",
        "--parallelism", "3", "--workers", String(workers), "--checkpoint-interval", "50", "--checkpoint-dir", tempDir(),
        "--", String(RECORDS),
      ]);
    const [one, two] = await Promise.all([run(1), run(2)]);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    const a = jsonResult<{ records: [number, number][] }>(one).records;
    const b = jsonResult<{ records: [number, number][] }>(two).records;
    expect(a.length).toBe(expectedPipeline(RECORDS).length);
    expect(b).toEqual(a);
    expect(a).toEqual(expectedPipeline(RECORDS));
  });

  it("a worker that builds a different graph is refused with a fingerprint error", async () => {
    const run = await runCli(
      ["run", "test/fixtures/graph-mismatch-job.ts", "--parallelism", "2", "--workers", "2", "--checkpoint-dir", tempDir()],
      50_000, // a generous upper bound (on a quiet machine about 1 s)
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/worker \d built a different job graph than the client \(fingerprint \S+ vs \S+\)/);
  });

  // Subtask 0 runs in worker 0, subtask 1 in worker 1: either one may die. When worker 1 dies, worker 0 must get
  // its new link before the next attempt's deployment, whatever order the workers are deployed in.
  it.each([0, 1])("a worker thread killed by an uncaught error (subtask %i) is started again and the job recovers exactly once", async (crashing) => {
    const run = await runCli(
      ["run", "test/fixtures/worker-crash-job.ts", "--parallelism", "2", "--workers", "2", "--checkpoint-interval", "50", "--checkpoint-dir", tempDir(), "--", "20000", "10", String(crashing)],
      60_000,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/worker thread \d died: uncaught error in a timer callback/);
    expect(run.stderr).toMatch(/restored from checkpoint \d+/);
    const out = jsonResult<{ counts: Record<string, number>; restarts: number }>(run);
    expect(out.restarts).toBe(1);
    expect(out.counts).toEqual(expectedCounts(20_000, 10));
  });
});
