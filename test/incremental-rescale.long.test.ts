/**
 * Rescaling and resuming from incremental checkpoints, end to end: `weir run`
 * of the running-total job at parallelism 2 on 2 workers with incremental
 * checkpoints is SIGKILLed once its newest checkpoint reuses shared files of
 * earlier ones (a base and deltas in `<checkpoint-dir>/shared/`). Then:
 *
 * - `--from-savepoint <checkpoint-dir>/chk-N` (a retained checkpoint, not a
 *   savepoint: its refs `../shared/…` resolve in the job's directory) at
 *   parallelism 3 into a copy of the output at the kill: the committed output
 *   equals a failure-free run's, and the new run's checkpoints stand alone;
 * - the same at parallelism 1, into another copy, stopped with SIGINT once
 *   its own checkpoints are incremental: the stop's savepoint is full (its
 *   refs designate its own copies only) and restores at parallelism 2 after
 *   that run's checkpoint directory is deleted: exact output again;
 * - an older retained checkpoint restores too, into the same checkpoint
 *   directory at the same parallelism (the restored chains are continued),
 *   killed once more and restarted: every record is there with the totals of a
 *   failure-free run, and the only duplicates are what the killed run had
 *   committed after that checkpoint (a file sink cannot take back committed
 *   files); afterwards `shared/` holds only files that retained checkpoints
 *   reference.
 *
 * Runs for each of INCREMENTAL_CASES. Reproduce a failure with WEIR_SEED=<seed>.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FileSystemCheckpointStorage } from "../src/checkpoint/storage/filesystem-storage.ts";
import { readSavepoint } from "../src/checkpoint/savepoint/savepoint.ts";
import type { CompletedCheckpoint } from "../src/checkpoint/types.ts";
import { testSeed } from "../src/util/seeded-random.ts";
import { runCli, startCli, waitFor, type RunningCli } from "./support/cli-process.ts";
import { finish, latestCheckpointId } from "./support/e2e-kill-loop.ts";
import {
  describeChains,
  INCREMENTAL_CASES,
  keyedStates,
  latestCheckpointMetadata,
  refsOutside,
  reusesEarlierFiles,
  runningTotalArgs,
  type IncrementalCase,
} from "./support/e2e-incremental.ts";
import { committedTotals, describeDiff, diffTotals, expectedTotals, expectExactOutput, finalTallies, hiddenFiles, keySums, writeOrders, type E2eOrder } from "./support/e2e-orders.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const SEED = testSeed();
const FILES = 4;
const PER_FILE = 30_000;
/** Keys per file (each key lives in one file): once a file is read, its keys are in the base only, so deltas hold a part of the keys. */
const KEYS_PER_FILE = 1000;
const JOB = "test/fixtures/e2e-running-total-job.ts";
/** Busy-loop iterations per record of the first runs: a failure-free one takes about 30 s, so the kill and the stop land mid-run. */
const SPIN = "10000";
const RETAINED = 3;
const INTERVAL = "100";

const newDir = tempDirs("weir-incremental-rescale-");

/** What a killed or stopped first run left: its input, output and checkpoint directory. */
interface FirstRun {
  readonly root: string;
  readonly input: string;
  readonly output: string;
  readonly checkpoints: string;
  readonly files: E2eOrder[][];
}

/** Writes the input and starts the first run (parallelism 2, 2 workers) of case `c`. */
function startFirstRun(c: IncrementalCase): { first: FirstRun; run: RunningCli } {
  const root = newDir();
  const [input, output, checkpoints] = ["in", "out", "chk"].map((d) => join(root, d)) as [string, string, string];
  const files = writeOrders(input, SEED, FILES, PER_FILE, KEYS_PER_FILE);
  const run = startCli([
    "run", JOB, "--parallelism", "2", "--workers", "2", "--checkpoint-interval", INTERVAL, "--checkpoint-dir", checkpoints,
    ...(c.flags ?? []), "--", ...runningTotalArgs(c, input, output, SPIN, RETAINED),
  ]);
  return { first: { root, input, output, checkpoints, files }, run };
}

/**
 * Waits until the run's newest checkpoint reuses files of earlier ones (so
 * at least two checkpoints completed and are retained) and has an id of at
 * least `minId`. With `freeze`, leaves
 * the run stopped (SIGSTOP) at a moment when that is still true: the caller
 * kills it with exactly such a newest checkpoint on disk.
 */
