import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SharedStateRef } from "../../checkpoint/types.ts";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { DiskKeyedStateBackend, HeapKeyedStateBackend, ValueStateDescriptor } from "../../state/index.ts";
import type { StateSnapshot } from "../../state/state-snapshot.ts";
import { KeyedSnapshotChain } from "./keyed-snapshot-chain.ts";

const ref = (checkpointId: number, size: number): SharedStateRef => ({ path: `../shared/f-${checkpointId}-${size}.state`, size, crc: 0, checkpointId });
const ids = (refs: readonly SharedStateRef[]) => refs.map((r) => r.checkpointId);
const noBase = async (): Promise<SharedStateRef> => {
  throw new Error("no base to write");
};

/** A full snapshot whose serialization ends when the test says so. */
function pendingSnapshot(): { snapshot: StateSnapshot; finish(bytes: Uint8Array): void; fail(e: Error): void; released(): boolean } {
  let settle!: { resolve: (b: Uint8Array) => void; reject: (e: Error) => void };
  const bytes = new Promise<Uint8Array>((resolve, reject) => (settle = { resolve, reject }));
  let released = false;
  return {
    snapshot: { serialize: () => bytes, release: () => void (released = true) },
    finish: (b) => settle.resolve(b),
    fail: (e) => settle.reject(e),
    released: () => released,
  };
}

