/**
 * Failures that never go away, as a user of `weir run` meets them: the cause
 * (task, subtask, error, input position) is printed on every restart, the
 * repetition is called out, and the default restart strategy is bounded, so
 * the job ends with exit 1 and the error. A stop (SIGTERM) while the job
 * waits to restart ends it at once, without waiting out the back-off.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_RESTART_ATTEMPTS } from "../src/runtime/execution/restart-strategy.ts";
import { runCli, startCli, waitFor } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const JOB = "test/fixtures/failing-input-job.ts";
const tempDir = tempDirs("weir-permanent-failure-");

/** An input directory whose second line is not JSON. */
function malformedInput(): string {
  const input = join(tempDir(), "in");
  mkdirSync(input);
  writeFileSync(join(input, "records.jsonl"), '{"key":"a"}\n{"key":\n{"key":"b"}\n');
  return input;
}

describe("a job whose input can never be read", () => {
  it("prints the cause on every restart and fails with it after the default strategy's attempts (exit 1)", async () => {
    const input = malformedInput();
    // 1 s + 2 s + 4 s of back-off by default: well within the deadline
    const run = await runCli(["run", JOB, "--checkpoint-interval", "100", "--checkpoint-dir", tempDir(), "--", input], 60_000);
    const where = `stderr:\n${run.stderr}`;
    expect(run.code, where).toBe(1);
    expect(run.stdout).toBe("");
    const cause = `task 'records -> Map' 1/1 failed: ${join(input, "records.jsonl")}:2: invalid JSON`;
    const lines = run.stderr.trim().split("\n");
    const restarts = lines.filter((l) => /^weir: restarting \(attempt \d+\)/.test(l));
    expect(restarts, where).toHaveLength(DEFAULT_RESTART_ATTEMPTS);
    for (let attempt = 0; attempt <= DEFAULT_RESTART_ATTEMPTS; attempt++) {
      const failed = lines.findIndex((l) => l.startsWith(`weir: warning: attempt ${attempt} failed`));
      expect(failed, where).toBeGreaterThanOrEqual(0);
      expect(lines[failed], where).toContain(cause);
      if (attempt > 0) expect(lines[failed], where).toMatch(/failed again with the same error at the same place/);
      if (attempt < DEFAULT_RESTART_ATTEMPTS) expect(lines[failed + 1], where).toMatch(new RegExp(`^weir: restarting \\(attempt ${attempt + 1}\\) in \\d+ ms from empty state`));
    }
    // the cause, then the summary line
    expect(lines.at(-2), where).toMatch(new RegExp(`^weir: error: JobFailedError: job 'failing-input' failed: ${cause.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    expect(lines.at(-2), where).toMatch(/\(not restarted: restarted 3 times \(limit 3\); the same failure 4 times in a row\)$/);
    expect(lines.at(-1), where).toMatch(/^weir: error: job 'failing-input' failed after [\d.]+ s: .*, 3 restarts \(records and checkpoints of the last attempt\); exit 1$/);
  });

  it("--restart-attempts 0: fails at the first failure with the cause", async () => {
    const run = await runCli(["run", JOB, "--checkpoint-interval", "100", "--restart-attempts", "0", "--checkpoint-dir", tempDir(), "--", join(tempDir(), "missing")]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).not.toMatch(/restarting/);
    expect(run.stderr).toMatch(/JobFailedError: job 'failing-input' failed: task 'records -> Map' 1\/1 failed: file source: \S*missing: ENOENT/);
  });

  it("SIGTERM during a restart back-off stops the job at once, without a savepoint", async () => {
    // a 10-minute back-off: only an interruptible wait ends within the deadline
    const run = startCli(["run", JOB, "--checkpoint-interval", "100", "--checkpoint-dir", tempDir(), "--", malformedInput(), "600000"]);
    try {
      await waitFor("the restart back-off", () => /restarting \(attempt 1\) in 600000 ms/.test(run.stderr()) || run.child.exitCode !== null, 30_000);
      run.child.kill("SIGTERM");
      const deadline = setTimeout(() => run.child.kill("SIGKILL"), 30_000);
      const ended = await run.done.finally(() => clearTimeout(deadline));
      expect(ended.signal, `still waiting out the back-off:\n${ended.stderr}`).toBeNull();
      expect(ended.code, ended.stderr).toBe(130);
      expect(ended.stderr).toMatch(/the job is waiting to restart after a failure: stopping it now, without a savepoint/);
      expect(ended.stderr).toMatch(/JobCancelledError: job 'failing-input' was cancelled after a failure, before its restart: task 'records -> Map' 1\/1 failed: \S*records\.jsonl:2: invalid JSON/);
      expect(ended.stderr).not.toMatch(/the savepoint failed/);
    } finally {
      run.child.kill("SIGKILL");
    }
  });
});
