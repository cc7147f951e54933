/**
 * The disk backend's own behaviour beyond the shared contract
 * (../*.conformance.test.ts): the write-back cache under heavy eviction with
 * values changed in place, snapshots that yield while processing writes on,
 * snapshot interchange with the heap backend, and the store's directory.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import {
  type AggregateFunction,
  AggregatingStateDescriptor,
  ListStateDescriptor,
  MapStateDescriptor,
  ReducingStateDescriptor,
  ValueStateDescriptor,
} from "../descriptors.ts";
import { HeapKeyedStateBackend } from "../heap/heap-keyed-state-backend.ts";
import type { KeyedStateBackend } from "../keyed-state-backend.ts";
import { DiskKeyedStateBackend, type DiskKeyedStateBackendOptions } from "./disk-keyed-state-backend.ts";
import { DiskStore } from "./disk-store.ts";

const dirs = tempDirs("weir-disk-backend-");

const disk = (opts: Partial<DiskKeyedStateBackendOptions> = {}): DiskKeyedStateBackend =>
  new DiskKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127], localDirectory: join(dirs(), "op-0"), ...opts });

interface Acc {
  n: number;
  seen: number[];
}
const accFn: AggregateFunction<number, Acc, Acc> = {
  createAccumulator: () => ({ n: 0, seen: [] }),
  add: (v, acc) => {
    acc.n += v; // in place
    acc.seen.push(v);
    return acc;
  },
  getResult: (acc) => acc,
  merge: (a, b) => ({ n: a.n + b.n, seen: [...a.seen, ...b.seen] }),
};
const count = new ValueStateDescriptor<number>("count", 0);
const list = new ListStateDescriptor<number>("list");
const map = new MapStateDescriptor<string, number>("map");
const max = new ReducingStateDescriptor<{ m: number }>("max", (a, b) => {
  a.m = Math.max(a.m, b.m); // in place
  return a;
});
const agg = new AggregatingStateDescriptor("agg", accFn);

/** The model of every state of one key, as plain data. */
interface Model {
  count: number;
  list: number[];
  map: Map<string, number>;
  max: number | undefined;
  agg: Acc | undefined;
  engine: Map<number, number[]> | undefined;
}

/** Applies `ops` random writes of every kind to `b` and to the model, keys in a seeded random order. */
function writeRandomly(b: KeyedStateBackend, models: Map<number, Model>, keys: number, ops: number, random: () => number): void {
  const engine = b.getEngineState<Map<number, number[]>>("_engine");
  for (let i = 0; i < ops; i++) {
    const k = randomInt(random, 0, keys - 1);
    let m = models.get(k);
    if (m === undefined) models.set(k, (m = { count: 0, list: [], map: new Map(), max: undefined, agg: undefined, engine: undefined }));
    b.setCurrentKey(k);
    const v = randomInt(random, 0, 1000);
    switch (randomInt(random, 0, 6)) {
      case 0:
        b.getState(count).update(b.getState(count).value()! + 1);
        m.count++;
        break;
      case 1:
        b.getListState(list).add(v);
        m.list.push(v);
        break;
      case 2:
        b.getMapState(map).put(`f${v % 7}`, v);
        m.map.set(`f${v % 7}`, v);
        break;
      case 3:
        b.getReducingState(max).add({ m: v });
        m.max = Math.max(m.max ?? -Infinity, v);
        break;
      case 4:
        b.getAggregatingState(agg).add(v);
        m.agg ??= { n: 0, seen: [] };
        m.agg.n += v;
        m.agg.seen.push(v);
        break;
      case 5: {
        const owned = engine.getOwned(); // changed in place, no copy
        if (owned === undefined) engine.set(new Map([[v % 3, [v]]]));
        else {
          const at = owned.get(v % 3);
          if (at === undefined) owned.set(v % 3, [v]);
          else at.push(v);
        }
        m.engine ??= new Map();
        const at = m.engine.get(v % 3);
        if (at === undefined) m.engine.set(v % 3, [v]);
        else at.push(v);
        break;
      }
      default:
        if (random() < 0.5) {
          b.getListState(list).clear();
          m.list = [];
        } else {
          b.getMapState(map).remove(`f${v % 7}`);
          m.map.delete(`f${v % 7}`);
        }
    }
  }
}

