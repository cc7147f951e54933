/**
 * The DataStream crash loop of the kill-loop suites: `weir run` of the running-total job (FileSource → keyBy →
 * running total in keyed state → FileSink) at parallelism 2 on 2 workers, SIGKILLed at seeded random moments and
 * restarted with the same command until a run finishes.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { killLoop, type KillLoopReport } from "./e2e-kill-loop.ts";
import { hiddenFiles, writeOrders, type E2eOrder } from "./e2e-orders.ts";
import { tempDirs } from "./temp-dirs.ts";
import { randomInt, seededRandom } from "../../src/util/seeded-random.ts";

const FILES = 4;
const PER_FILE = 25_000;
const KEYS_PER_FILE = 25;
/** Busy-loop iterations per record: a full run takes several seconds, so all kills land mid-run (each run first waits for a checkpoint). */
const SPIN = "30000";
/** Records of the input. */
export const CRASH_LOOP_RECORDS = FILES * PER_FILE;

const newDir = tempDirs("weir-kill-loop-");

/** What a crash loop left for the test to assert on. */
export interface CrashLoopResult {
  readonly files: E2eOrder[][];
  readonly output: string;
  readonly report: KillLoopReport;
  /** The seed, mode, interval and kills, for failure messages. */
  readonly where: string;
}

/** Writes the input, runs the crash loop in `mode` with `kills` kills, and checks that it ended cleanly. */
export async function runningTotalCrashLoop(mode: "exactly-once" | "at-least-once", seed: number, kills: number): Promise<CrashLoopResult> {
  const root = newDir();
  const [input, output, checkpoints] = ["in", "out", "chk"].map((d) => join(root, d)) as [string, string, string];
  const files = writeOrders(input, seed, FILES, PER_FILE, KEYS_PER_FILE);
  const random = seededRandom(seed);
  const interval = randomInt(random, 100, 300);
  const command = [
    "run", "test/fixtures/e2e-running-total-job.ts",
    "--parallelism", "2", "--workers", "2", "--checkpoint-interval", String(interval), "--mode", mode, "--checkpoint-dir", checkpoints,
    "--", input, output, SPIN,
  ];
  const report = await killLoop({ command, checkpointDir: checkpoints, kills, random, delayMs: [0, 400], timeoutMs: 90_000 });
  const where = `seed ${seed} (WEIR_SEED=${seed}), ${mode}, checkpoint interval ${interval} ms, kills ${JSON.stringify(report.kills)}`;
  expect(report.kills.length, `${where}: a run finished before ${kills} kills`).toBe(kills);
  expect(report.last.code, `${where}: last run\n${report.last.stderr}`).toBe(0);
  expect(report.last.stderr, `${where}: the last run did not restore`).toMatch(/restored from checkpoint \d+/);
  expect(existsSync(output), where).toBe(true);
  expect(hiddenFiles(output), `${where}: in-progress files left`).toEqual([]);
  return { files, output, report, where };
}
