/**
 * A crash between a checkpoint's completion and the file sink's commit,
 * through the real command line: with WEIR_FAULT=kill-before-commit the
 * process SIGKILLs itself right after a checkpoint completed and before the
 * first commit of data; the checkpoint's records are still hidden. Started
 * again without the fault, the job commits them from the restored checkpoint
 * and the output holds every record exactly once. If the hidden files are
 * gone by then, the restarted job fails, naming the lost file.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, startCli } from "./support/cli-process.ts";
import { completedCheckpointIds, finish, latestCheckpointId } from "./support/e2e-kill-loop.ts";
import { committedTotals, describeDiff, diffTotals, expectedTotals, finalTallies, hiddenFiles, keySums, writeOrders } from "./support/e2e-orders.ts";
import { testSeed } from "../src/util/seeded-random.ts";

const SEED = testSeed();
const FILES = 4;
const PER_FILE = 10_000;

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Lines of the hidden (in-progress or pending) files in `dir`. */
function hiddenLines(dir: string): number {
  return hiddenFiles(dir).reduce((n, f) => n + readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l !== "").length, 0);
}

describe(`WEIR_FAULT=kill-before-commit through weir run (seed ${SEED})`, () => {
  it("dies after a checkpoint completed with its data uncommitted; the restart commits it exactly once", async () => {
    const root = mkdtempSync(join(tmpdir(), "weir-commit-crash-"));
    dirs.push(root);
    const [input, output, checkpoints] = ["in", "out", "chk"].map((d) => join(root, d)) as [string, string, string];
    const files = writeOrders(input, SEED, FILES, PER_FILE, 25);
    const where = `seed ${SEED} (WEIR_SEED=${SEED})`;
    const command = [
      "run", "test/fixtures/e2e-running-total-job.ts",
      "--parallelism", "2", "--workers", "2", "--checkpoint-interval", "100", "--mode", "exactly-once", "--checkpoint-dir", checkpoints,
      "--", input, output, "2000",
    ];

    const crashed = await finish(startCli(command, { WEIR_FAULT: "kill-before-commit" }), 60_000);
    expect(crashed.signal, `${where}: the run was not killed (exit ${crashed.code})\n${crashed.stderr}`).toBe("SIGKILL");
    const checkpoint = latestCheckpointId(checkpoints);
    expect(completedCheckpointIds(checkpoints).length, `${where}: no completed checkpoint before the kill`).toBeGreaterThan(0);
    const committedBefore = committedTotals(output).length;
    const pending = hiddenLines(output);
    expect(pending, `${where}: no pre-committed data in hidden files after checkpoint ${checkpoint}`).toBeGreaterThan(0);
    expect(committedBefore, `${where}: the records of checkpoint ${checkpoint} were committed before the kill`).toBeLessThan(FILES * PER_FILE);

    const restarted = await runCli(command, 60_000);
    expect(restarted.code, `${where}\n${restarted.stderr}`).toBe(0);
    expect(restarted.stderr, where).toMatch(new RegExp(`restored from checkpoint ${checkpoint} `));
    const actual = committedTotals(output);
    const diff = diffTotals(expectedTotals(files), actual);
    expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, `${where}: ${describeDiff(diff)}`).toBe(0);
    expect(finalTallies(actual), where).toEqual(keySums(files));
    expect(hiddenFiles(output), `${where}: hidden files left`).toEqual([]);
  });
});

describe("WEIR_FAULT=kill-before-commit, then the pending files are deleted", () => {
  it("the restarted job fails (PendingPartFileMissingError) naming the file, the sink uid and the checkpoint", async () => {
    const root = mkdtempSync(join(tmpdir(), "weir-commit-lost-"));
    dirs.push(root);
    const [output, checkpoints] = ["out", "chk"].map((d) => join(root, d)) as [string, string];
    const command = ["run", "test/fixtures/file-sink-lines-job.ts", "--checkpoint-interval", "100", "--checkpoint-dir", checkpoints, "--", output, "1000"];

    const crashed = await finish(startCli(command, { WEIR_FAULT: "kill-before-commit" }), 60_000);
    expect(crashed.signal, `the run was not killed (exit ${crashed.code})\n${crashed.stderr}`).toBe("SIGKILL");
    const pending = hiddenFiles(output);
    expect(pending.length, "no pending part file after the kill").toBeGreaterThan(0);
    for (const f of pending) rmSync(join(output, f));

    const restarted = await runCli(command, 60_000);
    expect(restarted.code, restarted.stderr).not.toBe(0);
    const restoredFrom = /restored from checkpoint (\d+) /.exec(restarted.stderr);
    expect(restoredFrom, restarted.stderr).not.toBeNull();
    const lost = /failed: file sink 'lines': the pending part file '([^']+)' of checkpoint (\d+) is missing and was never committed/.exec(restarted.stderr);
    expect(lost, restarted.stderr).not.toBeNull();
    expect(pending.map((f) => join(output, f))).toContain(lost![1]);
    expect(Number(lost![2])).toBeLessThanOrEqual(Number(restoredFrom![1]));
    expect(readdirSync(output)).toEqual([]);
  }, 90_000);
});
