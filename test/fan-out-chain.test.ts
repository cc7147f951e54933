/**
 * A fan-out inside one chain (fixtures/fan-out-chain.ts): with exactly-once checkpoints and an
 * injected failure, the chained shape gives what the former shape (every consumer of the fanned-out
 * stream in a task of its own) gives, in the main thread and on 2 worker threads; and a savepoint
 * of the former shape restores into the chained one (state is matched by operator uid).
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment, type JobClient } from "../src/index.ts";
import { buildFanOut, fanOutResult } from "./fixtures/fan-out-chain.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { jsonResult, runCli, waitFor } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const RECORDS = 40_000;
const KEYS = 7;
const tempDir = tempDirs("weir-fan-out-chain-");

interface Run {
  evens: string[];
  read: string[];
  odds: string[];
  window: string[];
  restarts: number;
  vertices: string[][];
}

async function run(shape: "chained" | "apart", workers: number, failAt: number): Promise<Run> {
  const r = await runCli(
    ["run", "test/fixtures/fan-out-chain-job.ts", "--workers", String(workers), "--checkpoint-interval", "20", "--checkpoint-dir", tempDir(), "--", shape, String(RECORDS), String(KEYS), String(failAt)],
    120_000,
  );
  expect(r.code, r.stderr).toBe(0);
  return jsonResult(r);
}

/** The task that runs operator `uid`. */
const taskOf = (r: Run, uid: string) => r.vertices.find((v) => v.includes(uid));

describe("a fan-out inside one chain", () => {
  it("gives the former shape's results with exactly-once checkpoints and a failure, with workers 0 and 2", async () => {
    const apart = await run("apart", 0, 0);
    expect(taskOf(apart, "records")).not.toContain("read");
    expect(apart.read).toEqual(Array.from({ length: RECORDS }, (_, i) => `${i + 1}:${i + 1}`).sort());
    // every even number once in the totals, each with the one tag its branch added (its own copy)
    const totals = (lines: string[]) => lines.map((l) => l.split(":").map(Number)).reduce((t, [, c, s]) => [t[0]! + c!, t[1]! + s!], [0, 0]);
    expect(totals(apart.evens)).toEqual([RECORDS / 2, -(RECORDS / 2) * (RECORDS / 2 + 1)]);
    expect(totals(apart.odds)).toEqual([RECORDS / 2, (RECORDS / 2) ** 2]);
    for (const workers of [0, 2]) {
      const chained = await run("chained", workers, RECORDS / 4);
      expect(taskOf(chained, "records")).toEqual(expect.arrayContaining(["records", "evens", "read", "odds"]));
      expect(chained.restarts, `workers ${workers}`).toBe(1);
      const { evens, read, odds, window } = chained;
      expect({ evens, read, odds, window }, `workers ${workers}`).toEqual({ evens: apart.evens, read: apart.read, odds: apart.odds, window: apart.window });
    }
  }, 300_000);

  it("restores a savepoint of the former shape into the chained one", async () => {
    const full = await inProcess(false, RECORDS + 1);
    const fullResult = fanOutResult(await full.getJobExecutionResult());

    let limit = RECORDS / 3;
    const before = await inProcess(true, () => limit);
    await waitFor("a completed checkpoint", () => (before.getCheckpointStats()?.counts.completed ?? 0) > 0, 60_000);
    const stopped = before.stopWithSavepoint(tempDir());
    limit = RECORDS + 1;
    const savepoint = await stopped;

    const after = await inProcess(false, RECORDS + 1, savepoint);
    expect(after.getJobGraph().vertices.find((v) => v.nodes.some((n) => n.uid === "records"))!.nodes.map((n) => n.uid)).toContain("read");
    expect(fanOutResult(await after.getJobExecutionResult())).toEqual(fullResult);
  }, 120_000);
});

/** The job in this process: the numbers below `limit`, `apart` or chained, from `savepoint` if given. */
function inProcess(apart: boolean, limit: number | (() => number), savepoint?: string): Promise<JobClient> {
  const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 50, checkpointDir: tempDir(), fromSavepoint: savepoint });
  const below = typeof limit === "number" ? () => limit : limit;
  buildFanOut(env, { keys: KEYS, apart, failAt: 0, numbers: throttledSequence(1, RECORDS, 200, 2, 0, below), records: RECORDS });
  return env.executeAsync("fan-out-chain");
}
