/**
 * Checkpoint storage seen from a running job: the jobmanager storage's size
 * limit (declined checkpoints, tolerable failures), and the filesystem
 * storage's retention and its fallback past a corrupt latest checkpoint.
 */
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JobFailedError, RestartStrategies, StreamExecutionEnvironment } from "../src/index.ts";
import { buildBallastJob } from "./fixtures/ballast-job.ts";
import { buildKeyedCount, expectedCounts, finalCounts } from "./fixtures/keyed-count.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const tempDir = tempDirs("weir-storage-");

describe("jobmanager storage size limit", () => {
  function ballastEnv(tolerable: number, log: string[]) {
    const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 20, log: (l) => log.push(l) });
    env.getCheckpointConfig().setCheckpointStorage({ type: "jobmanager", maxStateSize: 1000 }).setTolerableCheckpointFailureNumber(tolerable);
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    buildBallastJob(env, 20_000, 4_000);
    return env;
  }

  it("declines checkpoints over the limit with the operator, size and limit, and finishes when failures are tolerated", async () => {
    const log: string[] = [];
    const result = await ballastEnv(1_000, log).execute("ballast-tolerated");
    const stats = result.checkpoints!;
    expect(result.restarts, log.join("\n")).toBe(0);
    expect(stats.counts.failed).toBeGreaterThan(0);
    expect(stats.counts.completed).toBeGreaterThan(0);
    const declined = stats.history.failed.map((f) => f.message).filter((m) => m.includes("'ballast'"));
    expect(declined.length).toBeGreaterThan(0);
    expect(declined[0]).toMatch(/state of operator 'ballast' \(subtask \d\) is 4\.\d+ KB, over the jobmanager storage limit of 1000 bytes/);
    expect(result.getCollected<[number, number]>("milestones").filter(([, c]) => c === 2_000)).toHaveLength(10);
  });

  it("fails over, then fails the job, when no checkpoint failure is tolerated", async () => {
    const log: string[] = [];
    const run = ballastEnv(0, log).execute("ballast-intolerant");
    const error = await run.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as Error).message).toMatch(/consecutive checkpoint failures exceed the tolerable 0/);
    expect((error as Error).message).toMatch(/'ballast'/);
    expect(log.join("\n")).toMatch(/restarting \(attempt 1\)/);
  });
});

describe("filesystem storage", () => {
  const RECORDS = 20_000;

  function countEnv(directory: string, log: string[]) {
    const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 20, checkpointDir: directory, log: (l) => log.push(l) });
    env.getCheckpointConfig().setNumRetainedCheckpoints(3);
    // At least 4 completed checkpoints, so that retention has one to delete, however slow the machine.
    buildKeyedCount(env, { records: RECORDS, keys: 10, throttle: { perPoll: 100, pauseMs: 2, endAfterCheckpoints: 4 } });
    return env;
  }

  /** Ids of the `chk-N` directories that hold a `_metadata` file, ascending. */
  function completedIds(directory: string): number[] {
    return readdirSync(directory)
      .filter((n) => /^chk-\d+$/.test(n) && existsSync(join(directory, n, "_metadata")))
      .map((n) => Number(n.slice(4)))
      .sort((a, b) => a - b);
  }

  async function finishedRun(): Promise<{ directory: string; ids: number[] }> {
    const directory = tempDir();
    const log: string[] = [];
    const result = await countEnv(directory, log).execute("retained");
    expect(result.checkpoints!.counts.completed, log.join("\n")).toBeGreaterThan(3);
    return { directory, ids: completedIds(directory) };
  }

  it("keeps only the retained number of completed checkpoints", async () => {
    const { ids } = await finishedRun();
    expect(ids).toHaveLength(3);
    expect(ids[2]).toBeGreaterThan(3);
  });

  for (const corruption of ["a flipped byte in _metadata", "a truncated state file"] as const) {
    it(`skips a latest checkpoint with ${corruption} and restores the one before`, async () => {
      const { directory, ids } = await finishedRun();
      const latest = ids[ids.length - 1]!;
      const previous = ids[ids.length - 2]!;
      const chk = join(directory, `chk-${latest}`);
      if (corruption === "a flipped byte in _metadata") {
        const bytes = readFileSync(join(chk, "_metadata"));
        bytes[bytes.length >> 1] ^= 0xff;
        writeFileSync(join(chk, "_metadata"), bytes);
      } else {
        const file = join(chk, readdirSync(chk).find((n) => n.startsWith("count-"))!);
        truncateSync(file, statSync(file).size >> 1);
      }
      const log: string[] = [];
      const result = await countEnv(directory, log).execute("retained");
      const text = log.join("\n");
      expect(text).toMatch(new RegExp(`skipping checkpoint ${latest} at \\S*chk-${latest}`));
      expect(text).toMatch(new RegExp(`restored from checkpoint ${previous}\\b`));
      expect(result.restoredFrom).toBe(previous);
      expect(finalCounts(result)).toEqual(expectedCounts(RECORDS, 10));
    });
  }
});
