/**
 * Restoring an incremental checkpoint of another directory at the same
 * parallelism (`fromSavepoint: "<other job dir>/chk-N"`): the key groups
 * match, but the chain's files live in the other directory, so the new job
 * must not continue that chain. Its checkpoints start new bases in its own
 * `shared/` and stay usable after the other directory is deleted; its output
 * continues the restored totals.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSavepoint } from "../src/checkpoint/savepoint/savepoint.ts";
import { FileSystemCheckpointStorage } from "../src/checkpoint/storage/filesystem-storage.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { waitFor } from "./support/cli-process.ts";
import { expectedRunningTotals, type TotalsEvent } from "./support/running-totals.ts";
import { progress, RETAINED, steppedTotalsJob } from "./support/stepped-totals-job.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const SEED = testSeed();
const newDir = tempDirs("weir-restore-elsewhere-");
const N = 6000;
const KEYS = 500;

describe(`an incremental checkpoint of another directory restored at the same parallelism (seed ${SEED})`, () => {
  it("is not continued: the new job's checkpoints stand alone, its totals continue the restored ones", async () => {
    const random = seededRandom(SEED);
    const events: TotalsEvent[] = Array.from({ length: N }, (_, id) => ({ id, key: randomInt(random, 0, KEYS - 1) }));
    const msg = `WEIR_SEED=${SEED}`;
    const first = newDir();
    const second = newDir();

    // The first job: a base after 2000 records and a delta 200 records later
    // (the source stops at each step, so a slow machine cannot turn the delta
    // into a new base by letting half of the keys change), then cancelled.
    progress.seen = 0;
    progress.limit = 2000;
    const client = await steppedTotalsJob(events, first, 3_600_000).executeAsync("first");
    await waitFor("records at the map", () => progress.seen >= 2000, 30_000, 2);
    await client.triggerCheckpoint();
    progress.limit = 2200;
    await waitFor("more records at the map", () => progress.seen >= 2200, 30_000, 2);
    const restored = await client.triggerCheckpoint();
    await client.cancel();
    progress.limit = Infinity;
    const chains = restored.states.filter((s) => s.operatorUid === "totals").map((s) => (s.shared ?? []).length);
    expect(chains, `${msg}: the restored keyed states are a base and a delta`).toEqual([2, 2]);

    const result = await steppedTotalsJob(events, second, 20, join(first, `chk-${restored.checkpointId}`)).execute("second");
    expect(result.restoredFrom, msg).toBe(restored.checkpointId);
    rmSync(first, { recursive: true, force: true });
    const own = await new FileSystemCheckpointStorage({ directory: second, retained: RETAINED, log: () => {} }).listCompleted();
    expect(own[0]?.checkpointId, `${msg}: the second job's first checkpoint`).toBe(restored.checkpointId + 1);
    for (const c of own) {
      await expect(readSavepoint(c.directory!), `${msg}: chk-${c.checkpointId} of the second job without the first's directory`).resolves.toBeDefined();
      for (const s of c.states) for (const ref of s.shared ?? []) expect(existsSync(join(c.directory!, ref.path)), `${msg}: ${ref.path}`).toBe(true);
    }

    // Every total of the second job continues the restored state: it is the failure-free total of its record.
    const expected = new Set(expectedRunningTotals(events));
    const out = result.getCollected<string>("out");
    expect(out.length, msg).toBeGreaterThan(0);
    expect(out.filter((line) => !expected.has(line)), `${msg}: totals not continuing the restored state`).toEqual([]);
  }, 60_000);
});