async function waitForIncrementalCheckpoint(run: RunningCli, checkpoints: string, where: string, minId: number, freeze = false): Promise<void> {
  let ended = false;
  void run.done.then(() => (ended = true));
  const ready = () => {
    const latest = latestCheckpointMetadata(checkpoints);
    return latest !== null && latest.checkpointId >= minId && reusesEarlierFiles(latest);
  };
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      await waitFor(`an incremental checkpoint in ${checkpoints}`, () => ended || ready(), deadline - Date.now(), 10);
      if (ended || !freeze) break;
      run.child.kill("SIGSTOP");
      await waitFor(`the run to stop (SIGSTOP)`, () => isStopped(run.child.pid!), 10_000, 5);
      if (ready()) break; // else a newer checkpoint (a new base) completed meanwhile
      run.child.kill("SIGCONT");
    }
  } catch (e) {
    run.child.kill("SIGKILL");
    throw new Error(`${where}: ${(e as Error).message}\nstderr:\n${run.stderr()}`);
  }
  expect(ended, `${where}: the run ended before an incremental checkpoint\n${run.stderr()}`).toBe(false);
}

/** True when process `pid` is stopped by a signal (read from /proc on Linux; assumed where there is no /proc). */
function isStopped(pid: number): boolean {
  try {
    return /^\d+ \(.*\) [Tt] /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** A copy of `dir` named `name` next to it. */
function copyOf(dir: string, name: string): string {
  const copy = join(dir, "..", name);
  cpSync(dir, copy, { recursive: true });
  return copy;
}

/** Every retained checkpoint of `directory` reads and verifies (its state files and every shared file it references). */
async function expectRetainedVerify(directory: string, where: string): Promise<CompletedCheckpoint[]> {
  const retained = await new FileSystemCheckpointStorage({ directory, retained: RETAINED, log: () => {} }).listCompleted();
  expect(retained.length, `${where}: no checkpoint in ${directory}`).toBeGreaterThan(0);
  for (const c of retained) await expect(readSavepoint(c.directory!), `${where}: chk-${c.checkpointId}`).resolves.toBeDefined();
  return retained;
}

/**
 * `weir run` arguments of case `c` resuming from `from` (or the newest
 * checkpoint in `checkpoints`) into `output` at `parallelism`; a stop by
 * signal writes its savepoint into `<root>/savepoints`. A gated run (slow
 * until `gate` exists) sends small batches: its barriers then wait behind a
 * few slow records, not thousands, so it checkpoints often before its input
 * runs out (with 512-record batches a run holding 13 000 records once
 * finished after three checkpoints, too few to be incremental).
 */
function resumeArgs(c: IncrementalCase, first: FirstRun, from: string | undefined, output: string, checkpoints: string, parallelism: number, workers: number, spin: string, gate?: string): string[] {
  return [
    "run", JOB, "--parallelism", String(parallelism), "--workers", String(workers),
    "--checkpoint-interval", INTERVAL, "--checkpoint-dir", checkpoints, "--savepoint-dir", join(first.root, "savepoints"),
    ...(from ? ["--from-savepoint", from] : []), ...(gate === undefined ? [] : ["-D", "weir.batch-size=16"]), ...(c.flags ?? []), "--", ...runningTotalArgs(c, first.input, output, spin, RETAINED, gate),
  ];
}

for (const c of INCREMENTAL_CASES) {
  describe(`${c.name}: resuming from retained incremental checkpoints and their savepoints at another parallelism (seed ${SEED})`, () => {
    const where = `${c.name}, seed ${SEED} (WEIR_SEED=${SEED})`;
    let first: FirstRun;
    /** The retained checkpoints after the kill, oldest first. */
    let retained: CompletedCheckpoint[] = [];
    /** What the killed run had committed. */
    let committedAtKill = 0;

    /**
     * `weir run` arguments resuming from `from` into `output` at `parallelism`
     * on `workers` worker threads (the resumes vary them: 0 runs all tasks in
     * the main thread), checkpointing into `checkpoints`; with `gate`, the job
     * is slow until that file exists.
     */
    const resume = (from: string | undefined, output: string, checkpoints: string, parallelism: number, workers: number, spin = "0", gate?: string) =>
      resumeArgs(c, first, from, output, checkpoints, parallelism, workers, spin, gate);

    beforeAll(async () => {
      const started = startFirstRun(c);
      first = started.first;
      await waitForIncrementalCheckpoint(started.run, first.checkpoints, where, RETAINED, true);
      started.run.child.kill("SIGKILL");
      const killed = await started.run.done;
      expect(killed.signal, `${where}: first run\n${killed.stderr}`).toBe("SIGKILL");
      retained = await new FileSystemCheckpointStorage({ directory: first.checkpoints, retained: RETAINED, log: () => {} }).listCompleted();
      committedAtKill = committedTotals(first.output).length;
    }, 90_000);

    it("the killed run left retained checkpoints whose keyed state is a chain of shared files", () => {
      expect(committedAtKill, `${where}: the first run finished before the kill`).toBeLessThan(FILES * PER_FILE);
      expect(retained.length, `${where}: retained ${retained.map((r) => r.checkpointId).join(", ")}`).toBeGreaterThanOrEqual(2);
      const latest = retained.at(-1)!;
      expect(latest.checkpointId, where).toBe(latestCheckpointId(first.checkpoints));
      expect(keyedStates(latest).length, `${where}: ${describeChains(latest)}`).toBe(2);
      expect(reusesEarlierFiles(latest), `${where}: the newest checkpoint does not reuse earlier files: ${describeChains(latest)}`).toBe(true);
      for (const r of retained) {
        expect(keyedStates(r).every((s) => s.shared?.every((ref) => ref.path.startsWith("../shared/"))), `${where}: ${describeChains(r)}`).toBe(true);
      }
    });

    it("the newest checkpoint directory restores at parallelism 3: exact output", async () => {
      const latest = retained.at(-1)!;
      const output = copyOf(first.output, "out-p3");
      const checkpoints = join(first.root, "chk-p3");
      const r = await runCli(resume(latest.directory, output, checkpoints, 3, 2), 60_000);
      expect(r.code, `${where}\n${r.stderr}`).toBe(0);
      expect(r.stderr, where).toContain(`restored from checkpoint ${latest.checkpointId} (${latest.directory}`);
      expectExactOutput(first.files, output, `${where}, from ${describeChains(latest)} at parallelism 3`);
      expect(readdirSync(output).filter((n) => n.startsWith("part-totals-2-")).length, `${where}: no part file of the third sink subtask`).toBeGreaterThan(0);
      // The new run's checkpoints stand alone: none references the first run's shared files.
      await expectRetainedVerify(checkpoints, `${where}, checkpoints of the run at parallelism 3`);
    });

    it("the newest checkpoint directory restores at parallelism 1; that run's stop writes a full savepoint, which restores at parallelism 2 without any checkpoint directory: exact output", async () => {
      const latest = retained.at(-1)!;
      const output = copyOf(first.output, "out-p1");
      const checkpoints = join(first.root, "chk-p1");
      // Slow until the test opens its gate (once it stopped): it is stopped mid-run once its own checkpoints are incremental.
      const gate = join(first.root, "gate-p1");
      const run = startCli(resume(latest.directory, output, checkpoints, 1, 1, "0", gate));
      await waitForIncrementalCheckpoint(run, checkpoints, `${where}, run at parallelism 1`, 0);
      run.child.kill("SIGINT");
      // the gate opens only once it stopped: opened earlier, a quiet machine may finish the input before the stop
      const stopped = await finish(run, 60_000);
      writeFileSync(gate, "");
      expect(stopped.code, `${where}: stop\n${stopped.stderr}`).toBe(0);
      expect(stopped.stderr, where).toContain(`restored from checkpoint ${latest.checkpointId} (${latest.directory}`);
      const match = /stopped with savepoint (\S+)/.exec(stopped.stderr);
      expect(match, `${where}: no savepoint reported\n${stopped.stderr}`).not.toBeNull();
      const savepoint = match![1]!;
      expect(committedTotals(output).length, `${where}: the run at parallelism 1 finished before the stop (the first run had committed ${committedAtKill} totals when killed)\n${stopped.stderr}`).toBeLessThan(FILES * PER_FILE);

      const written = await readSavepoint(savepoint);
      expect(written.savepoint, where).toBe(true);
      expect(keyedStates(written).length, where).toBe(1);
      expect(refsOutside(written, savepoint), `${where}: savepoint refs outside ${savepoint}`).toEqual([]);

      rmSync(checkpoints, { recursive: true, force: true });
      rmSync(`${checkpoints}.local`, { recursive: true, force: true });
      const r = await runCli(resume(savepoint, output, join(first.root, "chk-from-savepoint"), 2, 0), 60_000);
      expect(r.code, `${where}\n${r.stderr}`).toBe(0);
      expect(r.stderr, where).toContain(`restored from savepoint ${written.checkpointId} (${savepoint}`);
      expectExactOutput(first.files, output, `${where}, from ${describeChains(latest)} at parallelism 1, then from savepoint ${written.checkpointId} at parallelism 2`);
    });

    it("an older retained checkpoint restores into its own directory, and the continued chains survive another kill", async () => {
      const older = retained[0]!;
      const newest = retained.at(-1)!.checkpointId;
      const output = copyOf(first.output, "out-older");
      const checkpoints = copyOf(first.checkpoints, "chk-older");
      const from = join(checkpoints, `chk-${older.checkpointId}`);
      const what = `${where}, from the older ${describeChains(older)} (newest was ${newest})`;
      // Slow (spin) so that it is killed mid-run after a checkpoint of its own.
      const run = startCli(resume(from, output, checkpoints, 2, 0, SPIN));
      let ended = false;
      void run.done.then(() => (ended = true));
      await waitFor(`a checkpoint after ${newest} in ${checkpoints}`, () => ended || latestCheckpointId(checkpoints) > newest, 60_000, 10);
      expect(ended, `${what}: the resumed run ended before a checkpoint of its own\n${run.stderr()}`).toBe(false);
      run.child.kill("SIGKILL");
      const killed = await run.done;
      expect(killed.stderr, what).toContain(`restored from checkpoint ${older.checkpointId} (${from}`);
      // Its own checkpoints continue the older chains or start new ones, never reference a later checkpoint's files.
      const own = (await new FileSystemCheckpointStorage({ directory: checkpoints, retained: RETAINED, log: () => {} }).listCompleted()).filter((k) => k.checkpointId > newest);
      expect(own.length, what).toBeGreaterThan(0);
      const olderFiles = new Set(keyedStates(older).flatMap((s) => (s.shared ?? []).map((ref) => ref.path)));
      for (const k of own) {
        const earlier = keyedStates(k).flatMap((s) => (s.shared ?? []).filter((ref) => ref.checkpointId <= newest).map((ref) => ref.path));
        expect(earlier.filter((path) => !olderFiles.has(path)), `${what}: ${describeChains(k)} references files the restored checkpoint does not`).toEqual([]);
      }
      // Restarted as after a crash: from the resumed run's own newest checkpoint.
      const again = resume(undefined, output, checkpoints, 2, 1);
      const r = await finish(startCli(again), 60_000);
      expect(r.code, `${what}\n${r.stderr}`).toBe(0);
      expect(r.stderr, what).toMatch(new RegExp(`restored from checkpoint (\\d+)`));
      expect(Number(/restored from checkpoint (\d+)/.exec(r.stderr)![1]), `${what}: the restart did not restore the resumed run's checkpoint`).toBeGreaterThan(newest);

      // Rewound to the older checkpoint: what the killed first run committed after it comes again, nothing else.
      const actual = committedTotals(output);
      const diff = diffTotals(expectedTotals(first.files), actual);
      expect(diff.missing.length + diff.wrong.length, `${what}: ${describeDiff(diff)}`).toBe(0);
      const committedByFirst = new Set(committedTotals(first.output).map((t) => t.id));
      expect(diff.duplicated.filter((id) => !committedByFirst.has(id)), `${what}: duplicates not committed by the first run`).toEqual([]);
      expect(new Set(diff.duplicated).size, `${what}: a record more than twice`).toBe(diff.duplicated.length);
      expect(finalTallies(actual), `${what}: final count and total per key`).toEqual(keySums(first.files));
      expect(hiddenFiles(output), `${what}: hidden files left`).toEqual([]);

      const kept = await expectRetainedVerify(checkpoints, what);
      const referenced = new Set(kept.flatMap((k) => k.states.flatMap((s) => (s.shared ?? []).map((ref) => ref.path.split("/").pop()!))));
      expect(readdirSync(join(checkpoints, "shared")).filter((f) => !f.startsWith(".")).sort(), `${what}: unreferenced shared files left`).toEqual([...referenced].sort());
    });
  });
}
