/**
 * An aborted checkpoint seen from a running exactly-once job. A map reads two
 * sources: A emits barrier n and then more records; B is stuck (its reader does
 * not return) so its barrier n never comes and n expires. The abort must release
 * the map's alignment at once (A's records after barrier n flow while B is still
 * stuck), no task may snapshot n afterwards (B's trigger, the map's alignment),
 * and nothing of n may stay in the checkpoint directory, even when a task's
 * write for n ends after the abort.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ListStateDescriptor,
  RichFunction,
  StreamExecutionEnvironment,
  WatermarkStrategy,
  collectSink,
  type CheckpointedFunction,
  type FunctionInitializationContext,
  type FunctionSnapshotContext,
  type PollStatus,
  type ReaderOutput,
  type Source,
  type SourceReader,
} from "../src/index.ts";
import { CheckpointCoordinator, checkpointIdsFrom } from "../src/checkpoint/coordinator/index.ts";
import { createCheckpointStorage } from "../src/checkpoint/storage/index.ts";
import { ManualClock } from "../src/util/clock.ts";
import { waitFor } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const tempDir = tempDirs("weir-aborted-");

/** A's records: `a:1`..`a:100` before its first snapshot, `a:101`..`a:200` after it. */
const A_BEFORE = 100;
const A_ALL = 200;
const B_ALL = 10;

/** Emits A_BEFORE records, waits for its first snapshot (barrier n is out), then emits the rest. */
function sourceA(snapshots: number[]): Source<string, "a"> {
  return {
    boundedness: "bounded",
    createSplits: () => ["a"],
    createReader(): SourceReader<string, "a"> {
      let next = 1;
      return {
        addSplits: () => {},
        pollNext(output: ReaderOutput<string>): PollStatus {
          if (next > A_BEFORE && snapshots.length === 0) return "nothing-available";
          const last = next > A_BEFORE ? A_ALL : A_BEFORE;
          for (; next <= last; next++) output.collect(`a:${next}`);
          return next > A_ALL ? "end-of-input" : "nothing-available";
        },
        isAvailable: () => new Promise<void>(() => {}), // the trigger's mail wakes the task
        snapshotState(checkpointId) {
          if (checkpointId > 0) snapshots.push(checkpointId); // -1: the engine reads the position outside a checkpoint
          return next > A_ALL ? [] : ["a"];
        },
      };
    },
  };
}

/** Its first poll does not return until `released` resolves: its task can neither read nor emit a barrier. */
function sourceB(released: Promise<void>, snapshots: number[]): Source<string, "b"> {
  return {
    boundedness: "bounded",
    createSplits: () => ["b"],
    createReader(): SourceReader<string, "b"> {
      let done = false;
      return {
        addSplits: () => {},
        async pollNext(output: ReaderOutput<string>): Promise<PollStatus> {
          await released;
          for (let i = 1; i <= B_ALL; i++) output.collect(`b:${i}`);
          done = true;
          return "end-of-input";
        },
        snapshotState(checkpointId) {
          if (checkpointId > 0) snapshots.push(checkpointId);
          return done ? [] : ["b"];
        },
      };
    },
  };
}

/** Passes values through, noting each value it sees and each checkpoint it snapshots. */
class Recorder extends RichFunction implements CheckpointedFunction {
  constructor(
    private readonly seen: Set<string>,
    private readonly snapshots: number[],
  ) {
    super();
  }
  initializeState(context: FunctionInitializationContext): void {
    context.getOperatorStateStore().getListState(new ListStateDescriptor<number>("unused"));
  }
  snapshotState(context: FunctionSnapshotContext): void {
    this.snapshots.push(context.getCheckpointId());
  }
  map(value: string): string {
    this.seen.add(value);
    return value;
  }
}

