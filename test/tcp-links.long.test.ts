/**
 * Worker threads linked by TCP (the data plane between task manager
 * processes, here over 127.0.0.1 in one process: `WEIR_WORKER_LINKS=tcp`): the
 * keyed count on 2 and 3 workers gives exactly the in-process result, also
 * through a failure with recovery from a checkpoint, and when a worker thread
 * dies, the one started in its place is linked again and the job recovers;
 * event-time windows (watermarks crossing the links) give the model's results.
 */
import { describe, expect, it } from "vitest";
import { WORKER_LINKS_ENV } from "../src/deploy/worker/worker-task-manager.ts";
import { jsonResult, runCli } from "./support/cli-process.ts";
import { expectedCounts, type Counts } from "./fixtures/keyed-count.ts";
import { tempDirs } from "./support/temp-dirs.ts";
import { seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { randomEvents, windowOracle } from "./support/window-oracle.ts";

const RECORDS = 20_000;
const KEYS = 10;
const TCP = { [WORKER_LINKS_ENV]: "tcp" };
const tempDir = tempDirs("weir-tcp-links-");

/** Runs the keyed count job file on `workers` workers (0: in-process); `more`: its further arguments. */
async function keyedCount(workers: number, links: Record<string, string>, more: readonly string[] = []) {
  const run = await runCli(
    [
      "run", "test/fixtures/keyed-count-job.ts", "--parallelism", "3", "--workers", String(workers),
      "--checkpoint-interval", "50", "--checkpoint-dir", tempDir(), "--log-level", "debug", "--", String(RECORDS), String(KEYS), ...more,
    ],
    120_000,
    links,
  );
  expect(run.code, run.stderr).toBe(0);
  return { run, out: jsonResult<{ counts: Counts; restarts: number }>(run) };
}

/** The workers' TCP connections the run's debug log reports, as `from>to` pairs. */
function tcpConnections(stderr: string): string[] {
  return [...stderr.matchAll(/worker (\d+): TCP link to worker (\d+) at 127\.0\.0\.1:\d+ \(connection \d+\) connected/g)].map((m) => `${m[1]}>${m[2]}`);
}

describe("worker threads linked by TCP", () => {
  it("the keyed count on 2 and 3 workers gives exactly the in-process result", async () => {
    const [inProcess, two, three] = await Promise.all([keyedCount(0, {}), keyedCount(2, TCP), keyedCount(3, TCP)]);
    expect(inProcess.out.counts).toEqual(expectedCounts(RECORDS, KEYS));
    expect(two.out.counts).toEqual(inProcess.out.counts);
    expect(three.out.counts).toEqual(inProcess.out.counts);
    // every pair linked, from both ends
    expect(new Set(tcpConnections(two.run.stderr))).toEqual(new Set(["0>1", "1>0"]));
    expect(new Set(tcpConnections(three.run.stderr))).toEqual(new Set(["0>1", "1>0", "0>2", "2>0", "1>2", "2>1"]));
    expect(tcpConnections(inProcess.run.stderr)).toEqual([]);
  });

  it("fails once after a checkpoint on 3 workers and recovers to exactly the in-process result", async () => {
    // a slow input (20 numbers every 2 ms, at least 0.7 s) that ends only after 2 completed checkpoints, failing at number 5 000 or
    // the first after a completed checkpoint: the failure happens however slow the machine is
    const { run, out } = await keyedCount(3, TCP, ["5000", "20", "2", "2"]);
    expect(out.restarts).toBe(1);
    expect(run.stderr).toMatch(/injected failure at record \d+/);
    expect(run.stderr).toMatch(/restored from checkpoint \d+/);
    expect(out.counts).toEqual(expectedCounts(RECORDS, KEYS));
    expect(new Set(tcpConnections(run.stderr))).toEqual(new Set(["0>1", "1>0", "0>2", "2>0", "1>2", "2>1"]));
  });

  // Worker 0 dials worker 1; whichever dies, the one started in its place is linked again by a new connection.
  it.each([0, 1])("a worker thread that dies (subtask %i) is started again, linked again, and the job recovers exactly once", async (crashing) => {
    const run = await runCli(
      [
        "run", "test/fixtures/worker-crash-job.ts", "--parallelism", "2", "--workers", "2", "--checkpoint-interval", "50",
        "--checkpoint-dir", tempDir(), "--log-level", "debug", "--", "20000", "10", String(crashing),
      ],
      120_000,
      TCP,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/worker thread \d died: uncaught error in a timer callback/);
    expect(run.stderr).toMatch(/restored from checkpoint \d+/);
    const out = jsonResult<{ counts: Counts; restarts: number }>(run);
    expect(out.restarts).toBe(1);
    expect(out.counts).toEqual(expectedCounts(20_000, 10));
    // the first connection, and the second with the worker started again
    expect(tcpConnections(run.stderr).filter((c) => c === "0>1")).toHaveLength(2);
  });

  it("session windows and a window join in event time (watermarks cross the links) give the model's results on 2 workers", async () => {
    const seed = testSeed();
    const run = await runCli(
      ["run", "test/fixtures/windows-job.ts", "--parallelism", "3", "--workers", "2", "--fresh", "--checkpoint-interval", "100", "--checkpoint-dir", tempDir(), "--log-level", "debug", "--", String(seed)],
      120_000,
      TCP,
    );
    const msg = `WEIR_SEED=${seed}`;
    expect(run.code, `${msg}\n${run.stderr}`).toBe(0);
    const out = jsonResult<{ results: string[]; late: number[]; joined: string[] }>(run);
    const expected = windowOracle(randomEvents(seededRandom(seed), 1200, 6, 300, 0.05, 200), { type: "session", gap: 150 }, 200, 800);
    expect(out.results, msg).toEqual(expected.results);
    expect(out.late, msg).toEqual(expected.late);
    expect(out.joined.length, msg).toBeGreaterThan(1200);
    expect(new Set(tcpConnections(run.stderr))).toEqual(new Set(["0>1", "1>0"]));
  });
});
