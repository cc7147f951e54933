/**
 * Local recovery of the disk backend: the store of a process killed with
 * SIGKILL right after a snapshot holds exactly that snapshot (its marker
 * matches), a store written after its snapshot has no marker and is cleared
 * at open, and the caller's choice — keep the local content or restore from
 * blobs — never mixes stale local data into the state.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { ValueStateDescriptor } from "../descriptors.ts";
import { StateRestoreError } from "../errors.ts";
import { HeapKeyedStateBackend } from "../heap/heap-keyed-state-backend.ts";
import { DiskKeyedStateBackend, type DiskKeyedStateBackendOptions, type LocalSnapshotId } from "./disk-keyed-state-backend.ts";

const dirs = tempDirs("weir-disk-local-");
const count = new ValueStateDescriptor<number>("count", 0);

const open = (localDirectory: string, opts: Partial<DiskKeyedStateBackendOptions> = {}): DiskKeyedStateBackend =>
  new DiskKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127], localDirectory, keepLocal: true, ...opts });

/** Runs test/fixtures/disk-state-writer.ts, which SIGKILLs itself; returns the local id of its snapshot 7. */
function killedWriter(dir: string, keys: number, after: number, cache: number): LocalSnapshotId {
  const child = spawnSync(process.execPath, ["--import", "tsx", "test/fixtures/disk-state-writer.ts", dir, String(keys), String(after), String(cache)], {
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(child.signal, child.stderr).toBe("SIGKILL");
  return JSON.parse(child.stdout.trim()) as LocalSnapshotId;
}

function values(b: DiskKeyedStateBackend, keys: number): number[] {
  const s = b.getState(count);
  return Array.from({ length: keys }, (_, i) => {
    b.setCurrentKey(i);
    return s.value()!;
  });
}

describe("disk backend local recovery", () => {
  it("after SIGKILL right after a snapshot, the store holds exactly that snapshot (later writes were only cached)", () => {
    const dir = join(dirs(), "op-0");
    const local = killedWriter(dir, 2_000, 500, 10_000);
    expect(local.checkpointId).toBe(7);
    const b = open(dir, { trackChanges: true });
    expect(b.localSnapshotId()).toEqual(local);
    b.restoreLocal(local);
    expect(b.changedKeyCount()).toBe(0);
    expect(values(b, 2_000)).toEqual(Array.from({ length: 2_000 }, (_, i) => i));
    expect(b.numKeys()).toBe(2_000);
    b.dispose();
  });

  it("after SIGKILL once evictions wrote past the snapshot, there is no marker and the store is cleared", () => {
    const dir = join(dirs(), "op-0");
    killedWriter(dir, 2_000, 500, 10);
    const b = open(dir);
    expect(b.localSnapshotId()).toBeUndefined();
    expect(() => b.restoreLocal({ checkpointId: 7, token: "any" })).toThrow(StateRestoreError);
    expect(b.numKeys()).toBe(0);
    expect(values(b, 10)).toEqual(Array(10).fill(0));
    b.dispose();
  });

  it("restore(blobs) on a store with a valid marker clears it first; so does using state without deciding", async () => {
    const dir = join(dirs(), "op-0");
    const first = open(dir);
    const s = first.getState(count);
    for (let i = 0; i < 100; i++) {
      first.setCurrentKey(i);
      s.update(i);
    }
    const snap = first.snapshot(3);
    first.dispose();

    const heap = new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127] });
    heap.setCurrentKey(1_000);
    heap.getState(count).update(42);
    const heapSnap = heap.snapshot(9);
    const blob = await heapSnap.serialize();
    heapSnap.release();

    const fromBlobs = open(dir);
    expect(fromBlobs.localSnapshotId()).toEqual(snap.local);
    fromBlobs.restore([blob]);
    expect(fromBlobs.numKeys()).toBe(1); // key 1000 only: nothing of the local store
    fromBlobs.setCurrentKey(1_000);
    expect(fromBlobs.getState(count).value()).toBe(42);
    fromBlobs.snapshot(10); // a new marker, for the next open
    fromBlobs.dispose();

    const undecided = open(dir);
    expect(undecided.localSnapshotId()?.checkpointId).toBe(10);
    expect(values(undecided, 3)).toEqual([0, 0, 0]);
    expect(undecided.numKeys()).toBe(0);
    expect(() => undecided.restoreLocal(undecided.localSnapshotId()!)).toThrow(/holds no usable snapshot any more/);
    undecided.dispose();
  });

  it("refuses restoreLocal of another snapshot, naming the directory; a store of another key-group range has no marker", () => {
    const dir = join(dirs(), "op-0");
    const first = open(dir);
    first.setCurrentKey(1);
    first.getState(count).update(1);
    const { local } = first.snapshot(4);
    first.dispose();
    const b = open(dir);
    expect(() => b.restoreLocal({ checkpointId: 4, token: "other" })).toThrow(
      new RegExp(`local store at ${dir} holds snapshot 4 \\(token ${local.token}\\), not snapshot 4 \\(token other\\)`),
    );
    b.restoreLocal(local);
    b.setCurrentKey(1);
    expect(b.getState(count).value()).toBe(1);
    b.snapshot(5);
    b.dispose();
    const rescaled = open(dir, { keyGroupRange: [0, 63] });
    expect(rescaled.localSnapshotId()).toBeUndefined();
    rescaled.dispose();
  });

  it("without keepLocal an existing store is deleted at open and on dispose", () => {
    const dir = join(dirs(), "op-0");
    const kept = open(dir);
    kept.setCurrentKey(1);
    kept.getState(count).update(1);
    kept.snapshot(1);
    kept.dispose();
    const b = open(dir, { keepLocal: false });
    expect(b.localSnapshotId()).toBeUndefined();
    expect(b.numKeys()).toBe(0);
    b.dispose();
    expect(existsSync(dir)).toBe(false);
  });
});
