import { mkdir, mkdtemp, readdir, readFile, rm, truncate, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CheckpointStorage } from "./checkpoint-storage.ts";
import { createCheckpointStorage } from "./create-checkpoint-storage.ts";
import { CheckpointDirectoryError, CheckpointVersionError, CorruptCheckpointError } from "./errors.ts";
import { FileSystemCheckpointStorage } from "./filesystem-storage.ts";
import { crc32 } from "../../util/crc32.ts";
import { completedCheckpoint, storeCompleted } from "./test-checkpoints.ts";

let root: string;
let dir: string;
let warnings: string[];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "weir-fs-storage-"));
  dir = join(root, "checkpoints", "job"); // created on first write
  warnings = [];
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function open(retained = 1): CheckpointStorage {
  return createCheckpointStorage({ type: "filesystem", directory: dir }, { retained, log: (w) => warnings.push(w) });
}

/** Runs checkpoint `id` the way a job does: two task instances write, a coordinator instance completes (and cleans up). */
async function checkpoint(coordinator: CheckpointStorage, id: number, payload = `state-${id}`) {
  const enc = (s: string) => new TextEncoder().encode(s);
  const handles = await Promise.all([
    open().writeState(id, "word counts/v2", 0, enc(`${payload}-a`)),
    open().writeState(id, "word counts/v2", 1, enc(`${payload}-b`)),
  ]);
  return storeCompleted(
    coordinator,
    completedCheckpoint(id, [
      { uid: "word counts/v2", subtask: 0, handle: handles[0] },
      { uid: "word counts/v2", subtask: 1, handle: handles[1] },
    ]),
  );
}

