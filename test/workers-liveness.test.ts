/**
 * Liveness on worker threads under backpressure: a job shaped like Nexmark q5
 * (two keyed window stages, exactly-once checkpoints every 20 ms) at
 * parallelism 3 on 2 workers with batches of 4 records, so that the channels
 * between the threads are full most of the time while barriers align. Each
 * thread runs several consumers of the same link; a lost wake-up of one of
 * them stalls its producer for good, and with it the barriers: the job hangs
 * (see docs/architecture.md, "Links"). Every run must finish, with the rows of
 * the same job run in one thread.
 *
 * Such a hang needs an unlucky interleaving of the threads (a consumer asleep
 * while the link's other consumers are blocked by alignment or backpressure),
 * so this test catches it only now and then; the lost wake-up itself is
 * checked deterministically in src/runtime/channel/remote-link.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runHotItems, type HotItemsParams } from "./fixtures/hot-items-job.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const RUNS = 3;
/** A generous upper bound per run (on a quiet machine about 2 s). */
const RUN_DEADLINE_MS = 60_000;
const tempDir = tempDirs("weir-workers-liveness-");

/** Rejects when `run` did not finish within the deadline. */
function finishes<T>(run: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${RUN_DEADLINE_MS / 1000} s: the job hangs`)), RUN_DEADLINE_MS);
  });
  return Promise.race([run, deadline]).finally(() => clearTimeout(timer));
}

describe("worker threads under backpressure", () => {
  it(`a q5-shaped job with checkpoints every 20 ms and batches of 4 records finishes ${RUNS} times on 2 workers`, async () => {
    const params = (workers: number): HotItemsParams => ({ events: 10_000, workers, batchSize: 4, checkpointIntervalMs: 20, checkpointDir: tempDir() });
    const expected = await runHotItems(params(0));
    expect(expected.length).toBeGreaterThan(10);
    for (let i = 1; i <= RUNS; i++) expect(await finishes(runHotItems(params(2)), `run ${i} on 2 workers`), `run ${i}`).toEqual(expected);
  }, RUNS * RUN_DEADLINE_MS + 30_000);
});
