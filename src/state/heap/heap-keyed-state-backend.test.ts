/**
 * Heap-only behaviour of the heap backend: when key groups are encoded
 * (on write, by the serializer, reused) and what `dispose` drops. The
 * backend contract (state kinds, snapshots, restore) is run against every
 * backend in ../keyed-state-backend.conformance.test.ts.
 */
import { describe, expect, it } from "vitest";
import { ValueStateDescriptor } from "../descriptors.ts";
import { HeapKeyedStateBackend } from "./heap-keyed-state-backend.ts";

const full = (operatorUid = "op"): HeapKeyedStateBackend =>
  new HeapKeyedStateBackend({ operatorUid, maxParallelism: 128, keyGroupRange: [0, 127] });

const sum = new ValueStateDescriptor<number>("sum", 0);

/** Restores serialized snapshots into a fresh full-range backend, to read what they hold. */
async function reopen(bytes: Uint8Array): Promise<HeapKeyedStateBackend> {
  const b = full();
  b.restore([bytes]);
  return b;
}

describe("HeapKeyedStateBackend encoding (heap only; the contract is in ../keyed-state-backend.conformance.test.ts)", () => {
  it("encodes a key group once per change: on the first write after a capture, or in the serializer, and reuses unchanged ones", async () => {
    const b = full();
    const s = b.getState(sum);
    for (let i = 0; i < 10_000; i++) {
      b.setCurrentKey(i);
      s.update(i);
    }
    const first = b.snapshot(1);
    b.setCurrentKey(7);
    s.update(-7); // encodes key 7's group for the snapshot, then writes
    expect(b.stats().groupsEncodedOnWrite).toBe(1);
    const firstBytes = await first.serialize();
    first.release();
    expect(b.stats()).toMatchObject({ groupsEncodedOnWrite: 1, groupsEncodedBySerializer: 127, groupsReused: 0 });

    const second = b.snapshot(2);
    const secondBytes = await second.serialize();
    second.release();
    expect(b.stats()).toMatchObject({ groupsEncodedBySerializer: 128, groupsReused: 127 }); // only key 7's group changed

    const restored = [await reopen(firstBytes), await reopen(secondBytes)];
    for (const [i, expected] of [[0, 0], [7, 7], [9_999, 9_999]] as const) {
      restored[0]!.setCurrentKey(i);
      expect(restored[0]!.getState(sum).value()).toBe(expected);
    }
    restored[1]!.setCurrentKey(7);
    expect(restored[1]!.getState(sum).value()).toBe(-7);
    expect(restored[1]!.numKeys()).toBe(10_000);

    b.setCurrentKey(9); // a write while no snapshot is pending: its group's old encoding must not be reused
    s.update(-9);
    const third = b.snapshot(3);
    const thirdBytes = await third.serialize();
    third.release();
    expect(b.stats()).toMatchObject({ groupsEncodedBySerializer: 129, groupsReused: 254 });
    const last = await reopen(thirdBytes);
    for (const [i, expected] of [[7, -7], [9, -9], [10, 10]] as const) {
      last.setCurrentKey(i);
      expect(last.getState(sum).value()).toBe(expected);
    }
  });

  it("captures 200k keys without copying or encoding any entry, and serializes in slices that yield", async () => {
    const b = full();
    const s = b.getState(sum);
    for (let i = 0; i < 200_000; i++) {
      b.setCurrentKey(i);
      s.update(i);
    }
    const snap = b.snapshot(1);
    expect(b.stats()).toMatchObject({ liveSnapshots: 1, groupsEncodedOnWrite: 0, groupsEncodedBySerializer: 0 });

    let ticks = 0;
    let stop = false;
    const tick = (): void => {
      ticks++;
      if (!stop) setImmediate(tick);
    };
    setImmediate(tick);
    b.setCurrentKey(0);
    s.update(-1); // one write while serializing: its group is encoded first
    const bytes = await snap.serialize();
    stop = true;
    expect(ticks).toBeGreaterThanOrEqual(20); // ~25 slices of 8192 entries, each followed by a yield
    snap.release();
    expect(b.stats()).toMatchObject({ liveSnapshots: 0, groupsEncodedOnWrite: 1, groupsEncodedBySerializer: 127 });
    const back = await reopen(bytes);
    expect(back.numKeys()).toBe(200_000);
    back.setCurrentKey(0);
    expect(back.getState(sum).value()).toBe(0);
    back.setCurrentKey(199_999);
    expect(back.getState(sum).value()).toBe(199_999);
  });

  it("serializes the state at the barrier while number keys and values change between its slices", async () => {
    const seed = 2025;
    let x = seed;
    const random = (): number => ((x = (Math.imul(x, 1103515245) + 12345) | 0) >>> 0) / 2 ** 32;
    const b = full();
    const s = b.getState(sum);
    const atBarrier = new Map<number, number>();
    const values = [(): number => Math.floor(random() * 1000), (): number => random() * 10, (): number => [2 ** 31, -0, -(2 ** 31), 2 ** 53][Math.floor(random() * 4)]!];
    for (let k = 0; k < 60_000; k++) {
      const v = values[k % 3 === 0 ? Math.floor(random() * 3) : 0]!();
      b.setCurrentKey(k);
      s.update(v);
      atBarrier.set(k, v);
    }
    const snap = b.snapshot(1);
    const serialized = snap.serialize();
    // Between slices (each yield of the serializer), change keys of groups encoded already and of groups still pending.
    let writes = 0;
    let done = false;
    void serialized.finally(() => (done = true));
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      for (let i = 0; i < 20; i++) {
        const k = Math.floor(random() * 70_000); // some keys are new
        b.setCurrentKey(k);
        if (i % 7 === 0) s.clear();
        else s.update(values[i % 3]!() + 1);
        writes++;
      }
    }
    expect(writes, `seed ${seed}`).toBeGreaterThanOrEqual(60); // at least 3 slices
    const { groupsEncodedOnWrite, groupsEncodedBySerializer } = b.stats();
    expect(groupsEncodedOnWrite, `seed ${seed}`).toBeGreaterThan(0);
    expect(groupsEncodedBySerializer, `seed ${seed}`).toBeGreaterThan(0);
    const back = await reopen(await serialized);
    snap.release();
    expect(back.numKeys(), `seed ${seed}`).toBe(atBarrier.size);
    const restored = back.getState(sum);
    for (const [k, v] of atBarrier) {
      back.setCurrentKey(k);
      expect(Object.is(restored.value(), v), `seed ${seed}, key ${k}: ${restored.value()} ≠ ${v}`).toBe(true);
    }
  });

  it("dispose releases snapshots and drops state", () => {
    const b = full();
    const s = b.getState(sum);
    b.setCurrentKey("a");
    s.update(3);
    b.snapshot(1);
    b.dispose();
    expect(b.numKeys()).toBe(0);
    expect(b.stats().states).toBe(0);
  });
});