const dirs = tempDirs("weir-snapshot-chain-");
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("KeyedSnapshotChain", () => {
  it("starts with a base, then deltas; a new base when half the entries changed; a base beside a delta when the deltas outgrow it", async () => {
    const chain = new KeyedSnapshotChain();
    expect(chain.nextType(10, 1000)).toBe("base");
    await chain.append(1, "base", async () => ref(1, 1000), noBase);
    expect(chain.nextType(10, 1000)).toBe("delta");
    expect(chain.nextType(500, 1000)).toBe("base");
    expect(ids(await chain.append(2, "delta", async () => ref(2, 600), noBase))).toEqual([1, 2]);
    expect(chain.wantsBase()).toBe(false);
    expect(ids(await chain.append(3, "delta", async () => ref(3, 500), noBase))).toEqual([1, 2, 3]);
    expect(chain.nextType(10, 1000)).toBe("delta");
    expect(chain.wantsBase()).toBe(true); // 1 100 bytes of deltas > 1 000 of base
    expect(ids(await chain.append(4, "base", async () => ref(4, 900), noBase))).toEqual([4]);
    expect(chain.wantsBase()).toBe(false);
  });

  it("a base taken beside the delta of barrier 4 is written with the first checkpoint after it is serialized, followed by the deltas after 4", async () => {
    const chain = new KeyedSnapshotChain();
    await chain.append(1, "base", async () => ref(1, 100), noBase);
    await chain.append(2, "delta", async () => ref(2, 60), noBase);
    await chain.append(3, "delta", async () => ref(3, 60), noBase);
    expect(chain.wantsBase()).toBe(true);
    const base = pendingSnapshot();
    chain.materialize(4, base.snapshot);
    expect(chain.wantsBase()).toBe(false); // one at a time
    expect(ids(await chain.append(4, "delta", async () => ref(4, 10), noBase))).toEqual([1, 2, 3, 4]);
    expect(ids(await chain.append(5, "delta", async () => ref(5, 10), noBase))).toEqual([1, 2, 3, 4, 5]); // not serialized yet
    base.finish(new Uint8Array(120));
    await turn();
    expect(base.released()).toBe(true);
    const written: number[] = [];
    const refs = await chain.append(6, "delta", async () => ref(6, 10), async (bytes) => (written.push(bytes.length), ref(6, bytes.length)));
    expect(written).toEqual([120]);
    expect(refs.map((r) => r.size)).toEqual([120, 10, 10]); // the new base (state at 4), the deltas of 5 and 6
    expect(ids(refs)).toEqual([6, 5, 6]);
    expect(chain.wantsBase()).toBe(false); // 20 bytes of deltas, 120 of base
  });

  it("a base that fails to serialize is dropped and a later barrier takes another; a failed write of it breaks the chain", async () => {
    const chain = new KeyedSnapshotChain();
    await chain.append(1, "base", async () => ref(1, 10), noBase);
    await chain.append(2, "delta", async () => ref(2, 20), noBase);
    const first = pendingSnapshot();
    chain.materialize(3, first.snapshot);
    first.fail(new Error("released"));
    await turn();
    expect(first.released()).toBe(true);
    expect(chain.wantsBase()).toBe(true);
    const second = pendingSnapshot();
    chain.materialize(4, second.snapshot);
    second.finish(new Uint8Array(30));
    await turn();
    const failed = chain.append(5, "delta", async () => ref(5, 1), async () => {
      throw new Error("disk full");
    });
    await expect(failed).rejects.toThrow("disk full");
    expect(chain.nextType(0, 100)).toBe("base");
    expect(chain.wantsBase()).toBe(false);
  });

  it("appends in the order of the calls: a write starts once the one before it finished", async () => {
    const chain = new KeyedSnapshotChain();
    let releaseBase!: () => void;
    const base = chain.append(1, "base", () => new Promise<SharedStateRef>((resolve) => (releaseBase = () => resolve(ref(1, 100)))), noBase);
    const delta = chain.append(2, "delta", async () => ref(2, 1), noBase);
    await turn(); // the base's write has started, the delta's waits for it
    releaseBase();
    expect(ids(await base)).toEqual([1]);
    expect(ids(await delta)).toEqual([1, 2]);
  });

  it("a failed write breaks the chain: a delta after it is refused, the next snapshot is a base", async () => {
    const chain = new KeyedSnapshotChain();
    await chain.append(1, "base", async () => ref(1, 100), noBase);
    const failed = chain.append(2, "delta", async () => {
      throw new Error("disk full");
    }, noBase);
    const next = chain.append(3, "delta", async () => ref(3, 1), noBase);
    await expect(failed).rejects.toThrow("disk full");
    await expect(next).rejects.toThrow(/earlier incremental snapshot/);
    expect(chain.nextType(0, 100)).toBe("base");
    expect(ids(await chain.append(4, "base", async () => ref(4, 100), noBase))).toEqual([4]);
    expect(chain.nextType(0, 100)).toBe("delta");
  });

  it("continues an adopted chain, without a base that was on its way", () => {
    const chain = new KeyedSnapshotChain();
    chain.adopt([ref(1, 100), ref(2, 10)]);
    expect(chain.nextType(1, 100)).toBe("delta");
    expect(chain.wantsBase()).toBe(false);
    chain.adopt([ref(1, 10), ref(2, 20)]);
    expect(chain.wantsBase()).toBe(true);
    chain.materialize(3, pendingSnapshot().snapshot);
    chain.adopt([ref(1, 10), ref(2, 20)]);
    expect(chain.wantsBase()).toBe(true);
  });

  it.each(["heap", "disk"] as const)("restores every checkpoint of a chain rebased in the background to the state of its barrier (%s backend)", async (kind) => {
    const options = { operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127] as const };
    const backend =
      kind === "heap"
        ? new HeapKeyedStateBackend({ ...options, trackChanges: true })
        : new DiskKeyedStateBackend({ ...options, trackChanges: true, cacheEntries: 16, localDirectory: join(dirs(), "op-0") });
    const count = backend.getState(new ValueStateDescriptor<number>("count"));
    const files = new Map<string, Uint8Array>();
    const chain = new KeyedSnapshotChain();
    const expected = new Map<number, number>();
    const checkpoints: [readonly SharedStateRef[], Map<number, number>][] = [];
    const materialized: number[] = [];
    for (let id = 1; id <= 24; id++) {
      // a few keys, rewritten often: the deltas soon outgrow the base; deletions are changes too
      for (let i = 0; i < 40; i++) {
        const k = (id * 7 + i * 13) % 97;
        backend.setCurrentKey(k);
        if ((id + i) % 11 === 0) {
          count.clear();
          expected.delete(k);
        } else {
          count.update((count.value() ?? 0) + id);
          expected.set(k, (expected.get(k) ?? 0) + id);
        }
      }
      if (chain.wantsBase() && chain.nextType(backend.changedKeyCount(), backend.approximateEntries()) === "delta") materialized.push(id);
      const { keyed, shared } = chain.capture(id, backend, async (bytes) => {
        const r: SharedStateRef = { path: `../shared/${id}-${files.size}.state`, size: bytes.length, crc: 0, checkpointId: id };
        files.set(r.path, bytes);
        return r;
      });
      checkpoints.push([await shared, new Map(expected)]);
      keyed.release();
      if (id % 3 === 0) await turn(); // the disk backend's base waits for its flush, over turns of the event loop: some barriers come first
    }
    backend.dispose();
    expect(materialized.length, "the chain rebased in the background").toBeGreaterThan(1);
    // a small heap base is serialized before the next barrier: that checkpoint writes it, then its own delta;
    // a disk base after its flush: deltas of later barriers come between
    if (kind === "heap") for (const at of materialized) expect(ids(checkpoints[at]![0]), `the checkpoint after barrier ${at}`).toEqual([at + 1, at + 1]);
    else expect(checkpoints.some(([refs]) => refs.length > 2 && refs[1]!.checkpointId < refs[0]!.checkpointId), "a base written after a delta that follows it").toBe(true);
    for (const [refs, state] of checkpoints) {
      const restored = new HeapKeyedStateBackend(options);
      restored.restore(refs.map((r) => files.get(r.path)!));
      const got = new Map([...restored.entriesOf("count")].map(([k, v]) => [k as number, v as number]));
      expect(got, `chain ${ids(refs).join(",")}`).toEqual(state);
    }
  });
});
