/**
 * A real crash: `weir run` of a slow keyed job with filesystem checkpoints is
 * killed with SIGKILL after a checkpoint completed; the same command started
 * again resumes from the latest checkpoint and ends with exact per-key
 * counts. `--fresh` ignores the checkpoints.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonResult, runCli, startCli, waitFor } from "./support/cli-process.ts";
import { expectedCounts, type Counts } from "./fixtures/keyed-count.ts";

const RECORDS = 200_000;
const KEYS = 10;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Ids of the completed checkpoints (`chk-N/_metadata`) in `directory`, ascending. */
function completedIds(directory: string): number[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((n) => /^chk-\d+$/.test(n) && existsSync(join(directory, n, "_metadata")))
    .map((n) => Number(n.slice(4)))
    .sort((a, b) => a - b);
}

describe("crash and restart of weir run", () => {
  const directory = mkdtempSync(join(tmpdir(), "weir-crash-"));
  dirs.push(directory);
  // 200 000 numbers read 100 per poll with 2 ms pauses: a few seconds of input.
  const command = [
    "run", "test/fixtures/keyed-count-job.ts",
    "--parallelism", "4", "--workers", "2", "--checkpoint-interval", "100", "--mode", "exactly-once", "--checkpoint-dir", directory,
    "--", String(RECORDS), String(KEYS), "0", "100", "2",
  ];

  it("resumes from the latest completed checkpoint after SIGKILL with exact counts", async () => {
    const first = startCli(command);
    try {
      await waitFor("a completed checkpoint", () => completedIds(directory).length > 0 || first.child.exitCode !== null, 30_000);
    } finally {
      first.child.kill("SIGKILL");
    }
    const killed = await first.done;
    expect(killed.signal, `the job ended before it was killed:\n${killed.stderr}`).toBe("SIGKILL");
    expect(killed.stdout).toBe("");
    const latest = completedIds(directory).at(-1)!;

    const second = await runCli(command, 60_000);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(new RegExp(`restored from checkpoint ${latest} \\(${directory.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    const { counts, restoredFrom, restarts } = jsonResult<{ counts: Counts; restoredFrom: number | null; restarts: number }>(second);
    expect(restoredFrom).toBe(latest);
    expect(restarts).toBe(0);
    expect(counts).toEqual(expectedCounts(RECORDS, KEYS));
  });

  it("--fresh ignores the checkpoints and starts over", async () => {
    expect(completedIds(directory).length).toBeGreaterThan(0);
    const fresh = await runCli([...command.slice(0, 2), "--fresh", ...command.slice(2)], 60_000);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).not.toMatch(/restored from checkpoint/);
    const { counts, restoredFrom } = jsonResult<{ counts: Counts; restoredFrom: number | null }>(fresh);
    expect(restoredFrom).toBeNull();
    expect(counts).toEqual(expectedCounts(RECORDS, KEYS));
  });
});
