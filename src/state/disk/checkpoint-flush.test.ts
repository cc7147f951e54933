/**
 * The disk backend's asynchronous checkpoint flush (checkpoint-flush.ts):
 * a snapshot freezes the dirty cache entries at its barrier and writes them
 * in the background while processing goes on; what it serializes is the
 * state at its barrier whatever is written, read, evicted or changed in
 * place afterwards, with several flushes in flight, aborted snapshots, a
 * scan or a dispose in the middle.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { ValueStateDescriptor } from "../descriptors.ts";
import { DiskStateStoreError } from "../errors.ts";
import { HeapKeyedStateBackend } from "../heap/heap-keyed-state-backend.ts";
import type { KeyedStateBackend, SnapshotType } from "../keyed-state-backend.ts";
import { FLUSH_SLICE } from "./checkpoint-flush.ts";
import { DiskKeyedStateBackend, type DiskKeyedStateBackendOptions, type DiskStateSnapshot } from "./disk-keyed-state-backend.ts";

const dirs = tempDirs("weir-disk-flush-");
const count = new ValueStateDescriptor<number>("count", 0);

const disk = (opts: Partial<DiskKeyedStateBackendOptions> = {}): DiskKeyedStateBackend =>
  new DiskKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127], localDirectory: join(dirs(), "op-0"), ...opts });

const heap = (): HeapKeyedStateBackend => new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127] });

/** Sets the count of keys `from` (inclusive) to `to` (exclusive) to `value(key)`, key after key. */
function updateKeys(b: KeyedStateBackend, from: number, to: number, value: (k: number) => number): void {
  const c = b.getState(count);
  for (let k = from; k < to; k++) {
    b.setCurrentKey(k);
    c.update(value(k));
  }
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Every key's state: a count (ValueState) and a list changed in place (engine state). */
interface Entry {
  count: number;
  list: number[] | undefined;
}
type Model = Map<number, Entry>;

const copyModel = (m: Model): Model => new Map([...m].map(([k, e]) => [k, { count: e.count, list: e.list && [...e.list] }]));

function expectState(b: KeyedStateBackend, model: Model, keys: number, at: string): void {
  const c = b.getState(count);
  const list = b.getEngineState<number[]>("_list");
  for (let k = 0; k < keys; k++) {
    b.setCurrentKey(k);
    const e = model.get(k);
    expect(c.value(), `key ${k}, ${at}`).toBe(e?.count ?? 0);
    expect(list.get(), `key ${k}, ${at}`).toEqual(e?.list);
  }
}

/** One random write to key `k` of `b` and the model: count updates and clears, list appends in place, sets and clears. */
function writeRandomly(b: KeyedStateBackend, model: Model, k: number, random: () => number): void {
  b.setCurrentKey(k);
  let e = model.get(k);
  if (e === undefined) model.set(k, (e = { count: 0, list: undefined }));
  const c = b.getState(count);
  const list = b.getEngineState<number[]>("_list");
  const v = randomInt(random, 0, 999);
  switch (randomInt(random, 0, 5)) {
    case 0:
    case 1:
      c.update(c.value()! + 1);
      e.count++;
      break;
    case 2:
      c.clear();
      e.count = 0;
      break;
    case 3:
    case 4: {
      const owned = list.getOwned(); // changed in place: after a barrier, the checkpoint must not see it
      if (owned === undefined) list.set([v]);
      else owned.push(v);
      (e.list ??= []).push(v);
      break;
    }
    default:
      list.set(undefined);
      e.list = undefined;
  }
}

describe("disk backend: the asynchronous checkpoint flush", () => {
  it("snapshots hold the state at their barriers while updates, reads, evictions and further barriers go on (seeded, against a Map model)", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const keys = 600;
    const b = disk({ cacheEntries: 40, trackChanges: true });
    const model: Model = new Map();
    interface Taken {
      id: number;
      snap: DiskStateSnapshot;
      type: SnapshotType;
      model: Model;
      /** The blobs a restore of it reads: its own, after its chain's earlier ones. */
      chain: Promise<Uint8Array>[];
    }
    const open: Taken[] = [];
    let chain: Promise<Uint8Array>[] = [];
    let checked = 0;
    const check = async (t: Taken): Promise<void> => {
      const blobs = await Promise.all(t.chain);
      const restored = heap();
      restored.restore(blobs);
      expectState(restored, t.model, keys, `snapshot ${t.id} (${t.type ?? "full"}), seed ${seed}`);
      t.snap.release();
      checked++;
    };
    for (let id = 1; id <= 40; id++) {
      // a stretch of processing, in several turns of the event loop (the flushes in flight go on between them)
      const turns = randomInt(random, 0, 3);
      for (let t = 0; t <= turns; t++) {
        for (let i = randomInt(random, 0, 150); i > 0; i--) {
          const k = randomInt(random, 0, keys - 1);
          if (random() < 0.2) {
            b.setCurrentKey(k);
            expect(b.getState(count).value(), `key ${k} read before barrier ${id}, seed ${seed}`).toBe(model.get(k)?.count ?? 0);
          } else writeRandomly(b, model, k, random);
        }
        if (t < turns) await turn();
      }
      // the barrier
      const r = random();
      const type: SnapshotType = chain.length === 0 || r < 0.2 ? "base" : r < 0.3 ? undefined : "delta";
      const snap = b.snapshot(id, type);
      const taken: Taken = { id, snap, type, model: copyModel(model), chain: [] };
      const blob = snap.serialize();
      if (type === "base") chain = [blob];
      else if (type === "delta") chain = [...chain, blob];
      taken.chain = type === undefined ? [blob] : chain;
      if (type === undefined && random() < 0.3) {
        snap.release(); // an aborted checkpoint: nothing to check, its flush still reaches the store
        await expect(blob).rejects.toThrow(/released while serializing/);
      } else open.push(taken);
      // sometimes wait for some of the snapshots in flight (others stay open across further barriers)
      while (open.length > 0 && random() < 0.4) await check(open.shift()!);
    }
    for (const t of open) await check(t);
    expect(checked).toBeGreaterThan(20);
    while (b.stats().flushingCheckpoints > 0) await turn(); // a delta serializes beside its flush, which may still run
    expectState(b, model, keys, `the live state, seed ${seed}`);
    b.dispose();
  });

  it("an object changed in place after the barrier (getOwned) is copied: the checkpoint keeps the value of the barrier", async () => {
    const b = disk({ cacheEntries: 100 });
    const list = b.getEngineState<number[]>("_list");
    b.setCurrentKey("a");
    list.set([1]);
    const held = list.getOwned()!;
    const epoch = b.ownedValuesEpoch;
    const snap = b.snapshot(1);
    expect(b.ownedValuesEpoch).not.toBe(epoch); // a holder of `held` must fetch it again
    const owned = list.getOwned()!;
    expect(owned).not.toBe(held); // a copy: `held` belongs to the checkpoint now
    owned.push(2);
    const restored = heap();
    restored.restore([await snap.serialize()]);
    snap.release();
    restored.setCurrentKey("a");
    expect(restored.getEngineState<number[]>("_list").get()).toEqual([1]);
    expect(list.get()).toEqual([1, 2]);
    b.dispose();
  });

  it("while a flush is in flight evicts only entries whose value is in the store (read ones), never frozen or dirty ones; newer values win", async () => {
    const b = disk({ cacheEntries: 64 });
    const c = b.getState(count);
    updateKeys(b, 0, 64, () => 1);
    const snap = b.snapshot(1);
    updateKeys(b, 0, 100, () => 2); // keys 0..63 again: newer than their frozen 1
    expect(b.stats().flushingCheckpoints).toBe(1);
    expect(b.stats().cachedEntries).toBe(100); // frozen and dirty: nothing evicted meanwhile
    const evictions = b.stats().evictions;
    for (let k = 1_000; k < 1_100; k++) {
      b.setCurrentKey(k);
      expect(c.value()).toBe(0); // read: clean, nothing to write, evicted again
      expect(b.stats().cachedEntries).toBeLessThanOrEqual(100 + 8 + 1);
    }
    expect(b.stats().evictions).toBeGreaterThan(evictions);
    expect(b.stats().flushingCheckpoints).toBe(1); // never drained: the cache stayed under twice its capacity
    const restored = heap();
    restored.restore([await snap.serialize()]);
    snap.release();
    expect(b.stats().flushingCheckpoints).toBe(0);
    expectState(restored, new Map(Array.from({ length: 64 }, (_, k) => [k, { count: 1, list: undefined }])), 100, "snapshot 1");
    for (let k = 0; k < 40; k++) b.setCurrentKey(k); // each key change evicts a batch (written to the store)
    expect(b.stats().cachedEntries).toBeLessThanOrEqual(64);
    expectState(b, new Map(Array.from({ length: 100 }, (_, k) => [k, { count: 2, list: undefined }])), 1_100, "live");
    b.dispose();
  });

  it("at twice its capacity during a flush, the cache writes the flushes in flight at once and evicts (bounded memory)", async () => {
    const b = disk({ cacheEntries: 64 });
    const c = b.getState(count);
    updateKeys(b, 0, 64, () => 1);
    const first = b.snapshot(1);
    updateKeys(b, 64, 100, () => 2);
    const second = b.snapshot(2); // queued behind the first
    expect(b.stats().flushingCheckpoints).toBe(2);
    for (let k = 100; k < 1_000; k++) {
      b.setCurrentKey(k);
      c.update(3);
      expect(b.stats().cachedEntries).toBeLessThanOrEqual(2 * 64);
    }
    expect(b.stats().flushingCheckpoints).toBe(0);
    const one = heap();
    one.restore([await first.serialize()]);
    expect(one.numKeys()).toBe(64);
    const two = heap();
    two.restore([await second.serialize()]);
    expect(two.numKeys()).toBe(100);
    first.release();
    second.release();
    const live = new Map(Array.from({ length: 1_000 }, (_, k) => [k, { count: k < 64 ? 1 : k < 100 ? 2 : 3, list: undefined }]));
    expectState(b, live, 1_000, "live");
    b.dispose();
  });

  it("a scan while a flush is in flight completes the flush first; the snapshot still holds its barrier's state", async () => {
    const b = disk({ cacheEntries: 1_000 });
    const c = b.getState(count);
    updateKeys(b, 0, 500, (k) => k);
    const snap = b.snapshot(1);
    b.setCurrentKey(1_000);
    c.update(7);
    expect(b.numKeys()).toBe(501); // scans the store: the flush in flight is written first, then the dirty key
    expect(b.stats().flushingCheckpoints).toBe(0);
    const restored = heap();
    restored.restore([await snap.serialize()]);
    snap.release();
    expect(restored.numKeys()).toBe(500);
    b.dispose();
  });

  it("dispose during a flush: its snapshots fail as released, and a kept store has no marker (restored from the checkpoint's files)", async () => {
    const dir = join(dirs(), "op-0");
    const b = disk({ localDirectory: dir, keepLocal: true, cacheEntries: 300_000 });
    updateKeys(b, 0, 250_000, (k) => k);
    const first = b.snapshot(1);
    await first.serialize();
    first.release();
    updateKeys(b, 0, 250_000, (k) => -k);
    const snap = b.snapshot(2);
    const serializing = snap.serialize();
    await turn(); // the first turn's slices written (up to 100 ms of them), not all 250 000 entries
    expect(b.stats().flushingCheckpoints).toBe(1);
    b.dispose();
    await expect(serializing).rejects.toThrow(/snapshot 2 of operator 'op' was released while serializing/);
    const reopened = disk({ localDirectory: dir, keepLocal: true });
    expect(reopened.localSnapshotId()).toBeUndefined(); // half-written: never adopted
    reopened.dispose();
  });

  it("a write that fails fails the checkpoint and the one queued behind it, and makes their entries dirty again", async () => {
    const b = disk({ cacheEntries: 300_000 });
    const c = b.getState(count);
    updateKeys(b, 0, 250_000, (k) => k);
    const first = b.snapshot(1);
    b.setCurrentKey(250_000);
    c.update(1);
    const second = b.snapshot(2);
    expect(b.stats().dirtyEntries).toBe(0);
    await turn(); // the first turn's slices of the first written (up to 100 ms of them), not all
    (b as unknown as { store: { close(): void } }).store.close(); // every later write fails, as on a full disk
    await expect(first.serialize()).rejects.toThrow(DiskStateStoreError);
    await expect(second.serialize()).rejects.toThrow(DiskStateStoreError);
    expect(b.stats().flushingCheckpoints).toBe(0);
    // nothing lost: what the store did not take (all but whole slices of the first) is dirty again, for the next flush or eviction
    const dirty = b.stats().dirtyEntries;
    expect(dirty).toBeGreaterThan(1);
    expect((250_001 - dirty) % FLUSH_SLICE).toBe(0);
    b.setCurrentKey(7);
    expect(c.value()).toBe(7);
    first.release();
    second.release();
    b.dispose();
  });

  it("a delta taken while a savepoint's flush is queued takes a key changed before the savepoint from its generation, not the store", async () => {
    const b = disk({ trackChanges: true });
    const c = b.getState(count);
    updateKeys(b, 0, 100, (k) => k);
    const base = b.snapshot(1, "base");
    const baseBlob = await base.serialize();
    updateKeys(b, 5, 6, () => 50);
    const savepoint = b.snapshot(2); // full: the chain's changed keys stay, key 5 among them
    const delta = b.snapshot(3, "delta"); // nothing dirty: key 5's value at this barrier is in the savepoint's generation, not yet written
    expect(b.stats().flushingCheckpoints).toBe(2);
    b.setCurrentKey(5);
    c.update(-1); // after the barrier: not in the delta
    const restored = heap();
    restored.restore([baseBlob, await delta.serialize()]);
    restored.setCurrentKey(5);
    expect(restored.getState(count).value()).toBe(50);
    expect((await savepoint.serialize()).length).toBeGreaterThan(0);
    savepoint.release();
    delta.release();
    base.release();
    b.dispose();
  });

  it("restores, into the disk backend, a snapshot taken while updates went on (full and delta)", async () => {
    const b = disk({ cacheEntries: 50, trackChanges: true });
    const c = b.getState(count);
    updateKeys(b, 0, 300, (k) => k);
    const base = b.snapshot(1, "base");
    for (let k = 0; k < 300; k += 3) {
      b.setCurrentKey(k);
      c.update(1_000 + k);
    }
    const delta = b.snapshot(2, "delta");
    updateKeys(b, 0, 300, () => -1);
    const blobs = [await base.serialize(), await delta.serialize()];
    base.release();
    delta.release();
    const restored = disk({ cacheEntries: 50 });
    restored.restore(blobs);
    const expected: Model = new Map(Array.from({ length: 300 }, (_, k) => [k, { count: k % 3 === 0 ? 1_000 + k : k, list: undefined }]));
    expectState(restored, expected, 300, "restored chain");
    expectState(b, new Map(Array.from({ length: 300 }, (_, k) => [k, { count: -1, list: undefined }])), 300, "live");
    b.dispose();
    restored.dispose();
  });
});
