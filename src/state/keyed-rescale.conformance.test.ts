/**
 * Rescaling oracle: state written by subtasks at one parallelism, each key
 * placed where the `keyBy` partitioner sends it (`keyGroupOf`), restored at
 * other parallelisms and again from there. Every key of every kind (int32,
 * other numbers, strings, escaped strings, bigints, booleans, arrays) must
 * come back exactly once, in the subtask the partitioner picks, with its
 * value, list and map — on every backend, and across backends (heap
 * snapshots restored into disk backends and back).
 */
import { describe, expect, it } from "vitest";
import { type KeyedBackendKind, keyedBackendKinds } from "../../test/support/keyed-backends.ts";
import { ListStateDescriptor, MapStateDescriptor, ValueStateDescriptor } from "./descriptors.ts";
import { keyGroupOf, keyGroupRangeForSubtask, subtaskForKeyGroup } from "./key-groups.ts";
import type { KeyedStateBackend } from "./keyed-state-backend.ts";

const MAX = 128;
const sum = new ValueStateDescriptor<number>("sum", 0);
const items = new ListStateDescriptor<string>("items");
const tags = new MapStateDescriptor<string, { n: number }>("tags");

/** Keys of every kind the backend stores directly (primitives) or as canonical strings (arrays, escaped strings). */
function oracleKeys(): unknown[] {
  const keys: unknown[] = [];
  for (let i = 0; i < 300; i++) {
    keys.push(i, -i - 1, i + 0.5, 2 ** 40 + i, `key-${i}`, BigInt(i) * 1_000_000_007n, [i, `k${i}`], [[i], [true, 1n]]);
  }
  keys.push("", "\u0000escaped", "\u0000", "héllo ✓ 😀", true, false, 2 ** 31, -(2 ** 31), Number.MAX_SAFE_INTEGER, 1e300, -1e-300, []);
  return keys;
}

const kinds = keyedBackendKinds();

const backends = (kind: KeyedBackendKind, parallelism: number): KeyedStateBackend[] =>
  Array.from({ length: parallelism }, (_, i) => kind.make({ maxParallelism: MAX, keyGroupRange: keyGroupRangeForSubtask(MAX, parallelism, i) }));

/** The backend the `keyBy` partitioner routes `key` to. */
const ownerOf = (all: KeyedStateBackend[], key: unknown): KeyedStateBackend => all[subtaskForKeyGroup(MAX, all.length, keyGroupOf(key, MAX))]!;

async function snapshotAll(all: KeyedStateBackend[]): Promise<Uint8Array[]> {
  return Promise.all(all.map((b) => b.snapshot(1).serialize()));
}

function restoreAt(kind: KeyedBackendKind, parallelism: number, blobs: Uint8Array[]): KeyedStateBackend[] {
  const all = backends(kind, parallelism);
  for (const b of all) b.restore(blobs);
  return all;
}

function expectOracle(all: KeyedStateBackend[], keys: unknown[]): void {
  expect(all.reduce((n, b) => n + b.numKeys(), 0)).toBe(keys.length);
  keys.forEach((key, i) => {
    const owner = ownerOf(all, key);
    owner.setCurrentKey(key); // throws when the key's group is not the owner's
    expect(owner.getState(sum).value(), `key ${String(key)}`).toBe(i);
    expect(owner.getListState(items).get()).toEqual([`v${i}`, `w${i}`]);
    expect([...owner.getMapState(tags).entries()]).toEqual([[`t${i}`, { n: i }]]);
  });
}

describe.each(kinds)("$name backend rescaling", (kind) => {
  const keys = oracleKeys();

  async function writeAtParallelism2(writer: KeyedBackendKind = kind): Promise<Uint8Array[]> {
    const old = backends(writer, 2);
    keys.forEach((key, i) => {
      const owner = ownerOf(old, key);
      owner.setCurrentKey(key);
      owner.getState(sum).update(i);
      owner.getListState(items).addAll([`v${i}`, `w${i}`]);
      owner.getMapState(tags).put(`t${i}`, { n: i });
    });
    return snapshotAll(old);
  }

  for (const parallelism of [3, 1, 128]) {
    it(`restores every kind of key written at parallelism 2 at parallelism ${parallelism}: each exactly once, where keyBy routes it`, async () => {
      expectOracle(restoreAt(kind, parallelism, await writeAtParallelism2()), keys);
    });
  }

  it("restores again after a restore: parallelism 2 → 3 → 1 → 4", async () => {
    let blobs = await writeAtParallelism2();
    for (const parallelism of [3, 1, 4]) {
      const all = restoreAt(kind, parallelism, blobs);
      expectOracle(all, keys);
      blobs = await snapshotAll(all);
    }
  });

  for (const writer of kinds.filter((k) => k.name !== kind.name)) {
    it(`restores ${writer.name} snapshots of parallelism 2 at parallelism 3, and its own back into ${writer.name} at parallelism 1`, async () => {
      const all = restoreAt(kind, 3, await writeAtParallelism2(writer));
      expectOracle(all, keys);
      expectOracle(restoreAt(writer, 1, await snapshotAll(all)), keys);
    });
  }

  it("refuses a key routed to the wrong subtask", () => {
    const all = backends(kind, 2);
    const key = keys.find((k) => subtaskForKeyGroup(MAX, 2, keyGroupOf(k, MAX)) === 1)!;
    expect(() => all[0]!.setCurrentKey(key)).toThrow(/outside the range \[0, 63\]/);
  });
});
