/**
 * Exactly-once through real crashes with incremental checkpoints: `weir run`
 * of the running-total job at parallelism 2 on 2 workers, its keyed state
 * checkpointed as chains of shared files (a base and deltas), is SIGKILLed at
 * four seeded random moments and restarted with the same command until a run
 * finishes. Every restart restores a chain that earlier runs wrote (and
 * retention and shared-file cleanup were cut short by the kills); the
 * committed output then equals a failure-free run's. A short variant of
 * test/kill-loop.test.ts, for each of INCREMENTAL_CASES. Reproduce a failure
 * with WEIR_SEED=<seed>.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSystemCheckpointStorage } from "../src/checkpoint/storage/filesystem-storage.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { DISK_CASE, INCREMENTAL_CASES, keyedStates, runningTotalArgs } from "./support/e2e-incremental.ts";
import { killLoop } from "./support/e2e-kill-loop.ts";
import { committedTotals, describeDiff, diffTotals, expectedTotals, finalTallies, hiddenFiles, keySums, writeOrders } from "./support/e2e-orders.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const SEED = testSeed();
const FILES = 4;
const PER_FILE = 15_000;
const KEYS_PER_FILE = 1000;
/** Busy-loop iterations per record: a failure-free run takes several seconds, so all kills land mid-run (each run first waits for a checkpoint). */
const SPIN = "6000";
const KILLS = 4;
const RETAINED = 2;

const newDir = tempDirs("weir-incremental-kill-loop-");

describe(`weir run with incremental checkpoints killed at random moments (seed ${SEED})`, () => {
  for (const c of [...INCREMENTAL_CASES, DISK_CASE]) {
    it(`${c.name}: the committed output equals a failure-free run's`, async () => {
      const root = newDir();
      const [input, output, checkpoints] = ["in", "out", "chk"].map((d) => join(root, d)) as [string, string, string];
      const files = writeOrders(input, SEED, FILES, PER_FILE, KEYS_PER_FILE);
      const random = seededRandom(SEED);
      const interval = randomInt(random, 50, 150);
      const command = [
        "run", "test/fixtures/e2e-running-total-job.ts", "--parallelism", "2", "--workers", "2",
        "--checkpoint-interval", String(interval), "--checkpoint-dir", checkpoints, ...(c.flags ?? []),
        "--", ...runningTotalArgs(c, input, output, SPIN, RETAINED),
      ];
      const report = await killLoop({ command, checkpointDir: checkpoints, kills: KILLS, random, delayMs: [0, 400], timeoutMs: 60_000 });
      const where = `${c.name}, seed ${SEED} (WEIR_SEED=${SEED}), checkpoint interval ${interval} ms, kills ${JSON.stringify(report.kills)}`;

      expect(report.kills.length, `${where}: a run finished before ${KILLS} kills`).toBe(KILLS);
      expect(report.last.code, `${where}: last run\n${report.last.stderr}`).toBe(0);
      expect(report.last.stderr, `${where}: the last run did not restore`).toMatch(/restored from checkpoint \d+/);
      const actual = committedTotals(output);
      const diff = diffTotals(expectedTotals(files), actual);
      expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, `${where}: ${describeDiff(diff)}`).toBe(0);
      expect(finalTallies(actual), `${where}: last count and total per key`).toEqual(keySums(files));
      expect(hiddenFiles(output), `${where}: in-progress files left`).toEqual([]);

      // The checkpoints were incremental, and only what the retained ones reference is left in shared/.
      const retained = await new FileSystemCheckpointStorage({ directory: checkpoints, retained: RETAINED, log: () => {} }).listCompleted();
      const keyed = retained.flatMap(keyedStates);
      expect(keyed.length > 0 && keyed.every((s) => (s.shared?.length ?? 0) > 0), `${where}: keyed states without shared files`).toBe(true);
      const referenced = new Set(retained.flatMap((r) => r.states.flatMap((s) => (s.shared ?? []).map((ref) => ref.path.split("/").pop()!))));
      expect(readdirSync(join(checkpoints, "shared")).filter((f) => !f.startsWith(".")).sort(), `${where}: unreferenced shared files`).toEqual([...referenced].sort());
    }, 120_000);
  }
});
