import { mkdtemp, readdir, rm, truncate, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { seededRandom, testSeed } from "../../util/seeded-random.ts";
import { createCheckpointStorage, FileSystemCheckpointStorage } from "../storage/index.ts";
import { completedCheckpoint as testCheckpoint } from "../storage/test-checkpoints.ts";
import { IncrementalSubtask, taskStorage } from "../storage/test-incremental.ts";
import type { CompletedCheckpoint } from "../types.ts";
import { readSavepoint, writeSavepoint } from "./savepoint.ts";

async function completedCheckpoint(kind: "jobmanager" | "filesystem"): Promise<CompletedCheckpoint> {
  const dir = await mkdtemp(join(tmpdir(), "weir-sp-src-"));
  const storage = createCheckpointStorage(kind === "jobmanager" ? { type: "jobmanager" } : { type: "filesystem", directory: dir }, { retained: 1 });
  const a = await storage.writeState(4, "counts", 0, new Uint8Array([1, 2, 3]));
  const b = await storage.writeState(4, "counts", 1, new Uint8Array([4, 5]));
  return storage.addCompleted({
    version: 1,
    jobName: "orders job",
    checkpointId: 4,
    timestamp: 1,
    completedAt: 2,
    savepoint: false,
    graphFingerprint: "f",
    states: [
      { operatorUid: "counts", subtaskIndex: 0, parallelism: 2, maxParallelism: 128, keyGroupRange: [0, 63], handle: a },
      { operatorUid: "counts", subtaskIndex: 1, parallelism: 2, maxParallelism: 128, keyGroupRange: [64, 127], handle: b },
    ],
  });
}

describe("savepoints", () => {
  for (const kind of ["jobmanager", "filesystem"] as const) {
    it(`copies a ${kind} checkpoint into a self-contained directory that reads back`, async () => {
      const cp = await completedCheckpoint(kind);
      const target = await mkdtemp(join(tmpdir(), "weir-sp-"));
      const path = await writeSavepoint(cp, target);
      expect(path).toBe(join(target, "savepoint-orders_job-4"));
      expect((await readdir(path)).sort()).toEqual(["_metadata", "counts-0.state", "counts-1.state"]);
      const back = await readSavepoint(path);
      expect(back.savepoint).toBe(true);
      expect(back.checkpointId).toBe(4);
      expect(back.states.map((s) => [s.subtaskIndex, s.keyGroupRange, s.handle.kind])).toEqual([
        [0, [0, 63], "file"],
        [1, [64, 127], "file"],
      ]);
      expect(await readSavepoint(join(path, "_metadata"))).toEqual(back);
    });
  }

  it("refuses a truncated state file as corrupt; a path that does not exist, a file, a folder without _metadata as no savepoint, naming them", async () => {
    const path = await writeSavepoint(await completedCheckpoint("filesystem"), await mkdtemp(join(tmpdir(), "weir-sp-")));
    await truncate(join(path, "counts-1.state"), 1);
    await expect(readSavepoint(path)).rejects.toThrow(/counts-1\.state/);
    await expect(readSavepoint(join(path, "nope"))).rejects.toThrow(`savepoint ${join(path, "nope")} does not exist`);
    await expect(readSavepoint(join(path, "counts-0.state"))).rejects.toThrow(`savepoint ${join(path, "counts-0.state")} is a file, not a savepoint directory`);
    await expect(readSavepoint(tmpdir())).rejects.toThrow(`savepoint ${tmpdir()} is not a savepoint: it has no _metadata`);
  });
});

describe("savepoints of incremental checkpoints", () => {
  const seed = testSeed();
  const tempDir = tempDirs("weir-sp-inc-");

  /** Checkpoints 1..3 of two subtasks whose chains overlap over time (subtask 1 rebases at 2), retained 2. */
  async function incrementalCheckpoint(): Promise<{ dir: string; checkpoint: CompletedCheckpoint }> {
    const dir = join(tempDir(), "job");
    const random = seededRandom(seed);
    const subtasks = [new IncrementalSubtask("counts", 0, random), new IncrementalSubtask("counts", 1, random)];
    const coordinator = new FileSystemCheckpointStorage({ directory: dir, retained: 2, log: () => {} });
    let checkpoint!: CompletedCheckpoint;
    for (const id of [1, 2, 3]) {
      const acks = await Promise.all(subtasks.map((s) => s.snapshot(taskStorage(dir), id, id === 2 && s.subtask === 1)));
      checkpoint = await coordinator.addCompleted(testCheckpoint(id, acks));
    }
    return { dir, checkpoint };
  }

  it("copies every shared file into the savepoint, which restores after the checkpoint directory is deleted", async () => {
    const { dir, checkpoint } = await incrementalCheckpoint();
    const storage = taskStorage(dir);
    const original = await Promise.all(checkpoint.states.map((s) => Promise.all(s.shared!.map((ref) => storage.readSharedState(checkpoint, ref)))));
    expect(checkpoint.states.map((s) => s.shared!.length), `seed ${seed}`).toEqual([3, 2]);

    const path = await writeSavepoint(checkpoint, tempDir());
    await rm(dir, { recursive: true });

    const back = await readSavepoint(path);
    const names = checkpoint.states.flatMap((s) => s.shared!.map((r) => r.path.replace("../shared/", "")));
    expect((await readdir(join(path, "shared"))).sort()).toEqual([...names].sort());
    for (const [i, state] of back.states.entries()) {
      expect(state.shared!.map((r) => r.path)).toEqual(checkpoint.states[i]!.shared!.map((r) => r.path.replace("../shared/", "shared/")));
      expect(state.shared!.map(({ size, crc, checkpointId }) => ({ size, crc, checkpointId }))).toEqual(
        checkpoint.states[i]!.shared!.map(({ size, crc, checkpointId }) => ({ size, crc, checkpointId })),
      );
      // restore: any storage reads the chain from the savepoint
      for (const restoring of [new FileSystemCheckpointStorage({ directory: join(tempDir(), "new-job"), retained: 1, log: () => {} }), createCheckpointStorage({ type: "jobmanager" }, { retained: 1 })]) {
        expect(await Promise.all(state.shared!.map((ref) => restoring.readSharedState(back, ref)))).toEqual(original[i]);
        expect(restoring.sharedStateReusable(back)).toBe(false);
      }
      expect(await taskStorage(dir).readState(back, state.handle)).toHaveLength(state.handle.size);
    }
    // a savepoint of the savepoint is self-contained too
    const again = await readSavepoint(await writeSavepoint(back, tempDir()));
    expect(again.states.map((s) => s.shared)).toEqual(back.states.map((s) => s.shared));
  });

  it("refuses to write a savepoint from a chain with a missing file, and readSavepoint names a missing copy", async () => {
    const { dir, checkpoint } = await incrementalCheckpoint();
    const ref = checkpoint.states[0]!.shared![1]!;
    const sharedFile = join(dir, ref.path.replace("../", ""));
    const target = tempDir();
    const path = await writeSavepoint(checkpoint, target);
    await unlink(join(path, ref.path.replace("../", "")));
    await expect(readSavepoint(path)).rejects.toThrow(`corrupt checkpoint file ${join(path, ref.path.replace("../", ""))}: shared state file is missing`);

    await truncate(sharedFile, 3);
    await expect(writeSavepoint(checkpoint, tempDir())).rejects.toThrow(`corrupt checkpoint file ${sharedFile}: size is 3 bytes`);
    await unlink(sharedFile);
    await expect(writeSavepoint(checkpoint, tempDir())).rejects.toThrow(`corrupt checkpoint file ${sharedFile}: shared state file is missing`);
  });
});
