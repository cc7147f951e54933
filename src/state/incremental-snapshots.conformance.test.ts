/**
 * Delta snapshots (incremental checkpoints) on every backend: a chain of a
 * base and deltas, restored in order, equals the state at the last
 * snapshot — with values changed in place, deletions, and keys written
 * after a restore — and each delta holds only the keys written since the
 * previous snapshot. Chains cross backends too (heap deltas on a disk base).
 */
import { describe, expect, it } from "vitest";
import { keyedBackendKinds } from "../../test/support/keyed-backends.ts";
import { randomInt, seededRandom, testSeed } from "../util/seeded-random.ts";
import { ListStateDescriptor, MapStateDescriptor, ValueStateDescriptor } from "./descriptors.ts";
import type { KeyedStateBackend } from "./keyed-state-backend.ts";
import { keyGroupOf, keyGroupRangeForSubtask } from "./key-groups.ts";

const count = new ValueStateDescriptor<number>("count", 0);
const list = new ListStateDescriptor<number>("list");
const tags = new MapStateDescriptor<string, number>("tags");

type Model = Map<number, { count: number; list: number[]; tags: Map<string, number> }>;

/** `n` random writes (updates, appends, puts, removals, clears) to keys 0..keys-1 (those `owned`), mirrored in `model`. */
function write(b: KeyedStateBackend, model: Model, keys: number, n: number, random: () => number, owned: (k: number) => boolean = () => true): void {
  for (let i = 0; i < n; i++) {
    const k = randomInt(random, 0, keys - 1);
    if (!owned(k)) continue;
    b.setCurrentKey(k);
    let m = model.get(k);
    if (m === undefined) model.set(k, (m = { count: 0, list: [], tags: new Map() }));
    const v = randomInt(random, 1, 100);
    switch (randomInt(random, 0, 4)) {
      case 0:
        b.getState(count).update(m.count += v);
        break;
      case 1:
        b.getListState(list).add(v);
        m.list.push(v);
        break;
      case 2:
        b.getMapState(tags).put(`t${v % 5}`, v);
        m.tags.set(`t${v % 5}`, v);
        break;
      case 3:
        b.getMapState(tags).remove(`t${v % 5}`);
        m.tags.delete(`t${v % 5}`);
        break;
      default:
        b.getState(count).clear();
        b.getListState(list).clear();
        m.count = 0;
        m.list = [];
    }
  }
}

function expectModel(b: KeyedStateBackend, model: Model, seed: number): void {
  for (const [k, m] of model) {
    b.setCurrentKey(k);
    expect(b.getState(count).value(), `key ${k}, seed ${seed}`).toBe(m.count);
    expect(b.getListState(list).get(), `key ${k}, seed ${seed}`).toEqual(m.list);
    expect(new Map(b.getMapState(tags).entries()), `key ${k}, seed ${seed}`).toEqual(m.tags);
  }
}

async function take(b: KeyedStateBackend, id: number, type: "base" | "delta"): Promise<Uint8Array> {
  const snap = b.snapshot(id, type);
  const bytes = await snap.serialize();
  snap.release();
  return bytes;
}

const kinds = keyedBackendKinds();

describe.each(kinds)("incremental snapshots ($name)", ({ make }) => {
  it("restores a chain base, delta, delta to the state at the last snapshot, each delta holding only what changed (seeded)", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const b = make({ trackChanges: true });
    const model: Model = new Map();
    write(b, model, 2_000, 6_000, random);
    const chain = [await take(b, 1, "base")];
    for (let id = 2; id <= 3; id++) {
      write(b, model, 2_000, 100, random); // about 5 % of the keys
      expect(b.changedKeyCount()).toBeLessThanOrEqual(100 * 3);
      chain.push(await take(b, id, "delta"));
      expect(b.changedKeyCount()).toBe(0);
      expect(chain[id - 1]!.length, `seed ${seed}`).toBeLessThan(chain[0]!.length / 5);
    }
    for (const other of kinds) {
      const r = other.make();
      r.restore(chain);
      expectModel(r, model, seed);
    }
  });

  it("continues a chain after a restore: only keys written after it are in the next delta", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const first = make({ trackChanges: true });
    const model: Model = new Map();
    write(first, model, 500, 2_000, random);
    const chain = [await take(first, 1, "base")];
    const second = make({ trackChanges: true });
    second.restore(chain);
    expect(second.changedKeyCount()).toBe(0);
    write(second, model, 500, 20, random);
    expect(second.changedKeyCount()).toBeGreaterThan(0);
    expect(second.changedKeyCount()).toBeLessThanOrEqual(20 * 3);
    chain.push(await take(second, 2, "delta"));
    for (const other of kinds) {
      const r = other.make();
      r.restore(chain);
      expectModel(r, model, seed);
    }
  });

  it("rescales from chains: 2 subtasks' base and deltas restore into 3, and those 3 subtasks' chains into 1 (seeded)", async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const model: Model = new Map();
    const KEYS = 600;
    /** `p` subtasks, each restored from `from` (all chains, in order), then a base and two deltas of more writes: their chains. */
    const chainsAt = async (p: number, from: readonly Uint8Array[][]): Promise<Uint8Array[][]> => {
      const chains: Uint8Array[][] = [];
      for (let i = 0; i < p; i++) {
        const range = keyGroupRangeForSubtask(128, p, i);
        const owned = (k: number) => {
          const kg = keyGroupOf(k, 128);
          return kg >= range[0] && kg <= range[1];
        };
        const b = make({ keyGroupRange: range, trackChanges: true });
        b.restore(from.flat());
        write(b, model, KEYS, 300, random, owned);
        const chain = [await take(b, 10 * p + 1, "base")];
        for (let d = 2; d <= 3; d++) {
          write(b, model, KEYS, 100, random, owned);
          chain.push(await take(b, 10 * p + d, "delta"));
        }
        chains.push(chain);
      }
      return chains;
    };
    const two = await chainsAt(2, []);
    const three = await chainsAt(3, two);
    const one = make({ trackChanges: true });
    one.restore(three.flat());
    expectModel(one, model, seed);
    expect(one.numKeys(), `seed ${seed}`).toBe([...model.values()].filter((m) => m.count !== 0 || m.list.length > 0 || m.tags.size > 0).length);
  });
});
