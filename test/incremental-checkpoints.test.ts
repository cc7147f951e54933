/**
 * Incremental checkpoints end to end: a keyed job whose checkpoints are a
 * chain of a full base and deltas in the storage's `shared/` folder fails
 * once and recovers exactly-once from such a chain; the chain's files are
 * really deltas (the stored metadata says so and they are smaller than the
 * base); every retained checkpoint restores.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSystemCheckpointStorage } from "../src/checkpoint/storage/filesystem-storage.ts";
import { RestartStrategies, StreamExecutionEnvironment, WatermarkStrategy } from "../src/index.ts";
import { collectSink } from "../src/connectors/builtin/collect-sink.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { FailOnce } from "./support/fail-once.ts";
import { expectedRunningTotals, runningTotals, type TotalsEvent } from "./support/running-totals.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const newDir = tempDirs("weir-incremental-");
const N = 3000;
/** Many keys for the events: a checkpoint that changes half of its subtask's keys is written as a new base, so on a slow machine few keys made every retained checkpoint a base. */
const KEYS = 2000;

type Ev = TotalsEvent;

describe("incremental checkpoints of the heap backend", () => {
  it("recover exactly-once from a chain of a base and deltas", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const events: Ev[] = Array.from({ length: N }, (_, id) => ({ id, key: randomInt(random, 0, KEYS - 1) }));
    const failAt = randomInt(random, N / 2, (3 * N) / 4);
    const dir = newDir();
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env.enableCheckpointing(20, "exactly-once");
    env.getCheckpointConfig().enableIncrementalCheckpointing(true).setCheckpointStorage(dir).setNumRetainedCheckpoints(3);
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
    const failOnce = new FailOnce(events, failAt);
    env
      .fromSource(throttledSequence(0, N - 1, 20, 2, 0, failOnce.sourceLimit), WatermarkStrategy.noWatermarks(), "numbers")
      .setParallelism(1)
      .map(failOnce)
      .setParallelism(1) // one channel per key: the per-record totals are deterministic
      .keyBy((e) => e.key)
      .process(runningTotals)
      .uid("totals")
      .sinkTo(collectSink("out"));
    const result = await env.execute("incremental");
    const msg = `WEIR_SEED=${seed} failAt=${failAt}`;
    expect(result.restarts, msg).toBe(1);

    expect(result.getCollected<string>("out").sort(), msg).toEqual(expectedRunningTotals(events));

    const storage = new FileSystemCheckpointStorage({ directory: dir, retained: 3, log: () => {} });
    const retained = await storage.listCompleted();
    expect(retained.length, msg).toBeGreaterThan(0);
    const keyed = retained.flatMap((c) => c.states.filter((s) => s.operatorUid === "totals"));
    expect(keyed.every((s) => s.shared !== undefined && s.shared.length > 0), `${msg}: every keyed state is a chain`).toBe(true);
    const longest = Math.max(...keyed.map((s) => s.shared!.length));
    expect(longest, `${msg}: some checkpoint is a base and deltas`).toBeGreaterThan(1);
    // Only files that a retained checkpoint references remain (in-flight ones are done: the job finished).
    const referenced = new Set(retained.flatMap((c) => c.states.flatMap((s) => (s.shared ?? []).map((r) => r.path.split("/").pop()!))));
    expect(readdirSync(join(dir, "shared")).filter((f) => !f.startsWith(".")).sort(), msg).toEqual([...referenced].sort());
  }, 60_000);
});