function expectModel(b: KeyedStateBackend, models: Map<number, Model>, seed: number): void {
  const engine = b.getEngineState<Map<number, number[]>>("_engine");
  for (const [k, m] of models) {
    b.setCurrentKey(k);
    const at = `key ${k}, seed ${seed}`;
    expect(b.getState(count).value(), at).toBe(m.count);
    expect(b.getListState(list).get(), at).toEqual(m.list);
    expect(new Map(b.getMapState(map).entries()), at).toEqual(m.map);
    expect(b.getReducingState(max).get(), at).toEqual(m.max === undefined ? undefined : { m: m.max });
    expect(b.getAggregatingState(agg).get(), at).toEqual(m.agg);
    expect(engine.get(), at).toEqual(m.engine);
  }
}

describe("DiskKeyedStateBackend", () => {
  it("keeps every value of every kind with a cache of 10 entries over 10 000 keys, values changed in place (seeded)", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const b = disk({ cacheEntries: 10 });
    const models = new Map<number, Model>();
    writeRandomly(b, models, 10_000, 20_000, random);
    const stats = b.stats();
    expect(stats.evictions, `seed ${seed}`).toBeGreaterThan(5_000);
    expect(stats.cachedEntries).toBeLessThanOrEqual(10 + 6); // at most what one key's processing touched beyond the capacity
    expectModel(b, models, seed);

    // and what a snapshot holds, restored into both backends
    const snap = b.snapshot(1);
    const bytes = await snap.serialize();
    snap.release();
    const heap = new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127] });
    heap.restore([bytes]);
    expectModel(heap, models, seed);
    const again = disk({ cacheEntries: 10 });
    again.restore([bytes]);
    expectModel(again, models, seed);
    expect(again.stats().cachedEntries).toBeLessThanOrEqual(10 + 6);
    b.dispose();
    again.dispose();
  });

  it("moves ownedValuesEpoch on eviction, so a holder of an owned value across records fetches it again", () => {
    const b = disk({ cacheEntries: 4 });
    const s = b.getEngineState<number[]>("_held");
    b.setCurrentKey("held");
    s.set([1]);
    const held = s.getOwned()!;
    const epoch = b.ownedValuesEpoch;
    for (let k = 0; k < 20; k++) {
      b.setCurrentKey(k);
      s.set([k]);
    }
    expect(b.ownedValuesEpoch).toBeGreaterThan(epoch);
    b.setCurrentKey("held");
    expect(s.getOwned()).not.toBe(held); // evicted and read back: another object
    expect(s.get()).toEqual([1]);
    b.dispose();
  });

  it("restores snapshots of the heap backend and the heap backend restores its snapshots, every kind (seeded)", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const heap = new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127] });
    const models = new Map<number, Model>();
    writeRandomly(heap, models, 500, 5_000, random);
    const heapSnap = heap.snapshot(1);
    const fromHeap = disk({ cacheEntries: 50 });
    fromHeap.restore([await heapSnap.serialize()]);
    heapSnap.release();
    expectModel(fromHeap, models, seed);
    writeRandomly(fromHeap, models, 500, 5_000, random);
    const diskSnap = fromHeap.snapshot(2);
    const back = new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127] });
    back.restore([await diskSnap.serialize()]);
    diskSnap.release();
    expectModel(back, models, seed);
    fromHeap.dispose();
  });

  it("serializes 100 000 keys in slices that yield, while writes go on, and the blob holds the state at snapshot()", async () => {
    const b = disk({ cacheEntries: 1000 });
    const s = b.getState(count);
    for (let i = 0; i < 100_000; i++) {
      b.setCurrentKey(i);
      s.update(i);
    }
    const snap = b.snapshot(1);
    let ticks = 0;
    let stop = false;
    const tick = (): void => {
      ticks++;
      if (!stop) setImmediate(tick);
    };
    setImmediate(tick);
    const serializing = snap.serialize();
    for (let i = 0; i < 100_000; i += 3) {
      b.setCurrentKey(i);
      s.update(-i - 1); // written back by evictions while the snapshot is read
      if (i % 3000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const bytes = await serializing;
    stop = true;
    snap.release();
    expect(ticks).toBeGreaterThanOrEqual(10);
    expect(b.stats()).toMatchObject({ liveSnapshots: 0 });
    const heap = new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127] });
    heap.restore([bytes]);
    expect(heap.numKeys()).toBe(100_000);
    for (const i of [0, 3, 4, 99_999]) {
      heap.setCurrentKey(i);
      expect(heap.getState(count).value()).toBe(i);
      b.setCurrentKey(i);
      expect(s.value()).toBe(i % 3 === 0 ? -i - 1 : i);
    }
    b.dispose();
  });

  it("dispose while a snapshot serializes: the snapshot fails as released, the store closes", async () => {
    const b = disk({ cacheEntries: 100 });
    const s = b.getState(count);
    for (let i = 0; i < 40_000; i++) {
      b.setCurrentKey(i);
      s.update(i);
    }
    const snap = b.snapshot(2);
    const serializing = snap.serialize(); // runs to its first yield
    expect(b.stats().liveSnapshots).toBe(1);
    b.dispose();
    await expect(serializing).rejects.toThrow(/snapshot 2 of operator 'op' was released while serializing/);
    expect(b.stats().liveSnapshots).toBe(0);
  });

  it("restores a large blob in batches without filling the cache", async () => {
    const heap = new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127] });
    const s = heap.getState(count);
    for (let i = 0; i < 50_000; i++) {
      heap.setCurrentKey(`k${i}`);
      s.update(i);
    }
    const bytes = await heap.snapshot(1).serialize();
    const b = disk({ cacheEntries: 100 });
    b.restore([bytes]);
    expect(b.stats().cachedEntries).toBe(0);
    expect(b.numKeys()).toBe(50_000);
    b.setCurrentKey("k49999");
    expect(b.getState(count).value()).toBe(49_999);
    b.dispose();
  });

  it("deletes its directory on dispose (twice is harmless), and keeps it with keepLocal", () => {
    const dir = join(dirs(), "op-1");
    const b = disk({ localDirectory: dir });
    b.getState(count);
    expect(existsSync(join(dir, "data.mdb"))).toBe(true);
    b.dispose();
    b.dispose();
    expect(existsSync(dir)).toBe(false);
    const kept = disk({ localDirectory: dir, keepLocal: true });
    kept.getState(count);
    kept.dispose();
    kept.dispose();
    expect(existsSync(join(dir, "data.mdb"))).toBe(true);
  });

  it("scans a state of a small store in one store range, with the overlay written since the snapshot applied; a large store per key group", () => {
    // TTL cleanup scans a state each time its cursor wraps around: with a small state, every few records.
    const b = disk({ cacheEntries: 16 }); // evictions after the snapshot write to the overlay
    const v = b.getState(new ValueStateDescriptor<number>("v"));
    const other = b.getState(new ValueStateDescriptor<string>("other"));
    const expected = new Map<number, number>();
    for (let k = 0; k < 150; k++) {
      b.setCurrentKey(k);
      v.update(k);
      expected.set(k, k);
      if (k % 10 === 0) other.update(`o${k}`);
    }
    b.snapshot(1).release(); // a marker: later writes go to the overlay
    for (let k = 0; k < 200; k += 3) {
      b.setCurrentKey(k);
      if (k % 2 === 0 && k < 150) {
        v.clear();
        expected.delete(k);
      } else {
        v.update(-k);
        expected.set(k, -k);
      }
    }
    const ranges = vi.spyOn(DiskStore.prototype, "range");
    try {
      expect(new Map(b.entriesOf("v"))).toEqual(expected);
      expect(ranges).toHaveBeenCalledTimes(1);
      expect(new Map(b.entriesOf("other")).size).toBe(15);

      // over 16 entries per key group in the store: one range per key group of the state, as reading every state could cost more
      for (let k = 0; k < 2100; k++) {
        b.setCurrentKey(`big${k}`);
        other.update("x");
      }
      ranges.mockClear();
      expect(new Map(b.entriesOf("v"))).toEqual(expected);
      expect(ranges).toHaveBeenCalledTimes(128);
    } finally {
      ranges.mockRestore();
      b.dispose();
    }
  });
});
