import { describe, expect, it } from "vitest";
import { ListStateDescriptor } from "../descriptors.ts";
import { OperatorStateBackend } from "./operator-state-backend.ts";
import { redistributeOperatorState, splitContiguous } from "./redistribute-operator-state.ts";

const splitD = new ListStateDescriptor<string>("split");
const unionD = new ListStateDescriptor<string>("union");

async function oldSnapshots(lists: { split: string[]; union?: string[] }[]): Promise<Uint8Array[]> {
  return Promise.all(
    lists.map((l) => {
      const ops = new OperatorStateBackend({ operatorUid: "src" });
      ops.getListState(splitD).update(l.split);
      if (l.union) ops.getUnionListState(unionD).update(l.union);
      return ops.snapshot(7).serialize();
    }),
  );
}

function restoreAll(assigned: Uint8Array[][]): OperatorStateBackend[] {
  return assigned.map((blobs) => {
    const ops = new OperatorStateBackend({ operatorUid: "src" });
    ops.restore(blobs);
    return ops;
  });
}

describe("redistributeOperatorState", () => {
  it("gives each subtask exactly its own blob at the same parallelism", async () => {
    const old = await oldSnapshots([{ split: ["a"] }, { split: ["b", "c"] }]);
    const assigned = redistributeOperatorState(old, 2);
    expect(assigned).toEqual([[old[0]], [old[1]]]);
  });

  it("splits list state into contiguous parts on scale-up and concatenates on scale-down", async () => {
    const old = await oldSnapshots([{ split: ["a", "b", "c"] }, { split: ["d", "e"] }]);
    const up = restoreAll(redistributeOperatorState(old, 3)).map((o) => o.getListState(splitD).get());
    expect(up).toEqual([["a", "b"], ["c", "d"], ["e"]]);
    const down = restoreAll(redistributeOperatorState(old, 1)).map((o) => o.getListState(splitD).get());
    expect(down).toEqual([["a", "b", "c", "d", "e"]]);
    const wide = restoreAll(redistributeOperatorState(old, 8)).map((o) => o.getListState(splitD).get());
    expect(wide.flat()).toEqual(["a", "b", "c", "d", "e"]);
    expect(wide.filter((l) => l.length === 1)).toHaveLength(5);
  });

  it("gives every subtask the union of union list state, also at the same parallelism", async () => {
    const old = await oldSnapshots([
      { split: ["a"], union: ["u0"] },
      { split: ["b"], union: ["u1", "u2"] },
    ]);
    for (const p of [1, 2, 3]) {
      const restored = restoreAll(redistributeOperatorState(old, p));
      expect(restored).toHaveLength(p);
      for (const o of restored) expect(o.getUnionListState(unionD).get()).toEqual(["u0", "u1", "u2"]);
    }
    const same = restoreAll(redistributeOperatorState(old, 2)).map((o) => o.getListState(splitD).get());
    expect(same).toEqual([["a"], ["b"]]);
  });

  it("returns empty assignments when there was no old state", () => {
    expect(redistributeOperatorState([], 3)).toEqual([[], [], []]);
  });

  it("cuts into parts whose sizes differ by at most one", () => {
    expect(splitContiguous([1, 2, 3, 4, 5, 6, 7], 3)).toEqual([[1, 2, 3], [4, 5], [6, 7]]);
    expect(splitContiguous([1], 3)).toEqual([[1], [], []]);
  });
});