describe("a checkpoint aborted while a task aligns it (exactly-once)", () => {
  it("releases the alignment at once, snapshots nothing more of it, and leaves no files", async () => {
    const directory = tempDir();
    const log: string[] = [];
    const env = StreamExecutionEnvironment.create({ parallelism: 1, checkpointInterval: 3_600_000, checkpointDir: directory, log: (l) => log.push(l) });
    env.getCheckpointConfig().setCheckpointTimeout(1_000).setTolerableCheckpointFailureNumber(10);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const seen = new Set<string>();
    const snapshots = { a: [] as number[], b: [] as number[], map: [] as number[] };
    const a = env.fromSource(sourceA(snapshots.a), WatermarkStrategy.noWatermarks(), "a").uid("a");
    const b = env.fromSource(sourceB(released, snapshots.b), WatermarkStrategy.noWatermarks(), "b").uid("b");
    a.union(b).map(new Recorder(seen, snapshots.map)).uid("recorder").sinkTo(collectSink("out")).uid("out");
    const client = await env.executeAsync("aborted-checkpoint");
    try {
      await waitFor("A's first records at the map", () => seen.has(`a:${A_BEFORE}`));

      const error = await client.triggerCheckpoint().then(
        () => expect.fail("the checkpoint must expire: source B cannot emit its barrier"),
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ reason: "expired" });
      const aborted = (error as { checkpointId: number }).checkpointId;
      expect(snapshots.a).toEqual([aborted]);

      // A's records behind barrier n reach the map although B's barrier n never came.
      await waitFor("A's records after the aborted barrier at the map", () => seen.has(`a:${A_ALL}`));
      expect([...seen].filter((v) => v.startsWith("b:"))).toEqual([]);
      await waitFor(`chk-${aborted} deleted`, () => !existsSync(join(directory, `chk-${aborted}`)));
    } finally {
      release();
    }

    const result = await client.getJobExecutionResult();
    expect(result.restarts, log.join("\n")).toBe(0);
    const final = result.checkpoints!.lastCompleted!.checkpointId;
    expect(result.checkpoints!.history.failed.map((f) => f.checkpointId)).toEqual([final - 1]);
    // B's trigger of n ran after its abort, and the map never completed n's alignment: neither snapshotted n.
    expect(snapshots.b).toEqual([final]);
    expect(snapshots.map).toEqual([final]);
    expect(result.getCollected<string>("out").sort()).toEqual([...seen].sort());
    expect(seen.size).toBe(A_ALL + B_ALL);
    expect(readdirSync(directory)).toEqual([`chk-${final}`]);
  });

  it("a task's state written after the abort is deleted when its late ack arrives", async () => {
    const directory = tempDir();
    const storage = createCheckpointStorage({ type: "filesystem", directory }, { retained: 1, log: () => {} });
    const clock = new ManualClock(0);
    const coordinator = new CheckpointCoordinator({
      jobName: "late",
      graphFingerprint: "fp",
      settings: { intervalMs: 1000, mode: "exactly-once", timeoutMs: 100, minPauseMs: 0, maxConcurrent: 1, tolerableFailures: 5, retained: 1, storage: { type: "filesystem", directory } },
      clock,
      sourceTasks: ["src#0"],
      allTasks: ["src#0", "slow#0"],
      gateway: { triggerSource: () => {}, notifyComplete: () => {}, notifyAborted: () => {} },
      store: storage,
      ids: checkpointIdsFrom(1),
      onFailure: () => {},
    });
    const ack = async (taskId: string) => {
      const handle = await storage.writeState(1, taskId.split("#")[0]!, 0, new Uint8Array([1, 2, 3]));
      const state = { operatorUid: taskId, subtaskIndex: 0, parallelism: 1, maxParallelism: 128, handle };
      coordinator.acknowledge({ checkpointId: 1, taskId, states: [state], alignmentMs: 0, syncMs: 0, asyncMs: 0 });
    };
    const checkpoint = coordinator.triggerCheckpoint().catch((e: unknown) => e);
    await ack("src#0");
    clock.advance(100);
    expect(await checkpoint).toMatchObject({ checkpointId: 1, reason: "expired" });
    await coordinator.whenStoresSettled();
    expect(existsSync(join(directory, "chk-1"))).toBe(false);

    await ack("slow#0"); // its write ran on past the abort and created chk-1 again
    await coordinator.whenStoresSettled();
    expect(readdirSync(directory)).toEqual([]);
  });
});
