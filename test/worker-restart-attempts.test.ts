/**
 * Attempts never overlap in a worker thread: a worker started again after it died imports the job
 * before it can run anything, and an attempt that is deployed to it and cancelled meanwhile must not run
 * once it is ready, beside the next attempt (two instances of each of its subtasks: a cluster kill loop saw
 * a Kafka sink commit output twice that way).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const tempDir = tempDirs("weir-worker-restart-");

it("an attempt cancelled while a restarted worker imports the job never runs there; the next one runs once", async () => {
  const dir = tempDir();
  const run = await runCli(
    [
      "run", "test/fixtures/restarted-worker-job.ts", "--no-typecheck", "--parallelism", "2", "--workers", "2", "--checkpoint-dir", join(dir, "checkpoints"),
      "-D", "restart-strategy.type=fixed-delay", "-D", "restart-strategy.fixed-delay.attempts=5", "-D", "restart-strategy.fixed-delay.delay=50 ms",
      "--", dir,
    ],
    90_000,
  );
  expect(run.code, run.stderr).toBe(0);
  const opens = readFileSync(join(dir, "opens"), "utf8").trim().split("\n").sort();
  // attempt 0: subtask 1 (worker 1 dies; subtask 0 may not have opened yet); attempt 1: subtask 0 only, which fails
  // while worker 1 waits in its import (until attempt 2 opens subtask 0); attempt 2: both, once each
  expect(opens.filter((o) => o !== "attempt 0 subtask 0"), run.stderr).toEqual(["attempt 0 subtask 1", "attempt 1 subtask 0", "attempt 2 subtask 0", "attempt 2 subtask 1"]);
  expect(run.stderr).toMatch(/2 restarts/);
});
