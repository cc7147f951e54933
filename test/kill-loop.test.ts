/**
 * Exactly-once through real crashes: `weir run` of FileSource → keyBy →
 * running total in keyed state → FileSink, at parallelism 2 on 2 workers, is
 * killed with SIGKILL at ten seeded random moments and restarted with the same
 * command until a run finishes. The committed part files then hold exactly the
 * output of a failure-free run (computed here from the input); in
 * at-least-once mode none is missing. Reproduce a failure with WEIR_SEED=<seed>.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killLoop, type KillLoopReport } from "./support/e2e-kill-loop.ts";
import { committedTotals, describeDiff, diffTotals, expectedTotals, finalTallies, hiddenFiles, keySums, writeOrders } from "./support/e2e-orders.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";

const SEED = testSeed();
const FILES = 4;
const PER_FILE = 25_000;
const KEYS_PER_FILE = 25;
/** Busy-loop iterations per record: a full run takes several seconds, so all four kills land mid-run (each run first waits for a checkpoint). */
const SPIN = "30000";
const KILLS = 4; // with the 2 × 4 kills of test/incremental-kill-loop.test.ts (heap incremental, disk)

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Writes the input, runs the crash loop in `mode`, and returns what the test asserts on. */
async function crashLoop(mode: "exactly-once" | "at-least-once", seed: number) {
  const root = mkdtempSync(join(tmpdir(), `weir-kill-loop-${mode}-`));
  dirs.push(root);
  const [input, output, checkpoints] = ["in", "out", "chk"].map((d) => join(root, d)) as [string, string, string];
  const files = writeOrders(input, seed, FILES, PER_FILE, KEYS_PER_FILE);
  const random = seededRandom(seed);
  const interval = randomInt(random, 100, 300);
  const command = [
    "run", "test/fixtures/e2e-running-total-job.ts",
    "--parallelism", "2", "--workers", "2", "--checkpoint-interval", String(interval), "--mode", mode, "--checkpoint-dir", checkpoints,
    "--", input, output, SPIN,
  ];
  const report = await killLoop({ command, checkpointDir: checkpoints, kills: KILLS, random, delayMs: [0, 400], timeoutMs: 90_000 });
  const where = `seed ${seed} (WEIR_SEED=${seed}), ${mode}, checkpoint interval ${interval} ms, kills ${JSON.stringify(report.kills)}`;
  return { files, output, report, where };
}

/** The assertions every mode shares: enough kills, a clean last run, no hidden file left. */
function expectCleanEnd(report: KillLoopReport, output: string, where: string): void {
  expect(report.kills.length, `${where}: a run finished before ${KILLS} kills`).toBe(KILLS);
  expect(report.last.code, `${where}: last run\n${report.last.stderr}`).toBe(0);
  expect(report.last.stderr, `${where}: the last run did not restore`).toMatch(/restored from checkpoint \d+/);
  expect(existsSync(output), where).toBe(true);
  expect(hiddenFiles(output), `${where}: in-progress files left`).toEqual([]);
}

describe(`weir run killed at random moments (seed ${SEED})`, () => {
  it("exactly-once: the committed output equals a failure-free run's, every key's last total is its sum", async () => {
    const { files, output, report, where } = await crashLoop("exactly-once", SEED);
    expectCleanEnd(report, output, where);
    const actual = committedTotals(output);
    const diff = diffTotals(expectedTotals(files), actual);
    expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, `${where}: ${describeDiff(diff)}`).toBe(0);
    expect(actual.length, where).toBe(FILES * PER_FILE);
    expect(finalTallies(actual), `${where}: last count and total per key`).toEqual(keySums(files));
  }, 150_000);

  it("at-least-once: no record is missing from the committed output", async () => {
    const { files, output, report, where } = await crashLoop("at-least-once", SEED + 1);
    expectCleanEnd(report, output, where);
    const diff = diffTotals(expectedTotals(files), committedTotals(output));
    expect(diff.missing, `${where}: ${describeDiff(diff)}`).toEqual([]);
  }, 150_000);
});
