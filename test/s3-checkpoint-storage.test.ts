/**
 * The filesystem checkpoint storage on a real S3-compatible server (S3Proxy), through the same code as on local
 * disk: incremental checkpoints' shared files, retention and their cleanup survive a crash before every step of
 * completing a checkpoint (the scene of shared-state-crash.test.ts, in an object store: no rename, a checkpoint is
 * complete when its `_metadata` object exists); a corrupt or missing metadata or state object is reported with
 * its `s3://` location and the storage falls back past it; a savepoint in S3 is self-contained; a missing bucket
 * is named before anything is written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSavepoint, readSavepoint } from "../src/checkpoint/savepoint/savepoint.ts";
import { CheckpointDirectoryError, CorruptCheckpointError, FileSystemCheckpointStorage, SavepointNotFoundError } from "../src/checkpoint/storage/index.ts";
import { fileSystemsFor } from "../src/checkpoint/storage/file-systems.ts";
import type { FileSystems } from "../src/checkpoint/storage/storage-file-system.ts";
import { completedCheckpoint } from "../src/checkpoint/storage/test-checkpoints.ts";
import {
  buildIncrementalScene,
  coordinatorStorage,
  IncrementalSubtask,
  recoverAndCheck,
  stepsOfStoringCheckpoint5,
  taskStorage,
} from "../src/checkpoint/storage/test-incremental.ts";
import { seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { startS3Server, type S3Server } from "./support/s3-server.ts";

let s3: S3Server;
let fileSystems: FileSystems;
const seed = testSeed();
let dirs = 0;
/** A fresh directory in the bucket. */
const freshDir = (): string => `s3://checkpoints/job-${++dirs}`;

beforeAll(async () => {
  s3 = await startS3Server(["checkpoints"]);
  fileSystems = fileSystemsFor(s3.settings);
}, 120_000);
afterAll(() => s3?.stop());

class Crash extends Error {}

