/**
 * Rescaling through savepoints: `weir run` of the running-total job at
 * parallelism 2 on 2 workers is stopped mid-run with SIGINT (a savepoint,
 * sinks commit), then resumed from the savepoint at parallelism 3 and,
 * separately from a copy of the output, at parallelism 1. Either way every
 * order is in the committed output exactly once with the totals of a
 * failure-free run: no file split was read twice or skipped, and keyed state
 * moved to its new owners. A resume whose stateful operator changed its uid
 * fails naming the uid, unless --allow-non-restored-state.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli, waitFor } from "./support/cli-process.ts";
import { finish, latestCheckpointId } from "./support/e2e-kill-loop.ts";
import { committedTotals, describeDiff, diffTotals, expectedTotals, finalTallies, hiddenFiles, keySums, writeOrders, type E2eOrder } from "./support/e2e-orders.ts";
import { testSeed } from "../src/util/seeded-random.ts";

const SEED = testSeed();
const WHERE = `seed ${SEED} (WEIR_SEED=${SEED})`;
const FILES = 4;
const PER_FILE = 15_000;
const JOB = "test/fixtures/e2e-running-total-job.ts";
/** Busy-loop iterations per record: slow enough that the stop lands mid-run. */
const SPIN = "12000";

const root = mkdtempSync(join(tmpdir(), "weir-rescale-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const input = join(root, "in");
const stoppedOutput = join(root, "out-stopped");
let files: E2eOrder[][] = [];
let savepoint = "";

/** A copy of the output as it was when the job stopped, for one resumed run. */
function copyOfStoppedOutput(name: string): string {
  const dir = join(root, name);
  cpSync(stoppedOutput, dir, { recursive: true });
  return dir;
}

/** `weir run` arguments resuming from the savepoint into `output` at `parallelism`. */
function resume(output: string, parallelism: number, extra: { workers?: number; flags?: string[]; countUid?: string } = {}): string[] {
  return [
    "run", JOB, "--parallelism", String(parallelism), "--workers", String(extra.workers ?? Math.min(parallelism, 2)),
    "--checkpoint-interval", "200", "--checkpoint-dir", `${output}-chk`, "--from-savepoint", savepoint, ...(extra.flags ?? []),
    "--", input, output, "0", ...(extra.countUid ? [extra.countUid] : []),
  ];
}

/** Asserts that `output` holds exactly the output of a failure-free run. */
function expectExactOutput(output: string, what: string): void {
  const actual = committedTotals(output);
  const diff = diffTotals(expectedTotals(files), actual);
  expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, `${WHERE}, ${what}: ${describeDiff(diff)}`).toBe(0);
  expect(finalTallies(actual), `${WHERE}, ${what}: final count and total per key`).toEqual(keySums(files));
  expect(hiddenFiles(output), `${WHERE}, ${what}: hidden files left`).toEqual([]);
}

beforeAll(async () => {
  files = writeOrders(input, SEED, FILES, PER_FILE, 25);
  const checkpoints = join(root, "chk-stopped");
  const run = startCli([
    "run", JOB, "--parallelism", "2", "--workers", "2", "--checkpoint-interval", "200", "--checkpoint-dir", checkpoints,
    "--savepoint-dir", join(root, "savepoints"), "--", input, stoppedOutput, SPIN,
  ]);
  let ended = false;
  void run.done.then(() => (ended = true));
  await waitFor("a completed checkpoint of the first run", () => ended || latestCheckpointId(checkpoints) > 0, 60_000, 20);
  run.child.kill("SIGINT");
  const stopped = await finish(run, 60_000);
  expect(stopped.code, `${WHERE}: stop\n${stopped.stderr}`).toBe(0);
  const match = /stopped with savepoint (\S+)/.exec(stopped.stderr);
  expect(match, `${WHERE}: no savepoint reported\n${stopped.stderr}`).not.toBeNull();
  savepoint = match![1]!;
}, 90_000);

describe(`rescaling from a stop-with-savepoint (seed ${SEED})`, () => {
  it("stopped mid-run: part of the output committed, nothing hidden", () => {
    const committed = committedTotals(stoppedOutput).length;
    expect(committed, `${WHERE}: the job finished before the stop`).toBeLessThan(FILES * PER_FILE);
    expect(hiddenFiles(stoppedOutput), `${WHERE}: the stop left uncommitted files`).toEqual([]);
  });

  it("resumed at parallelism 3: every order exactly once, exact totals", async () => {
    const output = copyOfStoppedOutput("out-p3");
    const r = await runCli(resume(output, 3), 60_000);
    expect(r.code, `${WHERE}\n${r.stderr}`).toBe(0);
    expect(r.stderr, WHERE).toMatch(/restored from savepoint \d+/);
    expectExactOutput(output, "parallelism 3");
    expect(readdirSync(output).filter((n) => n.startsWith("part-totals-2-")).length, `${WHERE}: no part file of the third sink subtask`).toBeGreaterThan(0);
  });

  it("resumed at parallelism 1: every order exactly once, exact totals", async () => {
    const output = copyOfStoppedOutput("out-p1");
    const r = await runCli(resume(output, 1), 60_000);
    expect(r.code, `${WHERE}\n${r.stderr}`).toBe(0);
    expectExactOutput(output, "parallelism 1");
  });

  it("a changed uid of the stateful operator fails with a message naming the uid (all tasks in the main thread)", async () => {
    const r = await runCli(resume(copyOfStoppedOutput("out-uid-refused-w0"), 2, { countUid: "running-total-v2", workers: 0 }), 30_000);
    expect(r.code, `${WHERE}\n${r.stderr}`).toBe(1);
    expect(r.stderr, WHERE).toMatch(/savepoint \d+ \(.*\) has state for operator uid 'running-total'.*--allow-non-restored-state/);
  });

  it("with worker threads, a refused restore exits 1 instead of hanging", async () => {
    const run = startCli(resume(copyOfStoppedOutput("out-uid-refused"), 2, { countUid: "running-total-v2" }));
    await waitFor("the refusal on stderr", () => /has state for operator uid 'running-total'/.test(run.stderr()), 30_000, 20);
    const r = await finish(run, 5_000);
    expect(r.code, `${WHERE}\n${r.stderr}`).toBe(1);
  });

  it("--allow-non-restored-state drops the state of the missing uid and resumes the rest", async () => {
    const allowed = copyOfStoppedOutput("out-uid-allowed");
    const before = committedTotals(allowed);
    const a = await runCli(resume(allowed, 2, { countUid: "running-total-v2", flags: ["--allow-non-restored-state"] }), 60_000);
    expect(a.code, `${WHERE}\n${a.stderr}`).toBe(0);
    expect(a.stderr, WHERE).toMatch(/skipping state of 'running-total'/);
    // Source positions and sink state were restored: every order once.
    const after = committedTotals(allowed);
    const diff = diffTotals(expectedTotals(files), after);
    expect(diff.missing.length + diff.duplicated.length, `${WHERE}: ${describeDiff(diff)}`).toBe(0);
    // The tallies restarted from zero: each new record counts only what came after the stop.
    const atStop = finalTallies(before);
    const expected = expectedTotals(files);
    const seen = new Set(before.map((r) => r.id));
    const offByState = after
      .filter((r) => !seen.has(r.id))
      .filter((r) => {
        const e = expected.get(r.id)!;
        const s = atStop.get(r.key) ?? { count: 0, total: 0 };
        return r.count !== e.count - s.count || r.total !== e.total - s.total;
      });
    expect(offByState, `${WHERE}: records not counted from an empty state`).toEqual([]);
  });
});
