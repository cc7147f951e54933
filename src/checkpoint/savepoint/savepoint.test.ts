import { mkdtemp, readdir, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCheckpointStorage } from "../storage/index.ts";
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

  it("refuses a truncated state file and a missing savepoint, naming them", async () => {
    const path = await writeSavepoint(await completedCheckpoint("filesystem"), await mkdtemp(join(tmpdir(), "weir-sp-")));
    await truncate(join(path, "counts-1.state"), 1);
    await expect(readSavepoint(path)).rejects.toThrow(/counts-1\.state/);
    await expect(readSavepoint(join(path, "nope"))).rejects.toThrow(/missing _metadata/);
  });
});
