/**
 * Stop with savepoint is Flink's synchronous savepoint: each source stops reading when it emits the
 * savepoint's barrier, so no record after the savepoint reaches a sink. A sink without transactions
 * (at-least-once) then holds each record once after a resume from the savepoint — before, the sources
 * read on until the savepoint completed, and what they read meanwhile was written again by the resumed run.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment, WatermarkStrategy, WritableSink, type JobClient } from "../src/index.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { waitFor } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const N = 20_000;
const DEADLINE_MS = 60_000;
const tempDir = tempDirs("weir-stop-");

/** numbers (2 readers, each up to `limit()`) → map → an at-least-once sink appending to `lines`. */
function start(lines: string[], limit: () => number, fromSavepoint?: string): Promise<JobClient> {
  const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 50, checkpointDir: tempDir(), fromSavepoint });
  const into = () =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split("\n").filter((l) => l !== ""));
        done();
      },
    });
  env
    .fromSource(throttledSequence(1, N, 50, 1, 0, limit), WatermarkStrategy.noWatermarks(), "numbers")
    .uid("numbers")
    .map((n) => n * 10)
    .uid("times-ten")
    .sinkTo(new WritableSink<number>(into))
    .uid("lines");
  return env.executeAsync("stop-with-savepoint");
}

describe("stop with savepoint", () => {
  it("writes nothing after the savepoint: an at-least-once sink holds every record once after the resume", async () => {
    const lines: string[] = [];
    let limit = 4_000;
    const first = await start(lines, () => limit);
    await waitFor("a completed checkpoint and the first records", () => (first.getCheckpointStats()?.counts.completed ?? 0) > 0 && lines.length > 1_000, DEADLINE_MS);
    const stopped = first.stopWithSavepoint(tempDir());
    limit = N + 1; // the sources may read on at once: what they read after their barrier must not reach the sink
    const savepoint = await stopped;
    const written = lines.length;
    expect(written).toBeLessThan(N);

    const second = await start(lines, () => N + 1, savepoint);
    await second.getJobExecutionResult();
    const counts = new Map<string, number>();
    for (const l of lines) counts.set(l, (counts.get(l) ?? 0) + 1);
    const twice = [...counts].filter(([, c]) => c > 1).map(([l]) => l);
    expect({ first: written, twice: twice.slice(0, 5), distinct: counts.size }).toEqual({ first: written, twice: [], distinct: N });
  });

  it("a stop whose savepoint fails leaves the job running and reading", async () => {
    const lines: string[] = [];
    let limit = 4_000;
    const job = await start(lines, () => limit);
    await waitFor("a completed checkpoint", () => (job.getCheckpointStats()?.counts.completed ?? 0) > 0 && lines.length > 1_000, DEADLINE_MS);
    const file = `${tempDir()}/not-a-directory`;
    await import("node:fs/promises").then((fs) => fs.writeFile(file, "x"));
    await expect(job.stopWithSavepoint(file)).rejects.toThrow();
    expect(job.getJobStatus()).toBe("RUNNING");
    limit = N + 1;
    await job.getJobExecutionResult();
    expect(new Set(lines).size).toBe(N);
  });
});
