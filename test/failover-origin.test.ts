/**
 * A failover goes back to where its run started until the run has completed a
 * checkpoint of its own — not to whatever the checkpoint directory holds from
 * an older run. The real engine, a keyed count over filesystem checkpoints,
 * with a failure injected before the run's first checkpoint:
 *
 * - `fresh: true` (`--fresh`) over a directory holding an older run's
 *   checkpoint (of another input) restarts from empty state;
 * - `fromSavepoint` (`--from-savepoint`) over a directory holding a newer
 *   checkpoint of another run restarts from the savepoint.
 *
 * Either way the counts are exact; restoring the other run's checkpoint
 * would give that run's counts. And a failover never reuses the id of a
 * checkpoint the failed attempt had started (its late state writes would
 * land in the new checkpoint of that id).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  collectSink,
  KeyedProcessFunction,
  ListStateDescriptor,
  RestartStrategies,
  StreamExecutionEnvironment,
  ValueStateDescriptor,
  WatermarkStrategy,
  type CheckpointedFunction,
  type CheckpointListener,
  type Collector,
  type FunctionInitializationContext,
  type ListState,
  type EnvironmentOptions,
  type KeyedProcessContext,
  type ValueState,
} from "../src/index.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";
import { waitFor } from "./support/cli-process.ts";
import { buildKeyedCount, expectedCounts, finalCounts, type KeyedCountOptions } from "./fixtures/keyed-count.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const KEYS = 10;
const RECORDS = 20_000;
/** Another run's input: its checkpoints hold counts of 5 000 records and exhausted sources. */
const OTHER_RECORDS = 5_000;
/** No periodic checkpoint within the test: the failure comes before the run's first own checkpoint. */
const NEVER = 600_000;

const tempDir = tempDirs("weir-failover-origin-");

/** An environment of the keyed count on filesystem checkpoints in `checkpointDir`. */
function keyedCount(options: EnvironmentOptions, job: KeyedCountOptions): StreamExecutionEnvironment {
  const env = StreamExecutionEnvironment.create({ parallelism: 2, ...options });
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
  buildKeyedCount(env, job);
  return env;
}

/** Runs another input (5 000 records) to its end in `checkpointDir`, leaving its final checkpoint there. */
async function otherRun(checkpointDir: string, extra: EnvironmentOptions = {}): Promise<void> {
  const result = await keyedCount({ checkpointInterval: NEVER, checkpointDir, ...extra }, { records: OTHER_RECORDS, keys: KEYS }).execute("counts");
  expect(finalCounts(result)).toEqual(expectedCounts(OTHER_RECORDS, KEYS));
}

describe("failover before the run's first own checkpoint", () => {
  it("--fresh: restarts from empty state, not from an older run's checkpoint", async () => {
    const checkpointDir = tempDir();
    await otherRun(checkpointDir);

    const log: string[] = [];
    const env = keyedCount(
      { checkpointInterval: NEVER, checkpointDir, fresh: true, log: (l) => log.push(l) },
      { records: RECORDS, keys: KEYS, failAt: 100, failAfterCheckpoint: false, throttle: { perPoll: 100, pauseMs: 1 } },
    );
    const result = await env.execute("counts");
    const context = log.join("\n");
    expect(finalCounts(result), context).toEqual(expectedCounts(RECORDS, KEYS));
    expect(result.restarts, context).toBe(1);
    expect(context).toMatch(/attempt 0 failed: task .* failed: injected failure at record 100/);
    expect(context).toMatch(/restarting \(attempt 1\) in 0 ms from empty state, where this --fresh run started/);
    expect(context).not.toMatch(/restored from checkpoint/);
  });

  it("--from-savepoint: restarts from the savepoint, not from a newer checkpoint of another run", async () => {
    const checkpointDir = tempDir();
    // A slow run (at most 2 000 numbers a second per subtask) without periodic checkpoints: the
    // savepoint is taken as soon as it runs, long before the last number.
    const slow = keyedCount({ checkpointInterval: 0, checkpointDir }, { records: RECORDS, keys: KEYS, throttle: { perPoll: 10, pauseMs: 5 } });
    const first = await slow.executeAsync("counts");
    await waitFor("the job to run", () => first.getJobStatus() === "RUNNING");
    const savepoint = await first.triggerSavepoint(join(tempDir(), "savepoints"));
    await first.cancel();
    await otherRun(checkpointDir, { fresh: true }); // now the directory's latest checkpoint is another run's

    const log: string[] = [];
    const env = keyedCount(
      { checkpointInterval: NEVER, checkpointDir, fromSavepoint: savepoint, log: (l) => log.push(l) },
      // fails at the last number, read long after the savepoint's positions
      { records: RECORDS, keys: KEYS, failAt: RECORDS, failAfterCheckpoint: false, throttle: { perPoll: 100, pauseMs: 1 } },
    );
    const result = await env.execute("counts");
    const context = log.join("\n");
    expect(finalCounts(result), context).toEqual(expectedCounts(RECORDS, KEYS));
    expect(result.restarts, context).toBe(1);
    expect(context).toMatch(new RegExp(`attempt 0 failed: task .* failed: injected failure at record ${RECORDS}`));
    expect(context).toMatch(/restarting \(attempt 1\) in 0 ms from savepoint \d+ \(.*savepoint-counts-\d+\), where this run started/);
    expect(log.filter((l) => /^restored from savepoint \d+/.test(l)), context).toHaveLength(2);
    expect(context).not.toMatch(/restored from checkpoint/);
  });
});

