/**
 * A savepoint taken while a job runs with incremental checkpoints is a full
 * snapshot that leaves the chain alone: the checkpoint after it is still a
 * delta on the same chain, and that delta holds the keys changed *before*
 * the savepoint too (since the previous checkpoint). A failure right after
 * that checkpoint restores the chain exactly: the output equals a
 * failure-free run's. Checkpoints are triggered by hand, so the chain's shape
 * is known.
 */
import { describe, expect, it } from "vitest";
import { readSavepoint } from "../src/checkpoint/savepoint/savepoint.ts";
import { FileSystemCheckpointStorage } from "../src/checkpoint/storage/filesystem-storage.ts";
import { collectSink } from "../src/connectors/builtin/collect-sink.ts";
import { RestartStrategies, RichFunction, StreamExecutionEnvironment, WatermarkStrategy } from "../src/index.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { waitFor } from "./support/cli-process.ts";
import { expectedRunningTotals, runningTotals, type TotalsEvent } from "./support/running-totals.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const SEED = testSeed();
const newDir = tempDirs("weir-savepoint-mid-chain-");
const N = 8000;
/** Many keys, few records between checkpoints: deltas are much smaller than the base, so the chain is not rebased. */
const KEYS = 1000;
/** Records between two snapshots of the chain. */
const STEP = 150;

type Ev = TotalsEvent;

/**
 * What the map saw (records up to `seen`), whether its next record fails (first attempt only), and the records the
 * source may read (below `allowed`: the test lets the job go on a step at a time, so exactly those records lie
 * between two snapshots however slow the machine): the job runs in this process.
 */
const progress = { seen: 0, armed: false, allowed: 0 };

/** Maps a sequence number to its event; see `progress`. */
class Events extends RichFunction {
  constructor(private readonly events: readonly Ev[]) {
    super();
  }
  map(i: number): Ev {
    if (progress.armed && this.getRuntimeContext().getAttemptNumber() === 0) throw new Error(`injected failure at record ${i}`);
    progress.seen = Math.max(progress.seen, i + 1);
    return this.events[i]!;
  }
}

describe(`a savepoint in the middle of an incremental chain (seed ${SEED})`, () => {
  it("leaves the chain alone: the next delta holds the changes before the savepoint, and restores exactly", async () => {
    const random = seededRandom(SEED);
    const events: Ev[] = Array.from({ length: N }, (_, id) => ({ id, key: randomInt(random, 0, KEYS - 1) }));
    const msg = `WEIR_SEED=${SEED}`;
    const dir = newDir();
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env.enableCheckpointing(3_600_000, "exactly-once"); // only the checkpoints this test triggers
    env.getCheckpointConfig().enableIncrementalCheckpointing(true).setCheckpointStorage(dir).setNumRetainedCheckpoints(5);
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    env
      .fromSource(throttledSequence(0, N - 1, 5, 2, 0, () => progress.allowed), WatermarkStrategy.noWatermarks(), "numbers")
      .setParallelism(1)
      .map(new Events(events))
      .setParallelism(1) // one channel per key: the per-record totals are deterministic
      .keyBy((e) => e.key)
      .process(runningTotals)
      .uid("totals")
      .sinkTo(collectSink("out"));
    const client = await env.executeAsync("savepoint-mid-chain");
    const after = async (records: number) => {
      progress.allowed = progress.seen + records;
      await waitFor(`record ${progress.allowed} at the map`, () => progress.seen >= progress.allowed, 30_000, 2);
    };

    await after(3000); // most keys are in the base
    const base = await client.triggerCheckpoint();
    await after(STEP);
    const delta = await client.triggerCheckpoint();
    await after(STEP); // changes before the savepoint: the next delta must hold them
    const savepoint = await readSavepoint(await client.triggerSavepoint(newDir()));
    await after(STEP);
    const next = await client.triggerCheckpoint();
    expect(progress.seen, `${msg}: the job read its input before the last checkpoint`).toBeLessThan(N);
    progress.armed = true;
    progress.allowed = N;
    const result = await client.getJobExecutionResult();
    expect(result.restarts, msg).toBe(1);

    const ids = [base.checkpointId, delta.checkpointId, savepoint.checkpointId, next.checkpointId];
    expect([...ids].sort((a, b) => a - b), `${msg}: checkpoint ids`).toEqual(ids);
    expect(savepoint.states.filter((s) => s.operatorUid === "totals").every((s) => s.shared === undefined), `${msg}: the savepoint's keyed state is full`).toBe(true);
    const stored = (await new FileSystemCheckpointStorage({ directory: dir, retained: 5, log: () => {} }).listCompleted()).find((c) => c.checkpointId === next.checkpointId);
    expect(stored, `${msg}: checkpoint ${next.checkpointId} is retained`).toBeDefined();
    for (const s of stored!.states.filter((st) => st.operatorUid === "totals")) {
      expect((s.shared ?? []).map((r) => r.checkpointId), `${msg}: chain of subtask ${s.subtaskIndex}`).toEqual([base.checkpointId, delta.checkpointId, next.checkpointId]);
    }

    expect(result.getCollected<string>("out").sort(), msg).toEqual(expectedRunningTotals(events));
  }, 60_000);
});
