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
import { testSeed } from "../src/util/seeded-random.ts";
import { DISK_CASE, INCREMENTAL_CASES, keyedStates, runningTotalArgs } from "./support/e2e-incremental.ts";
import { committedTotals, describeDiff, diffTotals, expectedTotals, finalTallies, keySums } from "./support/e2e-orders.ts";
import { runningTotalCrashLoop } from "./support/running-total-crash-loop.ts";

const SEED = testSeed();
const FILES = 4;
const PER_FILE = 15_000;
const KEYS_PER_FILE = 1000;
/** Busy-loop iterations per record (killed runs also wait 1 ms a record until the loop writes the gate before the last run, so none can finish first). */
const SPIN = "6000";
const KILLS = 4;
const RETAINED = 2;

describe(`weir run with incremental checkpoints killed at random moments (seed ${SEED})`, () => {
  for (const c of [...INCREMENTAL_CASES, DISK_CASE]) {
    it(`${c.name}: the committed output equals a failure-free run's`, async () => {
      const { files, output, checkpoints, where } = await runningTotalCrashLoop({
        seed: SEED, kills: KILLS, input: [FILES, PER_FILE, KEYS_PER_FILE], intervalMs: [50, 150], flags: c.flags, timeoutMs: 60_000,
        jobArgs: (input, out, gate) => runningTotalArgs(c, input, out, SPIN, RETAINED, gate),
      });
      const context = `${c.name}, ${where}`;
      const actual = committedTotals(output);
      const diff = diffTotals(expectedTotals(files), actual);
      expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, `${context}: ${describeDiff(diff)}`).toBe(0);
      expect(finalTallies(actual), `${context}: last count and total per key`).toEqual(keySums(files));

      // The checkpoints were incremental, and only what the retained ones reference is left in shared/.
      const retained = await new FileSystemCheckpointStorage({ directory: checkpoints, retained: RETAINED, log: () => {} }).listCompleted();
      const keyed = retained.flatMap(keyedStates);
      expect(keyed.length > 0 && keyed.every((s) => (s.shared?.length ?? 0) > 0), `${context}: keyed states without shared files`).toBe(true);
      const referenced = new Set(retained.flatMap((r) => r.states.flatMap((s) => (s.shared ?? []).map((ref) => ref.path.split("/").pop()!))));
      expect(readdirSync(join(checkpoints, "shared")).filter((f) => !f.startsWith(".")).sort(), `${context}: unreferenced shared files`).toEqual([...referenced].sort());
    }, 120_000);
  }
});
