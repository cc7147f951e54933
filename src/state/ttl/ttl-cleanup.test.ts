import { describe, expect, it } from "vitest";
import { ManualClock } from "../../util/clock.ts";
import { ListStateDescriptor, MapStateDescriptor, ValueStateDescriptor } from "../descriptors.ts";
import { HeapKeyedStateBackend } from "../heap/heap-keyed-state-backend.ts";
import { StateTtlConfig, StateVisibility } from "./state-ttl-config.ts";

const TTL = 100;
const backendAt = (clock: ManualClock): HeapKeyedStateBackend =>
  new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127], clock });

describe("incremental TTL cleanup", () => {
  it("is on by default: 5 keys per access (Flink's default background cleanup of heap state)", () => {
    const clock = new ManualClock(0);
    const b = backendAt(clock);
    const s = b.getState(new ValueStateDescriptor<number>("v").enableTimeToLive(StateTtlConfig.newBuilder(TTL).build()));
    for (let k = 0; k < 20; k++) {
      b.setCurrentKey(k);
      s.update(k);
    }
    clock.set(TTL);
    b.setCurrentKey("reader");
    s.value();
    expect(b.numKeys()).toBe(15);
  });

  it("each state access checks the next N keys and removes the expired ones, wrapping around", () => {
    const clock = new ManualClock(0);
    const b = backendAt(clock);
    const ttl = StateTtlConfig.newBuilder(TTL).cleanupIncrementally(10, false).build();
    const s = b.getState(new ValueStateDescriptor<number>("v").enableTimeToLive(ttl));
    for (let k = 0; k < 100; k++) {
      b.setCurrentKey(k);
      s.update(k);
    }
    clock.set(50);
    for (let k = 0; k < 20; k++) {
      b.setCurrentKey(k);
      s.update(-k); // re-stamped at 50: alive until 150
    }
    clock.set(120); // keys 20..99 expired
    b.setCurrentKey("reader");
    const sizes: number[] = [];
    for (let i = 0; i < 12; i++) {
      s.value();
      sizes.push(b.numKeys());
    }
    // each access checks 10 keys; the current key is restored after the cleanup
    expect(b.getCurrentKey()).toBe("reader");
    expect(sizes[0]).toBeLessThan(100);
    expect(sizes[sizes.length - 1]).toBe(20);
    expect(new Set([...b.entriesOf("v")].map(([k]) => k))).toEqual(new Set(Array.from({ length: 20 }, (_, k) => k)));
    for (let i = 1; i < sizes.length; i++) expect(sizes[i - 1]! - sizes[i]!).toBeLessThanOrEqual(10);
  });

  it("list and map cleanup remove only the expired elements and entries", () => {
    const clock = new ManualClock(0);
    const b = backendAt(clock);
    const ttl = StateTtlConfig.newBuilder(TTL).cleanupIncrementally(1000, false).build();
    const l = b.getListState(new ListStateDescriptor<number>("l").enableTimeToLive(ttl));
    const m = b.getMapState(new MapStateDescriptor<string, number>("m").enableTimeToLive(ttl));
    for (const k of ["a", "b"]) {
      b.setCurrentKey(k);
      l.add(1);
      m.put("old", 1);
    }
    clock.set(60);
    b.setCurrentKey("a");
    l.add(2);
    m.put("new", 2);
    clock.set(130);
    b.setCurrentKey("c");
    l.get(); // the list cleanup; the map cleanup runs at the next line
    m.isEmpty();
    const lists = Object.fromEntries([...b.entriesOf("l")].map(([k, v]) => [k, (v as [number, number][]).map(([x]) => x)]));
    const maps = Object.fromEntries([...b.entriesOf("m")].map(([k, v]) => [k, [...(v as Map<string, unknown>).keys()]]));
    expect(lists).toEqual({ a: [2] });
    expect(maps).toEqual({ a: ["new"] });
    expect(b.numKeys()).toBe(1);
  });

  it("with runCleanupForEveryRecord, setting the current key alone runs the cleanup", () => {
    const clock = new ManualClock(0);
    const b = backendAt(clock);
    const ttl = StateTtlConfig.newBuilder(TTL).cleanupIncrementally(5, true).build();
    const s = b.getState(new ValueStateDescriptor<number>("v").enableTimeToLive(ttl));
    for (let k = 0; k < 50; k++) {
      b.setCurrentKey(k);
      s.update(k);
    }
    clock.set(TTL);
    for (let r = 0; r < 11; r++) b.setCurrentKey(`record-${r}`); // no state access
    expect(b.numKeys()).toBe(0);
    expect(b.getCurrentKey()).toBe("record-10");
  });

  it("without background cleanup, expired values stay stored until read", () => {
    const clock = new ManualClock(0);
    const b = backendAt(clock);
    const ttl = StateTtlConfig.newBuilder(TTL).disableCleanupInBackground().build();
    const s = b.getState(new ValueStateDescriptor<number>("v").enableTimeToLive(ttl));
    for (let k = 0; k < 10; k++) {
      b.setCurrentKey(k);
      s.update(k);
    }
    clock.set(TTL);
    b.setCurrentKey(0);
    for (let i = 0; i < 20; i++) s.value();
    expect(b.numKeys()).toBe(9);
  });
});

describe("cleanupFullSnapshot", () => {
  async function snapshotAndRestore(cleanupFullSnapshot: boolean) {
    const clock = new ManualClock(0);
    const builder = StateTtlConfig.newBuilder(TTL).disableCleanupInBackground().setStateVisibility(StateVisibility.ReturnExpiredIfNotCleanedUp);
    const ttl = (cleanupFullSnapshot ? builder.cleanupFullSnapshot() : builder).build();
    const b = backendAt(clock);
    const s = b.getState(new ValueStateDescriptor<string>("v").enableTimeToLive(ttl));
    b.setCurrentKey("old");
    s.update("o");
    clock.set(60);
    b.setCurrentKey("young");
    s.update("y");
    clock.set(120); // "old" expired, "young" alive
    const snap = b.snapshot(1);
    const bytes = await snap.serialize();
    snap.release();
    const restored = backendAt(clock);
    restored.restore([bytes]);
    const r = restored.getState(new ValueStateDescriptor<string>("v").enableTimeToLive(ttl));
    restored.setCurrentKey("old");
    return { old: r.value(), keys: [...restored.entriesOf("v")].map(([k]) => k), young: (restored.setCurrentKey("young"), r.value()) };
  }

  it("expired values are dropped on restore (before the first access after it returns)", async () => {
    // ReturnExpiredIfNotCleanedUp would return "o" if it were still stored
    expect(await snapshotAndRestore(true)).toEqual({ old: undefined, keys: ["young"], young: "y" });
  });

  it("without it, an expired value survives a restore until read", async () => {
    expect(await snapshotAndRestore(false)).toEqual({ old: "o", keys: ["young"], young: "y" });
  });
});