/**
 * Counts per key like the keyed count; in attempt 0, after a checkpoint completed, it puts a
 * function into its operator state when snapshotting, so that the checkpoint is declined (a
 * function is not plain data; keyed state would refuse it at `update`) and, with no checkpoint
 * failure tolerated, the job fails over.
 */
class PoisonedCount extends KeyedProcessFunction<number, number, [number, number]> implements CheckpointListener, CheckpointedFunction {
  private count!: ValueState<number>;
  private poison!: ListState<unknown>;
  private checkpointed = false;

  open(): void {
    this.count = this.getRuntimeContext().getState(new ValueStateDescriptor<number>("count", 0));
  }

  initializeState(context: FunctionInitializationContext): void {
    this.poison = context.getOperatorStateStore().getListState(new ListStateDescriptor<unknown>("poison"));
  }

  snapshotState(): void {
    if (this.checkpointed && this.getRuntimeContext().getAttemptNumber() === 0) this.poison.update([() => "not plain data"]);
  }

  notifyCheckpointComplete(): void {
    this.checkpointed = true;
  }

  processElement(_: number, ctx: KeyedProcessContext<number>, out: Collector<[number, number]>): void {
    const c = this.count.value()! + 1;
    this.count.update(c);
    out.collect([ctx.getCurrentKey(), c]);
  }
}

describe("checkpoint ids across attempts", () => {
  it("a failover starts above the id of the checkpoint the failed attempt had started and discarded", async () => {
    const log: string[] = [];
    const env = StreamExecutionEnvironment.create({ parallelism: 1, checkpointInterval: 20, checkpointDir: tempDir(), log: (l) => log.push(l) });
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    env
      .fromSource(throttledSequence(1, 3_000, 50, 2), WatermarkStrategy.noWatermarks(), "Numbers")
      .uid("numbers")
      .keyBy((n) => n % KEYS)
      .process(new PoisonedCount())
      .uid("count")
      .sinkTo(collectSink("counts"))
      .uid("counts-sink");
    const result = await env.execute("ids");
    const context = log.join("\n");
    const declined = /attempt 0 failed: .*Checkpoint (\d+) of job "ids" declined by task .*a function/.exec(context);
    expect(declined, context).not.toBeNull();
    const discarded = Number(declined![1]);
    expect(result.restarts, context).toBe(1);
    const stats = result.checkpoints!;
    const ids = [...stats.history.completed, ...stats.history.failed].map((c) => c.checkpointId);
    expect(stats.history.completed.length, context).toBeGreaterThan(0);
    expect(Math.min(...ids), `${context}\nids of attempt 1: ${ids.join(", ")}`).toBeGreaterThan(discarded);
    expect(finalCounts(result)).toEqual(expectedCounts(3_000, KEYS));
  });
});
