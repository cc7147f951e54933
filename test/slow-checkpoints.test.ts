/**
 * Checkpoints slower than the checkpoint interval: every snapshot of a map
 * parks its thread several times longer than the interval, so a periodic
 * trigger is always waiting when a checkpoint ends. The final checkpoint of a
 * bounded job and savepoints must still be taken at once, not starved.
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment, WatermarkStrategy, collectSink, type JobClient } from "../src/index.ts";
import { Count, expectedCounts, finalCounts } from "./fixtures/keyed-count.ts";
import { SlowSnapshotMap } from "./fixtures/slow-snapshot-map.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { waitFor } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const INTERVAL_MS = 10;
const SNAPSHOT_MS = 40;
const KEYS = 5;
/** Generous: these jobs take well under a second of work. */
const DEADLINE_MS = 40_000;
const tempDir = tempDirs("weir-slow-");

/** Throttled numbers → slow-snapshot map → keyed count → collect sink, with checkpoints every 10 ms that take ≥ 40 ms. */
async function startSlowJob(records: number, log: string[]): Promise<JobClient> {
  const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: INTERVAL_MS, checkpointDir: tempDir(), log: (l) => log.push(l) });
  env
    .fromSource(throttledSequence(1, records, 100, 2), WatermarkStrategy.noWatermarks(), "numbers")
    .uid("numbers")
    .map(new SlowSnapshotMap<number>(SNAPSHOT_MS))
    .uid("slow")
    .keyBy((n) => n % KEYS)
    .process(new Count())
    .uid("count")
    .sinkTo(collectSink("counts"))
    .uid("counts-sink");
  return env.executeAsync(`slow-checkpoints-${records}`);
}

/** `promise`, or a rejection naming `what` after the deadline (the job is cancelled then). */
async function withinDeadline<T>(what: string, promise: Promise<T>, client: JobClient, log: string[]): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const stats = client.getCheckpointStats();
      void client.cancel();
      reject(new Error(`${what} not done after ${DEADLINE_MS} ms; checkpoints ${JSON.stringify(stats?.counts)}\n${log.join("\n")}`));
    }, DEADLINE_MS);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

describe("checkpoints slower than the interval", () => {
  it("a bounded job still ends: its final checkpoint is not starved by periodic ones", async () => {
    const log: string[] = [];
    const records = 3_000;
    const client = await startSlowJob(records, log);
    const result = await withinDeadline("the bounded job", client.getJobExecutionResult(), client, log);
    expect(finalCounts(result)).toEqual(expectedCounts(records, KEYS));
    expect(result.checkpoints!.counts.completed).toBeGreaterThan(1);
  });

  it("a savepoint of a running job completes", async () => {
    const log: string[] = [];
    const client = await startSlowJob(1_000_000, log);
    await waitFor("a completed checkpoint", () => (client.getCheckpointStats()?.counts.completed ?? 0) > 0, DEADLINE_MS);
    const path = await withinDeadline("the savepoint", client.triggerSavepoint(tempDir()), client, log);
    expect(path).toMatch(/savepoint-/);
    expect(client.getJobStatus()).toBe("RUNNING");
    await client.cancel();
  });

  it("stop-with-savepoint completes and stops the job", async () => {
    const log: string[] = [];
    const client = await startSlowJob(1_000_000, log);
    await waitFor("a completed checkpoint", () => (client.getCheckpointStats()?.counts.completed ?? 0) > 0, DEADLINE_MS);
    const path = await withinDeadline("stop-with-savepoint", client.stopWithSavepoint(tempDir()), client, log);
    expect(path).toMatch(/savepoint-/);
    expect(client.getJobStatus()).toBe("FINISHED");
  });
});
