/**
 * Incremental checkpoints cost what changed: with 1 000 000 keys in state and
 * 1 % of them changed between checkpoints, each checkpoint writes about 1 %
 * of the state's bytes (asserted on the files written, never on time), and
 * every retained checkpoint restores to exactly the state it was taken at.
 */
import { describe, expect, it } from "vitest";
import { FileSystemCheckpointStorage } from "../src/checkpoint/storage/filesystem-storage.ts";
import type { CompletedCheckpoint, OperatorSubtaskState } from "../src/checkpoint/types.ts";
import { HeapKeyedStateBackend, ValueStateDescriptor, type KeyedStateBackend } from "../src/state/index.ts";
import { KeyedSnapshotChain } from "../src/runtime/task/keyed-snapshot-chain.ts";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const newDir = tempDirs("weir-incremental-bytes-");
const KEYS = 1_000_000;
const CHANGED = KEYS / 100;
const CHECKPOINTS = 5;
const UID = "counts";
const RANGE = [0, 127] as const;

const backendOf = (trackChanges: boolean): HeapKeyedStateBackend =>
  new HeapKeyedStateBackend({ operatorUid: UID, maxParallelism: 128, keyGroupRange: RANGE, trackChanges });

/** Checkpoint `id` of `backend` through `chain` into `storage`; resolves with the stored checkpoint. */
async function checkpoint(id: number, backend: KeyedStateBackend, chain: KeyedSnapshotChain, storage: FileSystemCheckpointStorage): Promise<CompletedCheckpoint> {
  const { keyed, shared: chained } = chain.capture(id, backend, (bytes) => storage.writeSharedState(id, UID, 0, bytes));
  const shared = await chained;
  keyed.release();
  const handle = await storage.writeState(id, UID, 0, new Uint8Array([0]));
  const state: OperatorSubtaskState = { operatorUid: UID, subtaskIndex: 0, parallelism: 1, maxParallelism: 128, keyGroupRange: RANGE, handle, shared };
  return storage.addCompleted({ version: 1, jobName: "bytes", checkpointId: id, timestamp: id, completedAt: id, savepoint: false, graphFingerprint: "x", states: [state] });
}

describe("incremental checkpoints write what changed", () => {
  it("1 % of 1 000 000 keys changed per checkpoint → about 1 % of the bytes per checkpoint", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const storage = new FileSystemCheckpointStorage({ directory: newDir(), retained: CHECKPOINTS + 1, log: () => {} });
    const backend = backendOf(true);
    const count = backend.getState(new ValueStateDescriptor<number>("count"));
    const expected = new Map<number, number>();
    for (let k = 0; k < KEYS; k++) {
      backend.setCurrentKey(k);
      count.update(1);
      expected.set(k, 1);
    }
    const chain = new KeyedSnapshotChain();
    /** Checkpoints to restore, with the state each was taken at: the base, one in the middle, the last. */
    const snapshots: [CompletedCheckpoint, Map<number, number>][] = [];
    const base = await checkpoint(1, backend, chain, storage);
    snapshots.push([base, new Map(expected)]);
    const baseBytes = base.states[0]!.shared![0]!.size;
    for (let id = 2; id <= CHECKPOINTS + 1; id++) {
      for (let i = 0; i < CHANGED; i++) {
        const k = randomInt(random, 0, KEYS - 1);
        backend.setCurrentKey(k);
        if (i % 10 === 0) {
          count.clear(); // deletions are changes too
          expected.delete(k);
        } else {
          count.update((count.value() ?? 0) + 1);
          expected.set(k, (expected.get(k) ?? 0) + 1);
        }
      }
      const c = await checkpoint(id, backend, chain, storage);
      const refs = c.states[0]!.shared!;
      expect(refs.length, `seed ${seed}: checkpoint ${id} is the base and ${id - 1} deltas`).toBe(id);
      const written = refs[refs.length - 1]!.size;
      const share = written / baseBytes;
      expect(share, `seed ${seed}: checkpoint ${id} wrote ${written} bytes, the base ${baseBytes}`).toBeGreaterThan(0.005);
      expect(share, `seed ${seed}: checkpoint ${id} wrote ${written} bytes, the base ${baseBytes}`).toBeLessThan(0.025);
      if (id === 3 || id === CHECKPOINTS + 1) snapshots.push([c, new Map(expected)]);
    }
    // Every retained checkpoint restores to its own state (restore from any retained one).
    for (const [c, state] of snapshots) {
      const restored = backendOf(false);
      const blobs: Uint8Array[] = [];
      for (const ref of c.states[0]!.shared!) blobs.push(await storage.readSharedState(c, ref));
      restored.restore(blobs);
      const got = new Map<number, number>();
      for (const [k, v] of restored.entriesOf("count")) got.set(k as number, v as number);
      expect(got.size, `seed ${seed}: checkpoint ${c.checkpointId}`).toBe(state.size);
      for (const [k, v] of state) if (got.get(k) !== v) expect(`${k}=${got.get(k)}`, `seed ${seed}: checkpoint ${c.checkpointId}`).toBe(`${k}=${v}`);
    }
  }, 120_000);
});
