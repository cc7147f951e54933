import { readdir, readFile, stat, truncate, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { seededRandom, testSeed } from "../../util/seeded-random.ts";
import type { CompletedCheckpoint, SharedStateRef } from "../types.ts";
import { createCheckpointStorage } from "./create-checkpoint-storage.ts";
import { CorruptCheckpointError } from "./errors.ts";
import { FileSystemCheckpointStorage } from "./filesystem-storage.ts";
import { JobManagerCheckpointStorage } from "./jobmanager-storage.ts";
import { completedCheckpoint, storeCompleted } from "./test-checkpoints.ts";
import { IncrementalSubtask, referencedSharedFiles, sharedFilesOnDisk, taskStorage } from "./test-incremental.ts";

const tempDir = tempDirs("weir-shared-");
const seed = testSeed();
const enc = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

function coordinator(dir: string, retained = 1, warnings: string[] = []): FileSystemCheckpointStorage {
  return new FileSystemCheckpointStorage({ directory: dir, retained, log: (w) => warnings.push(w) });
}

/** Checkpoint `id` of one subtask whose chain is `chain` (refs already written). */
async function complete(dir: string, id: number, chain: readonly SharedStateRef[], retained = 1): Promise<CompletedCheckpoint> {
  const handle = await taskStorage(dir).writeState(id, "counts", 0, enc(`private ${id}`));
  return storeCompleted(coordinator(dir, retained), completedCheckpoint(id, [{ uid: "counts", subtask: 0, handle, shared: chain }]));
}

/** The absolute path of a ref written by the filesystem storage of `dir`. */
const fileOf = (dir: string, ref: SharedStateRef) => join(dir, "shared", ref.path.split("/").at(-1)!);

async function rejection(promise: Promise<unknown>): Promise<CorruptCheckpointError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CorruptCheckpointError);
  return error as CorruptCheckpointError;
}

