/**
 * Local recovery of the disk backend: the store of a process killed with
 * SIGKILL after a snapshot holds exactly that snapshot (its marker matches),
 * also when evictions wrote to the store after it (they went to the overlay,
 * which the restore forgets), and the caller's choice — keep the local content or restore from
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

  it("after SIGKILL once evictions wrote past the snapshot, the store still restores exactly that snapshot", () => {
    const dir = join(dirs(), "op-0");
    const local = killedWriter(dir, 2_000, 500, 10); // a cache of 10: the 500 later writes reach the store
    const b = open(dir, { trackChanges: true });
    expect(b.localSnapshotId()).toEqual(local);
    expect(() => b.restoreLocal({ checkpointId: 7, token: "another" })).toThrow(StateRestoreError);
    b.restoreLocal(local);
    expect(b.changedKeyCount()).toBe(0);
    expect(values(b, 2_000)).toEqual(Array.from({ length: 2_000 }, (_, i) => i)); // none of the later -1s
    expect(b.numKeys()).toBe(2_000);
    b.dispose();
  });

  it("reads, scans and snapshots see the writes that went to the overlay; the next snapshot merges them", async () => {
    const dir = join(dirs(), "op-0");
    const b = open(dir, { cacheEntries: 4 });
    const s = b.getState(count);
    for (let i = 0; i < 100; i++) {
      b.setCurrentKey(i);
      s.update(i);
    }
    const marked = b.snapshot(1);
    await marked.serialize(); // its flush wrote the marker: later evictions go to the overlay
    marked.release();
    for (let i = 0; i < 100; i += 2) {
      b.setCurrentKey(i);
      if (i % 4 === 0) s.clear();
      else s.update(-i);
    }
    b.setCurrentKey(1000); // evicts what is left over capacity
    const expected = Array.from({ length: 100 }, (_, i) => (i % 2 === 1 ? i : i % 4 === 0 ? 0 : -i));
    expect(values(b, 100)).toEqual(expected);
    expect(b.numKeys()).toBe(100 - 25);
    const snap = b.snapshot(2);
    const restored = new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127] });
    restored.restore([await snap.serialize()]);
    snap.release();
    const got = restored.getState(count);
    expect(Array.from({ length: 100 }, (_, i) => (restored.setCurrentKey(i), got.value()))).toEqual(expected);
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
    await snap.serialize(); // its flush wrote the marker
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
    await fromBlobs.snapshot(10).serialize(); // a new marker, for the next open
    fromBlobs.dispose();

    const undecided = open(dir);
    expect(undecided.localSnapshotId()?.checkpointId).toBe(10);
    expect(values(undecided, 3)).toEqual([0, 0, 0]);
    expect(undecided.numKeys()).toBe(0);
    expect(() => undecided.restoreLocal(undecided.localSnapshotId()!)).toThrow(/holds no usable snapshot any more/);
    undecided.dispose();
  });

  it("refuses restoreLocal of another snapshot, naming the directory; a store of another key-group range has no marker", async () => {
    const dir = join(dirs(), "op-0");
    const first = open(dir);
    first.setCurrentKey(1);
    first.getState(count).update(1);
    const snap = first.snapshot(4);
    await snap.serialize();
    const { local } = snap;
    first.dispose();
    const b = open(dir);
    expect(() => b.restoreLocal({ checkpointId: 4, token: "other" })).toThrow(
      new RegExp(`local store at ${dir} holds snapshot 4 \\(token ${local.token}\\), not snapshot 4 \\(token other\\)`),
    );
    b.restoreLocal(local);
    b.setCurrentKey(1);
    expect(b.getState(count).value()).toBe(1);
    await b.snapshot(5).serialize();
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