describe("checkpoints in S3", () => {
  it("incremental checkpoints: completing one and cleaning up survive a crash before every step", async () => {
    const steps = await stepsOfStoringCheckpoint5(freshDir(), seededRandom(seed), fileSystems);
    expect(steps.map((s) => s.replace(/-[0-9a-f]{12}\.state$/, "")), `seed ${seed}`).toEqual([
      "write chk-5/_metadata",
      "delete chk-2",
      "delete shared/counts-1-1",
      "delete shared/counts-1-2",
      "delete shared/counts-1-2",
    ]);
    for (let step = 0; step <= steps.length; step++) {
      const dir = freshDir();
      const { checkpoint5, subtasks } = await buildIncrementalScene(dir, seededRandom(seed), fileSystems);
      let at = 0;
      const warnings: string[] = [];
      const crashing = coordinatorStorage(
        dir,
        fileSystems,
        () => {
          if (at++ === step) throw new Crash(`crash before step ${step}`);
        },
        (w) => warnings.push(w),
      );
      if (step === 0) await expect(crashing.addCompleted(checkpoint5)).rejects.toBeInstanceOf(Crash);
      else {
        // the cleanup after the metadata runs in the background: the crash stops it, the checkpoint has completed
        await expect(crashing.addCompleted(checkpoint5)).resolves.toMatchObject({ checkpointId: 5 });
        await crashing.settled();
        expect(warnings, `seed ${seed}`).toEqual(step < steps.length ? [expect.stringContaining(`crash before step ${step}`)] : []);
      }
      await recoverAndCheck(dir, step, `seed ${seed}, crash before step ${step} (${steps[step] ?? "no crash"})`, subtasks, fileSystems);
    }
  });

  it("a corrupt or missing metadata object and a missing state object are reported with their s3:// location; the latest good checkpoint is restored", async () => {
    const dir = freshDir();
    const warnings: string[] = [];
    const coordinator = new FileSystemCheckpointStorage({ directory: dir, retained: 3, log: (w) => warnings.push(w), fileSystems });
    const subtask = new IncrementalSubtask("counts", 0, seededRandom(seed));
    for (const id of [1, 2, 3]) await coordinator.addCompleted(completedCheckpoint(id, [await subtask.snapshot(taskStorage(dir, fileSystems), id)]));
    const fs = fileSystems(dir);
    await fs.write(`${dir}/chk-3/_metadata`, new TextEncoder().encode("WEIR-CHECKPOINT 1 00000000 5\nhello"), "atomic");
    let latest = await coordinator.latestCompleted();
    expect(latest.checkpoint?.checkpointId).toBe(2);
    expect(latest.damaged).toHaveLength(1);
    expect(latest.damaged[0]!.location).toBe(`${dir}/chk-3`);
    expect(latest.damaged[0]!.error).toBeInstanceOf(CorruptCheckpointError);
    expect(latest.damaged[0]!.error.message).toMatch(new RegExp(`^corrupt checkpoint file ${dir}/chk-3/_metadata: checksum mismatch`));
    await fs.delete(`${dir}/chk-2/counts-0.state`);
    latest = await coordinator.latestCompleted();
    expect(latest.checkpoint?.checkpointId).toBe(1);
    expect(latest.damaged.map((d) => d.error.message)).toEqual([
      expect.stringMatching(new RegExp(`^corrupt checkpoint file ${dir}/chk-3/_metadata: checksum mismatch`)),
      `corrupt checkpoint file ${dir}/chk-2/counts-0.state: file is missing`,
    ]);
    // a missing metadata object: a partial checkpoint, neither complete nor damaged, but its id counts
    await fs.delete(`${dir}/chk-3/_metadata`);
    latest = await coordinator.latestCompleted();
    expect(latest.damaged.map((d) => d.checkpointId)).toEqual([2]);
    expect(await coordinator.highestCheckpointId()).toBe(3);
  });

  it("a savepoint of an incremental checkpoint in S3 is self-contained: it restores after the checkpoints are deleted", async () => {
    const dir = freshDir();
    const subtasks = [new IncrementalSubtask("counts", 0, seededRandom(seed)), new IncrementalSubtask("counts", 1, seededRandom(seed + 1))];
    const coordinator = coordinatorStorage(dir, fileSystems);
    let last;
    for (const id of [1, 2, 3]) last = await coordinator.addCompleted(completedCheckpoint(id, await Promise.all(subtasks.map((s) => s.snapshot(taskStorage(dir, fileSystems), id)))));
    const path = await writeSavepoint(last!, "s3://checkpoints/savepoints/", fileSystems);
    expect(path).toBe("s3://checkpoints/savepoints/savepoint-job-3");
    await fileSystems(dir).deleteDirectory(dir);
    const savepoint = await readSavepoint(path, fileSystems);
    expect(savepoint.savepoint).toBe(true);
    expect(savepoint.states.flatMap((s) => s.shared ?? []).every((r) => r.path.startsWith("shared/"))).toBe(true);
    for (const state of savepoint.states) {
      const bytes = await taskStorage(freshDir(), fileSystems).readState(savepoint, state.handle);
      expect(new TextDecoder().decode(bytes)).toBe(`operator state counts/${state.subtaskIndex} @3`);
      for (const ref of state.shared ?? []) expect(await taskStorage(freshDir(), fileSystems).readSharedState(savepoint, ref)).toHaveLength(ref.size);
    }
    expect(await readSavepoint(`${path}/_metadata`, fileSystems)).toEqual(savepoint);
    await expect(readSavepoint("s3://checkpoints/savepoints/none", fileSystems)).rejects.toThrow(
      new SavepointNotFoundError("s3://checkpoints/savepoints/none", "does not exist"),
    );
    await fileSystems(dir).write(`${dir}/chk-9/x.state`, new Uint8Array(1), "durable");
    await expect(readSavepoint(`${dir}/chk-9`, fileSystems)).rejects.toThrow(`savepoint ${dir}/chk-9 is not a savepoint: it has no _metadata`);
  });

  it("a missing bucket is named by the start-up check, before anything is written", async () => {
    const storage = new FileSystemCheckpointStorage({ directory: "s3://no-such-bucket/job", retained: 1, log: () => {}, fileSystems });
    await expect(storage.checkWritable()).rejects.toThrow(
      new CheckpointDirectoryError("s3://no-such-bucket/job", `cannot be used: bucket 'no-such-bucket' does not exist at endpoint ${s3.endpoint}`),
    );
    await expect(coordinatorStorage(freshDir(), fileSystems).checkWritable()).resolves.toBeUndefined();
  });
});