describe("shared state files in the filesystem storage", () => {
  it("writes an immutable file under shared/ and reads it back, verified, through a fresh instance", async () => {
    const dir = join(tempDir(), "job");
    const storage = taskStorage(dir);
    expect(storage.supportsSharedState).toBe(true);
    const ref = await storage.writeSharedState(3, "word counts/v2", 1, enc("base of 3"));
    expect(ref).toMatchObject({ size: 9, checkpointId: 3 });
    expect(ref.path).toMatch(/^\.\.\/shared\/word%20counts%2Fv2-1-3-[0-9a-f]{12}\.state$/);
    expect(await readFile(fileOf(dir, ref), "utf8")).toBe("base of 3");
    expect(await readdir(join(dir, "shared"))).toHaveLength(1); // no temporary file left
    const again = await storage.writeSharedState(3, "word counts/v2", 1, enc("other"));
    expect(again.path).not.toBe(ref.path);
    expect(await storage.highestCheckpointId()).toBe(3); // a restarted job numbers on above ids that only wrote shared files

    const stored = await complete(dir, 3, [ref, again]);
    const restarted = coordinator(dir);
    const { checkpoint, damaged } = await restarted.latestCompleted();
    expect(damaged).toEqual([]);
    expect(checkpoint).toEqual(stored);
    expect(checkpoint!.states[0]!.shared).toEqual([ref, again]);
    expect(text(await restarted.readSharedState(checkpoint!, ref))).toBe("base of 3");
    expect(text(await restarted.readSharedState(checkpoint!, again))).toBe("other");
    expect(restarted.sharedStateReusable(checkpoint!)).toBe(true);
    expect(coordinator(join(tempDir(), "other-job")).sharedStateReusable(checkpoint!)).toBe(false);
  });

  it("names the file and the reason for a missing, truncated or altered shared file, and for a path outside shared/", async () => {
    const dir = join(tempDir(), "job");
    const refs = await Promise.all(["aaaa", "bbbb", "cccc"].map((s, i) => taskStorage(dir).writeSharedState(1, "counts", 0, enc(s + i))));
    const checkpoint = await complete(dir, 1, refs);
    const storage = coordinator(dir);
    await unlink(fileOf(dir, refs[0]!));
    await truncate(fileOf(dir, refs[1]!), 2);
    await writeFile(fileOf(dir, refs[2]!), "xxxx2");
    const cases: [SharedStateRef, RegExp][] = [
      [refs[0]!, /shared state file is missing/],
      [refs[1]!, /size is 2 bytes, expected 5/],
      [refs[2]!, /checksum mismatch \(expected [0-9a-f]{8}, found [0-9a-f]{8}\)/],
    ];
    for (const [ref, reason] of cases) {
      const error = await rejection(storage.readSharedState(checkpoint, ref));
      expect(error.path).toBe(fileOf(dir, ref));
      expect(error.message).toContain(fileOf(dir, ref));
      expect(error.reason).toMatch(reason);
    }
    for (const path of ["../../etc/passwd", "/etc/passwd", "../shared/../chk-1/_metadata"]) {
      const error = await rejection(storage.readSharedState(checkpoint, { ...refs[0]!, path }));
      expect(error.message).toContain(JSON.stringify(path));
      expect(error.message).toContain(checkpoint.directory!);
    }
    const noDirectory = await rejection(storage.readSharedState({ ...checkpoint, directory: undefined }, refs[0]!));
    expect(noDirectory.reason).toMatch(/checkpoint 1 has no directory/);
  });

  it("latestCompleted calls a checkpoint with a bad shared file damaged, naming the file, and falls back to an older one", async () => {
    const dir = join(tempDir(), "job");
    const random = seededRandom(seed);
    const subtask = new IncrementalSubtask("counts", 0, random);
    const storage = coordinator(dir, 3);
    for (const id of [1, 2, 3]) await storeCompleted(storage, completedCheckpoint(id, [await subtask.snapshot(taskStorage(dir), id)]));
    const [base, delta2, delta3] = subtask.chain;

    await unlink(fileOf(dir, delta3!));
    let latest = await storage.latestCompleted();
    expect(latest.checkpoint?.checkpointId, `seed ${seed}`).toBe(2);
    expect(latest.damaged.map((d) => [d.checkpointId, d.error.path, d.error.reason])).toEqual([[3, fileOf(dir, delta3!), "shared state file is missing"]]);
    expect(latest.damaged[0]!.error.message).toContain(fileOf(dir, delta3!));

    await truncate(fileOf(dir, delta2!), 1);
    latest = await storage.latestCompleted();
    expect(latest.checkpoint?.checkpointId).toBe(1);
    expect(latest.damaged.map((d) => [d.checkpointId, d.error.path])).toEqual([
      [3, fileOf(dir, delta2!)], // the first bad file of the chain
      [2, fileOf(dir, delta2!)],
    ]);
    expect(latest.damaged[0]!.error.reason).toMatch(/^size is 1 bytes, expected \d+$/);

    const bytes = await readFile(fileOf(dir, base!));
    bytes[7] ^= 0xff;
    await writeFile(fileOf(dir, base!), bytes);
    latest = await storage.latestCompleted();
    expect(latest.checkpoint).toBeNull();
    expect(latest.damaged.map((d) => [d.checkpointId, d.error.path])).toEqual([3, 2, 1].map((id) => [id, fileOf(dir, base!)]));
    expect(latest.damaged[2]!.error.reason).toMatch(/checksum mismatch/);
  });

  it("discardAborted leaves shared files; cleanup after the next completed checkpoint keeps those still in a chain", async () => {
    const dir = join(tempDir(), "job");
    const random = seededRandom(seed);
    const subtask = new IncrementalSubtask("counts", 0, random);
    const storage = coordinator(dir);
    await storeCompleted(storage, completedCheckpoint(1, [await subtask.snapshot(taskStorage(dir), 1)]));
    await subtask.snapshot(taskStorage(dir), 2); // aborted, but its delta is in the subtask's chain from now on
    const orphan = await taskStorage(dir).writeSharedState(2, "counts", 0, enc("written by a task that failed"));
    await storage.discardAborted(2);
    expect(await readdir(dir)).toEqual(["chk-1", "shared"]);
    expect((await sharedFilesOnDisk(dir)).size).toBe(3);

    await storeCompleted(storage, completedCheckpoint(3, [await subtask.snapshot(taskStorage(dir), 3)]));
    expect(subtask.chain.map((r) => r.checkpointId)).toEqual([1, 2, 3]);
    expect([...(await sharedFilesOnDisk(dir))].sort()).toEqual(subtask.chain.map((r) => fileOf(dir, r)).sort());
    expect(await sharedFilesOnDisk(dir)).not.toContain(fileOf(dir, orphan));
  });

  it("a job restarted on the same directory keeps its restored chain: the restore checkpoint stays until a newer one, which references the chain", async () => {
    const dir = join(tempDir(), "job");
    const random = seededRandom(seed);
    const firstRun = new IncrementalSubtask("counts", 0, random);
    for (const id of [1, 2, 3]) await storeCompleted(coordinator(dir), completedCheckpoint(id, [await firstRun.snapshot(taskStorage(dir), id)]));

    // second run: restores checkpoint 3, an attempt fails (aborted 4), then 5 completes
    const secondRun = new IncrementalSubtask("counts", 0, random);
    const storage = coordinator(dir);
    const { checkpoint: restored } = await storage.latestCompleted();
    expect(restored?.checkpointId).toBe(3);
    expect(storage.sharedStateReusable(restored!)).toBe(true);
    secondRun.restore(restored!);
    await secondRun.snapshot(taskStorage(dir), 4);
    await storage.discardAborted(4);
    expect(await readdir(dir)).toEqual(["chk-3", "shared"]); // the restore checkpoint is retained meanwhile
    await storeCompleted(storage, completedCheckpoint(5, [await secondRun.snapshot(taskStorage(dir), 5)]));
    expect(secondRun.chain.map((r) => r.checkpointId)).toEqual([1, 2, 3, 4, 5]);
    expect(await readdir(dir)).toEqual(["chk-5", "shared"]);
    const { checkpoint } = await coordinator(dir).latestCompleted();
    expect(checkpoint?.checkpointId).toBe(5);
    for (const ref of secondRun.chain) expect(await storage.readSharedState(checkpoint!, ref)).toHaveLength(ref.size);

    // third run rebases (e.g. rescaled): once its checkpoint completes, the old chain goes
    const thirdRun = new IncrementalSubtask("counts", 0, random);
    await storeCompleted(storage, completedCheckpoint(6, [await thirdRun.snapshot(taskStorage(dir), 6, true)]));
    expect([...(await sharedFilesOnDisk(dir))]).toEqual([fileOf(dir, thirdRun.chain[0]!)]);
    expect(await referencedSharedFiles(storage)).toEqual(await sharedFilesOnDisk(dir));
  });

  it("leaves shared/ alone while a retained checkpoint's metadata was written by a newer Weir (its references are unknown)", async () => {
    const dir = join(tempDir(), "job");
    const warnings: string[] = [];
    await complete(dir, 2, []);
    const orphan = await taskStorage(dir).writeSharedState(1, "counts", 0, enc("maybe referenced"));
    await writeFile(join(dir, "chk-2", "_metadata"), "WEIR-CHECKPOINT 99 00000000 0\n");
    const storage = coordinator(dir, 2, warnings);
    await storeCompleted(storage, completedCheckpoint(3, [{ uid: "counts", subtask: 0, handle: await taskStorage(dir).writeState(3, "counts", 0, enc("x")) }]));
    expect((await stat(fileOf(dir, orphan))).size).toBe(16);
    expect(warnings.join("\n")).toMatch(/not cleaning up .*shared: .*newer Weir/);
  });
});

describe("shared state files in the jobmanager storage", () => {
  it("are refused: backends write full snapshots there", async () => {
    const storage = createCheckpointStorage({ type: "jobmanager" }, { retained: 1 });
    expect(storage.supportsSharedState).toBe(false);
    await expect(storage.writeSharedState(4, "counts", 1, enc("delta"))).rejects.toThrow(
      /jobmanager checkpoint storage keeps no shared state files \(incremental checkpoint 4 of operator 'counts', subtask 1\).*filesystem checkpoint storage/,
    );
  });

  it("still reads the shared files of a filesystem checkpoint it restores from, but never reuses them", async () => {
    const dir = join(tempDir(), "job");
    const ref = await taskStorage(dir).writeSharedState(1, "counts", 0, enc("base"));
    const checkpoint = await complete(dir, 1, [ref]);
    const storage = new JobManagerCheckpointStorage({ maxStateSize: 100, retained: 1 });
    expect(text(await storage.readSharedState(checkpoint, ref))).toBe("base");
    expect(storage.sharedStateReusable(checkpoint)).toBe(false);
  });
});
