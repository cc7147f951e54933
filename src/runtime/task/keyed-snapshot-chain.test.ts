import { describe, expect, it } from "vitest";
import type { SharedStateRef } from "../../checkpoint/types.ts";
import { KeyedSnapshotChain } from "./keyed-snapshot-chain.ts";

const ref = (checkpointId: number, size: number): SharedStateRef => ({ path: `../shared/f-${checkpointId}.state`, size, crc: 0, checkpointId });

describe("KeyedSnapshotChain", () => {
  it("starts with a base, then deltas; a new base when the deltas outgrow it or half the entries changed", async () => {
    const chain = new KeyedSnapshotChain();
    expect(chain.nextType(10, 1000)).toBe("base");
    await chain.append("base", async () => ref(1, 1000));
    expect(chain.nextType(10, 1000)).toBe("delta");
    expect(chain.nextType(500, 1000)).toBe("base");
    expect((await chain.append("delta", async () => ref(2, 600))).map((r) => r.checkpointId)).toEqual([1, 2]);
    expect(chain.nextType(10, 1000)).toBe("delta");
    expect((await chain.append("delta", async () => ref(3, 500))).map((r) => r.checkpointId)).toEqual([1, 2, 3]);
    expect(chain.nextType(10, 1000)).toBe("base"); // 1 100 bytes of deltas > 1 000 of base
    expect((await chain.append("base", async () => ref(4, 900))).map((r) => r.checkpointId)).toEqual([4]);
  });

  it("appends in the order of the calls: a write starts once the one before it finished", async () => {
    const chain = new KeyedSnapshotChain();
    let releaseBase!: () => void;
    const base = chain.append("base", () => new Promise<SharedStateRef>((resolve) => (releaseBase = () => resolve(ref(1, 100)))));
    const delta = chain.append("delta", async () => ref(2, 1));
    await new Promise((resolve) => setImmediate(resolve)); // the base's write has started, the delta's waits for it
    releaseBase();
    expect((await base).map((r) => r.checkpointId)).toEqual([1]);
    expect((await delta).map((r) => r.checkpointId)).toEqual([1, 2]);
  });

  it("a failed write breaks the chain: a delta after it is refused, the next snapshot is a base", async () => {
    const chain = new KeyedSnapshotChain();
    await chain.append("base", async () => ref(1, 100));
    const failed = chain.append("delta", async () => {
      throw new Error("disk full");
    });
    const next = chain.append("delta", async () => ref(3, 1));
    await expect(failed).rejects.toThrow("disk full");
    await expect(next).rejects.toThrow(/earlier incremental snapshot/);
    expect(chain.nextType(0, 100)).toBe("base");
    expect((await chain.append("base", async () => ref(4, 100))).map((r) => r.checkpointId)).toEqual([4]);
    expect(chain.nextType(0, 100)).toBe("delta");
  });

  it("continues an adopted chain", () => {
    const chain = new KeyedSnapshotChain();
    chain.adopt([ref(1, 100), ref(2, 10)]);
    expect(chain.nextType(1, 100)).toBe("delta");
  });
});
