/**
 * Watermark alignment of source subtasks that move through event time at different speeds
 * (test/fixtures/watermark-alignment-job.ts: subtask 1 reads one split, subtask 0 two, all with the
 * same event times, 6 s of event time each). Without alignment, subtask 1 runs up to 3 s of event time
 * ahead of subtask 0, which holds the watermark downstream; with a drift of 300 ms it pauses whenever it
 * is that far ahead, in-process, on worker threads and on a cluster whose two task managers (processes)
 * each run one source subtask, and the job still reads everything and ends.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { jsonResult, runCli } from "./support/cli-process.ts";
import { clusterSuite, startCluster } from "./support/cluster-processes.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const JOB = fileURLToPath(new URL("./fixtures/watermark-alignment-job.ts", import.meta.url));
const started = clusterSuite();

const EVENTS_PER_SPLIT = 600_000;
const tempDir = tempDirs("weir-watermark-alignment-");

async function lead(drift: number, workers: number): Promise<{ lead: number; records: number }> {
  const dir = tempDir();
  const run = await runCli(
    ["run", "test/fixtures/watermark-alignment-job.ts", "--workers", String(workers), "--fresh", "--checkpoint-dir", dir, "--", String(EVENTS_PER_SPLIT), String(drift)],
    120_000,
  );
  expect(run.code, run.stderr).toBe(0);
  return jsonResult<{ lead: number; records: number }>(run);
}

describe("watermark alignment", () => {
  it("without it, the subtask with fewer splits runs seconds of event time ahead of the watermark", async () => {
    const r = await lead(0, 0);
    expect(r.records).toBe(3 * EVENTS_PER_SPLIT);
    expect(r.lead).toBeGreaterThan(2_000);
  });

  it.each([0, 2])("with a drift of 300 ms, no record is far ahead of the watermark (%i workers)", async (workers) => {
    const r = await lead(300, workers);
    expect(r.records).toBe(3 * EVENTS_PER_SPLIT);
    // the drift, what a subtask reads between two of its watermarks (5 ms apart), and a report's round trip
    expect(r.lead).toBeLessThan(1_500);
  });

  it("with a drift of 300 ms on a cluster: the subtasks' reports and the announcements cross processes", async () => {
    const dir = tempDir();
    const jm = await startCluster(dir, started);
    const out = join(dir, "lead.json");
    const run = await runCli(["run", "-m", jm.url, JOB, "--parallelism", "2", "--checkpoint-dir", join(dir, "chk"), "--", String(EVENTS_PER_SPLIT), "300", out], 180_000, {}, { shipped: true });
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(readFileSync(out, "utf8")) as { lead: number; records: number };
    expect(r.records).toBe(3 * EVENTS_PER_SPLIT);
    expect(r.lead).toBeLessThan(1_500);
  });
});
