import { describe, expect, it } from "vitest";
import type { StateHandle } from "../types.ts";
import { createCheckpointStorage } from "./create-checkpoint-storage.ts";
import { CorruptCheckpointError, StateSizeLimitExceededError } from "./errors.ts";
import { completedCheckpoint } from "./test-checkpoints.ts";

const bytes = (...b: number[]) => new Uint8Array(b);

function storage(maxStateSize?: number, retained = 1) {
  const warnings: string[] = [];
  const s = createCheckpointStorage({ type: "jobmanager", maxStateSize }, { retained, log: (w) => warnings.push(w) });
  return { s, warnings };
}

describe("jobmanager checkpoint storage", () => {
  it("round-trips state through inline handles between separate instances", async () => {
    const task = storage().s;
    const coordinator = storage().s;
    const input = bytes(1, 2, 3);
    const handle = await task.writeState(1, "counts", 0, input);
    input[0] = 99; // the caller reusing its buffer must not change the checkpoint
    expect(handle).toMatchObject({ kind: "inline", size: 3 });
    const stored = await coordinator.addCompleted(completedCheckpoint(1, [{ uid: "counts", subtask: 0, handle }]));
    const { checkpoint: latest, damaged } = await coordinator.latestCompleted();
    expect(latest).toEqual(stored);
    expect(damaged).toEqual([]);
    expect([...(await task.readState(latest!, latest!.states[0]!.handle))]).toEqual([1, 2, 3]);
  });

  it("rejects state over the limit with the uid, subtask, size and limit", async () => {
    const { s } = storage(100);
    await expect(s.writeState(1, "counts", 2, new Uint8Array(100))).resolves.toMatchObject({ size: 100 });
    const error = await s.writeState(1, "counts", 2, new Uint8Array(250)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateSizeLimitExceededError);
    expect((error as Error).message).toContain("state of operator 'counts' (subtask 2) is 250 bytes");
    expect((error as Error).message).toContain("limit of 100 bytes per operator state");
  });

  it("defaults to a 5 MiB limit", async () => {
    const { s } = storage();
    await expect(s.writeState(1, "big", 0, new Uint8Array(5 * 1024 * 1024))).resolves.toBeDefined();
    await expect(s.writeState(1, "big", 0, new Uint8Array(5 * 1024 * 1024 + 1))).rejects.toThrow(/5242881 bytes, over .* 5242880 bytes/);
  });

  it("retains the newest N checkpoints in memory and remembers the highest id", async () => {
    const { s } = storage(undefined, 2);
    expect(await s.highestCheckpointId()).toBe(0);
    for (const id of [1, 2, 3]) {
      const handle = await s.writeState(id, "op", 0, bytes(id));
      await s.addCompleted(completedCheckpoint(id, [{ uid: "op", subtask: 0, handle }]));
    }
    await s.discardAborted(4);
    expect((await s.listCompleted()).map((c) => c.checkpointId)).toEqual([2, 3]);
    expect((await s.latestCompleted()).checkpoint!.checkpointId).toBe(3);
    expect((await s.latestCompleted(4)).checkpoint).toBeNull();
    expect(await s.highestCheckpointId()).toBe(4);
  });

  it("skips a checkpoint whose inline state does not verify, reports it, and rejects reading it", async () => {
    const { s } = storage(undefined, 2);
    const good = await s.writeState(1, "op", 0, bytes(1));
    await s.addCompleted(completedCheckpoint(1, [{ uid: "op", subtask: 0, handle: good }]));
    const bad: StateHandle = { kind: "inline", data: bytes(2), size: 1, crc: 12345 };
    const badCheckpoint = await s.addCompleted(completedCheckpoint(2, [{ uid: "op", subtask: 0, handle: bad }]));
    const { checkpoint, damaged } = await s.latestCompleted();
    expect(checkpoint!.checkpointId).toBe(1);
    expect(damaged).toEqual([{ checkpointId: 2, location: "in memory", error: expect.any(CorruptCheckpointError) }]);
    expect(damaged[0]!.error.message).toMatch(/inline state of operator 'op' \(subtask 0\) of checkpoint 2: checksum mismatch/);
    expect(await s.latestCompleted(2)).toMatchObject({ checkpoint: null, damaged: [{ checkpointId: 2 }] });
    await expect(s.readState(badCheckpoint, bad)).rejects.toThrow(CorruptCheckpointError);
  });
});

describe("createCheckpointStorage", () => {
  it("rejects invalid options", () => {
    expect(() => createCheckpointStorage({ type: "jobmanager" }, { retained: 0 })).toThrow(/retained must be an integer of at least 1, got 0/);
    expect(() => createCheckpointStorage({ type: "jobmanager", maxStateSize: -1 }, { retained: 1 })).toThrow(/maxStateSize/);
    expect(() => createCheckpointStorage({ type: "filesystem", directory: "" }, { retained: 1 })).toThrow(/directory/);
  });
});