const chkDirs = async () => (await readdir(dir)).sort();
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe("filesystem checkpoint storage", () => {
  it("round-trips written state and metadata through a fresh instance", async () => {
    expect(await open().latestCompleted()).toEqual({ checkpoint: null, damaged: [] });
    expect(await open().highestCheckpointId()).toBe(0);
    const stored = await checkpoint(open(), 1);
    expect(stored.directory).toBe(join(dir, "chk-1"));
    expect((await readdir(stored.directory!)).sort()).toEqual(["_metadata", "word%20counts%2Fv2-0.state", "word%20counts%2Fv2-1.state"]);

    const restarted = open();
    const { checkpoint: latest } = await restarted.latestCompleted();
    expect(latest).toEqual(stored);
    const states = await Promise.all(latest!.states.map((s) => restarted.readState(latest!, s.handle)));
    expect(states.map(text)).toEqual(["state-1-a", "state-1-b"]);
    expect(warnings).toEqual([]);
  });

  it("checkWritable: a probe that leaves nothing behind; a file where the directory (or a folder above it) should be is named", async () => {
    await open().checkWritable();
    expect(await readdir(root)).toEqual([]);
    await checkpoint(open(), 1);
    await open().checkWritable();
    expect(await chkDirs()).toEqual(["chk-1"]);
    await rm(join(root, "checkpoints"), { recursive: true });
    await writeFile(join(root, "checkpoints"), "a file");
    await expect(open().checkWritable()).rejects.toThrow(
      new CheckpointDirectoryError(dir, `cannot be created: ${join(root, "checkpoints")} is a file, not a directory`),
    );
    await rm(join(root, "checkpoints"));
    await mkdir(join(root, "checkpoints"));
    await writeFile(dir, "a file");
    await expect(open().checkWritable()).rejects.toThrow(`checkpoint directory ${dir} is a file, not a directory`);
  });

  it("retains the newest N completed checkpoints and deletes older directories", async () => {
    const coordinator = open(2);
    for (const id of [1, 2, 3, 4]) await checkpoint(coordinator, id);
    expect(await chkDirs()).toEqual(["chk-3", "chk-4"]);
    expect((await open(2).listCompleted()).map((c) => c.checkpointId)).toEqual([3, 4]);
    expect((await open(2).latestCompleted()).checkpoint!.checkpointId).toBe(4);
    expect((await open(2).latestCompleted(4)).checkpoint!.checkpointId).toBe(4);
    expect(await open(2).latestCompleted(5)).toEqual({ checkpoint: null, damaged: [] });
  });

  it("creates the directories of a checkpoint no task wrote a file for", async () => {
    const handle = { kind: "inline", data: new Uint8Array([7]), size: 1, crc: crc32(new Uint8Array([7])) } as const;
    const stored = await storeCompleted(open(), completedCheckpoint(1, [{ uid: "op", subtask: 0, handle }]));
    expect(stored.directory).toBe(join(dir, "chk-1"));
    expect(await readdir(join(dir, "chk-1"))).toEqual(["_metadata"]);
    expect((await open().latestCompleted()).checkpoint?.checkpointId).toBe(1);
  });

  it("completes a checkpoint before deleting the old ones, which go in the background, one cleanup after the other", async () => {
    const steps: string[] = [];
    const coordinator = new FileSystemCheckpointStorage({ directory: dir, retained: 1, log: (w) => warnings.push(w), crashPoint: (s) => steps.push(s) });
    const write = (id: number) => open().writeState(id, "op", 0, new Uint8Array([id]));
    const complete = async (id: number) => coordinator.addCompleted(completedCheckpoint(id, [{ uid: "op", subtask: 0, handle: await write(id) }]));
    await complete(1);
    await coordinator.settled();
    steps.length = 0;
    await complete(2);
    expect(steps).toEqual(["write chk-2/_metadata"]); // completed: nothing deleted yet
    expect(await chkDirs()).toEqual(["chk-1", "chk-2"]);
    await complete(3);
    await complete(4);
    await coordinator.settled();
    expect(await chkDirs()).toEqual(["chk-4"]);
    expect(steps.filter((s) => s.startsWith("delete"))).toEqual(["delete chk-1", "delete chk-2", "delete chk-3"]);
    expect(warnings).toEqual([]);
  });

  it("removes an aborted checkpoint's directory, and retention cleans stray partial ones", async () => {
    const coordinator = open();
    await checkpoint(coordinator, 1);
    await open().writeState(2, "op", 0, new Uint8Array([1]));
    await coordinator.discardAborted(2);
    expect(await chkDirs()).toEqual(["chk-1"]);

    // A crash left chk-3 without metadata (and a stray temp file); chk-5 is still in flight.
    await open().writeState(3, "op", 0, new Uint8Array([1]));
    await writeFile(join(dir, "chk-3", ".op-1.state.abc.tmp"), "partial");
    await open().writeState(5, "op", 0, new Uint8Array([1]));
    expect(await coordinator.highestCheckpointId()).toBe(5);
    await checkpoint(coordinator, 4);
    expect(await chkDirs()).toEqual(["chk-4", "chk-5"]);
  });

  it("never discards a completed checkpoint as aborted", async () => {
    const coordinator = open();
    await checkpoint(coordinator, 1);
    await coordinator.discardAborted(1);
    expect(await chkDirs()).toEqual(["chk-1"]);
    expect(warnings).toEqual([expect.stringContaining("not discarding checkpoint 1")]);
  });

  it("counts partial checkpoint directories in highestCheckpointId and ignores other names", async () => {
    await open().writeState(7, "op", 0, new Uint8Array([1]));
    await mkdir(join(dir, "chk-99.old"));
    await writeFile(join(dir, "chk-50"), "a file, not a directory");
    const storage = open();
    expect(await storage.highestCheckpointId()).toBe(7);
    expect(await storage.latestCompleted()).toEqual({ checkpoint: null, damaged: [] }); // an incomplete checkpoint is not damaged
    expect(warnings).toEqual([]);
  });

  const corruptions: [string, (chk: string) => Promise<void>, RegExp][] = [
    [
      "a flipped byte in _metadata",
      async (chk) => {
        const bytes = await readFile(join(chk, "_metadata"));
        bytes[bytes.length - 3]! ^= 0x20;
        await writeFile(join(chk, "_metadata"), bytes);
      },
      /_metadata: checksum mismatch/,
    ],
    ["an empty _metadata", (chk) => writeFile(join(chk, "_metadata"), ""), /_metadata: empty file/],
    ["a truncated state file", (chk) => truncate(join(chk, "word%20counts%2Fv2-1.state"), 3), /v2-1\.state: size is 3 bytes, expected 9/],
    ["a deleted state file", (chk) => unlink(join(chk, "word%20counts%2Fv2-0.state")), /v2-0\.state: file is missing/],
    [
      "a same-size altered state file",
      (chk) => writeFile(join(chk, "word%20counts%2Fv2-0.state"), "STATE-2-a"),
      /v2-0\.state: checksum mismatch/,
    ],
  ];

  for (const [what, corrupt, reason] of corruptions) {
    it(`skips the latest checkpoint with ${what}, reports why, and returns the previous one`, async () => {
      const coordinator = open(2);
      const first = await checkpoint(coordinator, 1);
      await checkpoint(coordinator, 2);
      await corrupt(join(dir, "chk-2"));

      const { checkpoint: latest, damaged } = await open(2).latestCompleted();
      expect(latest).toEqual(first);
      expect(damaged).toEqual([{ checkpointId: 2, location: join(dir, "chk-2"), error: expect.any(CorruptCheckpointError) }]);
      expect(damaged[0]!.error.message).toContain(join(dir, "chk-2"));
      expect(damaged[0]!.error.message).toMatch(reason);
      expect(await open(2).latestCompleted(2)).toMatchObject({ checkpoint: null, damaged: [{ checkpointId: 2 }] });
      expect(await open(2).highestCheckpointId()).toBe(2);
    });
  }

  it("returns no checkpoint and every damaged one, newest first, when every checkpoint is corrupt", async () => {
    const coordinator = open(2);
    await checkpoint(coordinator, 1);
    await checkpoint(coordinator, 2);
    await writeFile(join(dir, "chk-1", "_metadata"), "WEIR-CHECKPOINT 1 nonsense\n{}");
    await truncate(join(dir, "chk-2", "word%20counts%2Fv2-0.state"), 0);
    const { checkpoint: latest, damaged } = await open(2).latestCompleted();
    expect(latest).toBeNull();
    expect(damaged.map((d) => d.checkpointId)).toEqual([2, 1]);
    expect(damaged[0]!.error.message).toMatch(/chk-2\/word%20counts%2Fv2-0\.state: size is 0 bytes/);
    expect(damaged[1]!.error.message).toMatch(/chk-1\/_metadata: malformed header/);
  });

  it("readState names the file when it was damaged after the checkpoint was chosen", async () => {
    const stored = await checkpoint(open(), 1);
    await truncate(join(dir, "chk-1", "word%20counts%2Fv2-0.state"), 1);
    const error = await open().readState(stored, stored.states[0]!.handle).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptCheckpointError);
    expect((error as CorruptCheckpointError).path).toBe(join(dir, "chk-1", "word%20counts%2Fv2-0.state"));
  });

  it("refuses to fall back past a checkpoint written by a newer Weir", async () => {
    const coordinator = open(2);
    await checkpoint(coordinator, 1);
    await checkpoint(coordinator, 2);
    const path = join(dir, "chk-2", "_metadata");
    await writeFile(path, (await readFile(path, "utf8")).replace(/^WEIR-CHECKPOINT 1 /, "WEIR-CHECKPOINT 3 "));
    await expect(open(2).latestCompleted()).rejects.toThrow(CheckpointVersionError);
    await expect(open(2).latestCompleted()).rejects.toThrow(`checkpoint metadata ${path} was written by a newer Weir`);
  });

  it("rejects metadata that describes another checkpoint (a copied _metadata)", async () => {
    const coordinator = open(2);
    const first = await checkpoint(coordinator, 1);
    await checkpoint(coordinator, 2);
    await writeFile(join(dir, "chk-2", "_metadata"), await readFile(join(dir, "chk-1", "_metadata")));
    const { checkpoint: latest, damaged } = await open(2).latestCompleted();
    expect(latest).toEqual(first);
    expect(damaged[0]!.error.message).toMatch(/it describes checkpoint 1, not 2/);
  });
});
