/**
 * A chain rebased in the background, end to end: a keyed job whose deltas
 * outgrow their base takes a full snapshot beside a delta, and a later
 * checkpoint writes it as the new base (the state of an earlier barrier)
 * followed by the deltas since. A job restored from that checkpoint, in the
 * same directory (so it continues the chain), goes on with every key's totals
 * exactly, and its own checkpoints restore too.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CompletedCheckpoint, SharedStateRef } from "../src/checkpoint/types.ts";
import { readSavepoint } from "../src/checkpoint/savepoint/savepoint.ts";
import { FileSystemCheckpointStorage } from "../src/checkpoint/storage/filesystem-storage.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { waitFor } from "./support/cli-process.ts";
import { expectedRunningTotals, type TotalsEvent } from "./support/running-totals.ts";
import { progress, RETAINED, steppedTotalsJob } from "./support/stepped-totals-job.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const SEED = testSeed();
const newDir = tempDirs("weir-background-base-");
const N = 6000;
const KEYS = 500;
/** Records before the first checkpoint (its base holds nearly every key), then per step: fewer than half of a subtask's keys change, so each step is a delta. */
const FIRST = 2000;
const STEP = 250;

/** The chains of the keyed operator's subtasks in `c`. */
const chainsOf = (c: CompletedCheckpoint): (readonly SharedStateRef[])[] => c.states.filter((s) => s.operatorUid === "totals").map((s) => s.shared ?? []);
/** A base written in the background: the delta after it is of its own checkpoint or an earlier one (a base a checkpoint takes itself comes before its deltas). */
const rebasedInBackground = (chain: readonly SharedStateRef[]): boolean => chain.length > 1 && chain[1]!.checkpointId <= chain[0]!.checkpointId;

describe(`a chain rebased in the background (seed ${SEED})`, () => {
  it("restores exactly from a checkpoint whose base was written after its state's barrier, and continues the chain", async () => {
    const random = seededRandom(SEED);
    const events: TotalsEvent[] = Array.from({ length: N }, (_, id) => ({ id, key: randomInt(random, 0, KEYS - 1) }));
    const msg = `WEIR_SEED=${SEED}`;
    const dir = newDir();

    // The first job goes step by step (the source waits at each limit), a checkpoint per step, until one of them
    // writes a base taken in the background; then it is cancelled.
    progress.seen = 0;
    progress.limit = FIRST;
    const client = await steppedTotalsJob(events, dir, 3_600_000).executeAsync("first");
    let rebased: CompletedCheckpoint | undefined;
    for (let step = 0; step < 12 && rebased === undefined; step++) {
      await waitFor("records at the map", () => progress.seen >= progress.limit, 30_000, 2);
      const c = await client.triggerCheckpoint();
      if (chainsOf(c).every(rebasedInBackground)) rebased = c;
      else progress.limit += STEP;
    }
    await client.cancel();
    expect(rebased, `${msg}: a checkpoint whose chains start with a base written in the background`).toBeDefined();
    progress.limit = Infinity;

    const result = await steppedTotalsJob(events, dir, 20, join(dir, `chk-${rebased!.checkpointId}`)).execute("second");
    expect(result.restoredFrom, msg).toBe(rebased!.checkpointId);
    // The collect sink keeps its rows in checkpointed state: the second job ends with the rows up to the checkpoint
    // and its own, each record's total exactly once, as a run without the cancel gives.
    expect(result.getCollected<string>("out").sort(), msg).toEqual(expectedRunningTotals(events));

    // The second job's checkpoints continued the restored chains (they begin with the same base) and are readable.
    const storage = new FileSystemCheckpointStorage({ directory: dir, retained: RETAINED, log: () => {} });
    const later = (await storage.listCompleted()).filter((c) => c.checkpointId > rebased!.checkpointId);
    expect(later.length, msg).toBeGreaterThan(0);
    const bases = chainsOf(rebased!).map((chain) => chain[0]!.path);
    expect(chainsOf(later[0]!).map((chain) => chain[0]!.path), `${msg}: chk-${later[0]!.checkpointId} continues the chains`).toEqual(bases);
    for (const c of later) await expect(readSavepoint(c.directory!), `${msg}: chk-${c.checkpointId}`).resolves.toBeDefined();
  }, 60_000);
});
