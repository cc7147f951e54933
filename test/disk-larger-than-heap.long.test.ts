/**
 * Keyed state larger than the heap, as a user runs it: `weir run
 * --state-backend disk` in a process whose V8 heap is limited to 64 MB keeps
 * over 5× that much keyed state, checkpoints it, is killed with SIGKILL after
 * a checkpoint that holds all of it, and restarts with its local store
 * deleted, restoring everything from the checkpoint files, to the exact
 * output of a failure-free run. Then local recovery: a job whose state is
 * ten times its cache is killed after a checkpoint and restarts from its
 * local store, reading no checkpoint file.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSystemCheckpointStorage } from "../src/checkpoint/storage/filesystem-storage.ts";
import { finish, latestCheckpointId } from "./support/e2e-kill-loop.ts";
import { startCli, waitFor, type RunningCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const newDir = tempDirs("weir-big-state-");
const HEAP_MB = 64;
const KEYS = 110_000;
const PAYLOAD = 3_100; // KEYS × PAYLOAD = 341 MB of state, 5.3× the heap
const PASSES = 2;
const NODE_OPTIONS = `--max-old-space-size=${HEAP_MB}`;

/** Bytes of keyed state in the newest completed checkpoint (the chain files of operator big-state). */
async function checkpointedStateBytes(dir: string): Promise<number> {
  const storage = new FileSystemCheckpointStorage({ directory: dir, retained: 1, log: () => {} });
  const all = await storage.listCompleted().catch(() => []);
  const newest = all[all.length - 1];
  if (!newest) return 0;
  return newest.states.filter((s) => s.operatorUid === "big-state").reduce((n, s) => n + (s.shared ?? []).reduce((m, r) => m + r.size, 0), 0);
}

function committedLines(dir: string): { key: number; n: number; len: number }[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith("part-"))
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l !== ""))
    .map((l) => JSON.parse(l) as { key: number; n: number; len: number });
}

describe("disk state backend: state larger than the heap", () => {
  it(`a job keeps ${(KEYS * PAYLOAD) / 1e6} MB of keyed state with a ${HEAP_MB} MB heap, is killed and restores from the checkpoint`, async () => {
    const root = newDir();
    const checkpoints = join(root, "chk");
    const output = join(root, "out");
    const args = ["run", "test/fixtures/big-state-job.ts", "--workers", "0", "--checkpoint-interval", "500", "--checkpoint-dir", checkpoints, "--", output, String(KEYS), String(PAYLOAD), String(PASSES)];
    const start = (): RunningCli => startCli(args, { NODE_OPTIONS });

    // Run 1: killed once a checkpoint holds the whole state: the first committed output of the last pass
    // means its checkpoint came after every key's first payload.
    const first = start();
    await waitFor("a checkpoint after the first pass", () => {
      if (first.child.exitCode !== null) throw new Error(`the job ended before it was killed:\n${first.stderr()}`);
      return existsSync(output) && committedLines(output).length > 0;
    }, 240_000, 100);
    first.child.kill("SIGKILL");
    await first.done;
    expect(await checkpointedStateBytes(checkpoints), "the checkpoint holds over 5× the heap").toBeGreaterThan(5 * HEAP_MB * 2 ** 20);

    // Run 2: from the checkpoint files alone (the local store deleted), to the end.
    rmSync(`${checkpoints}.local`, { recursive: true, force: true });
    const second = await finish(start(), 300_000);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/restored from checkpoint/);
    expect(second.stderr).not.toMatch(/from the local store/);

    const lines = committedLines(output);
    expect(lines.length, "one line per key").toBe(KEYS);
    expect(new Set(lines.map((l) => l.key)).size).toBe(KEYS);
    expect(lines.every((l) => l.n === PASSES && l.len === PAYLOAD)).toBe(true);
  }, 600_000);

  it("a job killed after a checkpoint restarts from its local store (writes since went to the store too)", async () => {
    const root = newDir();
    const checkpoints = join(root, "chk");
    const output = join(root, "out");
    const keys = 20_000; // ten times the job's cache of 2 000 entries: evictions write to the store all the time
    const passes = 15;
    const args = ["run", "test/fixtures/big-state-job.ts", "--workers", "0", "--checkpoint-interval", "2000", "--checkpoint-dir", checkpoints, "--", output, String(keys), "100", String(passes)];
    const first = startCli(args);
    await waitFor("a first checkpoint", () => {
      if (first.child.exitCode !== null) throw new Error(`the job ended before it was killed:\n${first.stderr()}`);
      return latestCheckpointId(checkpoints) > 0;
    }, 120_000, 5);
    first.child.kill("SIGKILL"); // before the next snapshot (2 s away): the store's entries are exactly the checkpoint
    await first.done;
    const second = await finish(startCli(args), 300_000);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/keyed state of checkpoint \d+ from the local store/);
    const lines = committedLines(output);
    expect(lines.length, "one line per key").toBe(keys);
    expect(lines.every((l) => l.n === passes && l.len === 100)).toBe(true);
  }, 600_000);
});
