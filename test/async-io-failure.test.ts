/**
 * Exactly-once around an external service: a job enriches numbers through a
 * fake slow service in its own process (seeded random latencies, some
 * requests beyond the attempt timeout and retried), with checkpoints every
 * few milliseconds, and fails: once by an injected error of the async
 * function at a seeded point (requests in flight are restored and sent
 * again), and by SIGKILL of the `weir run` process on 2 worker threads. The
 * collected output must hold every number exactly once with its value.
 * Reproduce a failure with WEIR_SEED=<seed>.
 */
import { describe, expect, it } from "vitest";
import { RestartStrategies, StreamExecutionEnvironment } from "../src/index.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { buildAsyncIo, collectedEnriched, enrichedKeys, expectedEnriched, type Enriched } from "./fixtures/async-io.ts";
import { jsonResult } from "./support/cli-process.ts";
import { killLoop } from "./support/e2e-kill-loop.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const SEED = testSeed();
const repro = `reproduce with WEIR_SEED=${SEED}`;
const tempDir = tempDirs("weir-async-io-");

/** Numbers missing from and duplicated in the output, as short lists for a failure message. */
function diff(records: number, got: readonly Enriched[]): { missing: string[]; duplicated: string[]; wrong: string[] } {
  const expected = new Set(expectedEnriched(records));
  const seen = new Map<string, number>();
  for (const k of enrichedKeys(got)) seen.set(k, (seen.get(k) ?? 0) + 1);
  return {
    missing: [...expected].filter((k) => !seen.has(k)).slice(0, 10),
    duplicated: [...seen].filter(([, c]) => c > 1).map(([k, c]) => `${k} ×${c}`).slice(0, 10),
    wrong: [...seen.keys()].filter((k) => !expected.has(k)).slice(0, 10),
  };
}

describe(`async I/O exactly-once under failures (seed ${SEED})`, () => {
  for (const outputMode of ["ordered", "unordered"] as const) {
    it(`${outputMode}, in-process at parallelism 2: an injected failure with requests in flight loses and duplicates nothing`, async () => {
      const RECORDS = 4_000;
      const random = seededRandom(SEED + (outputMode === "ordered" ? 0 : 1));
      const failAt = randomInt(random, 1_000, 1_600);
      const log: string[] = [];
      const reopened: string[] = [];
      const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 5, mode: "exactly-once", log: (l) => log.push(l) });
      env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
      buildAsyncIo(env, { records: RECORDS, seed: SEED, outputMode, failAt, throttle: { perPoll: 20, pauseMs: 2 }, onReopen: (l) => reopened.push(l) });
      const result = await env.execute(`async-io-${outputMode}`);
      const got = collectedEnriched(result);
      const context = `${repro} (fail at ${failAt})\nlog:\n${log.join("\n")}`;
      expect(log.join("\n"), context).toMatch(/injected failure at record \d+/);
      expect(result.restarts, context).toBe(1);
      expect(reopened, context).toEqual(["enrich 0 attempt 1", "enrich 1 attempt 1"]);
      expect(diff(RECORDS, got), context).toEqual({ missing: [], duplicated: [], wrong: [] });
      expect(got.length, context).toBe(RECORDS);
      expect(got.some(([, , attempts]) => attempts > 1), `${context}\nno request was retried: the test proves nothing`).toBe(true);
    });
  }

  it("unordered, `weir run` on 2 workers killed with SIGKILL and restarted: the output of the last run is exact", async () => {
    const RECORDS = 8_000;
    const random = seededRandom(SEED + 2);
    const failAt = randomInt(random, 1_500, 2_500);
    const checkpoints = tempDir();
    const command = [
      "run", "test/fixtures/async-io-job.ts",
      "--parallelism", "2", "--workers", "2", "--checkpoint-interval", "10", "--mode", "exactly-once", "--checkpoint-dir", checkpoints,
      "--", String(RECORDS), String(SEED), String(failAt), "unordered", "10", "5",
    ];
    const report = await killLoop({ command, checkpointDir: checkpoints, kills: 2, random, delayMs: [0, 300], timeoutMs: 90_000 });
    const context = `${repro} (fail at ${failAt}, kills ${JSON.stringify(report.kills)})\nstderr of the runs:\n${report.stderrs.join("\n---\n")}`;
    expect(report.kills.length, `${context}\na run finished before it was killed`).toBe(2);
    expect(report.last.code, context).toBe(0);
    expect(report.last.stderr, context).toMatch(/restored from checkpoint \d+/);
    const { enriched } = jsonResult<{ enriched: Enriched[]; restarts: number }>(report.last);
    expect(diff(RECORDS, enriched), context).toEqual({ missing: [], duplicated: [], wrong: [] });
    expect(enriched.length, context).toBe(RECORDS);
  }, 150_000);
});
