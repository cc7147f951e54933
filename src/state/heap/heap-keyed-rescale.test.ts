import { describe, expect, it } from "vitest";
import { ListStateDescriptor, ValueStateDescriptor } from "../descriptors.ts";
import { canonicalKey, keyGroupOf, keyGroupRangeForSubtask, subtaskForKeyGroup } from "../key-groups.ts";
import { HeapKeyedStateBackend } from "./heap-keyed-state-backend.ts";

const sum = new ValueStateDescriptor<number>("sum", 0);
const items = new ListStateDescriptor<string>("items");

describe("HeapKeyedStateBackend rescaling", () => {
  async function writeAtParallelism2(keys: number): Promise<Uint8Array[]> {
    const old = [0, 1].map(
      (i) => new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: keyGroupRangeForSubtask(128, 2, i) }),
    );
    for (let k = 0; k < keys; k++) {
      const key = `key-${k}`;
      const owner = old[subtaskForKeyGroup(128, 2, keyGroupOf(canonicalKey(key), 128))]!;
      owner.setCurrentKey(key);
      owner.getState(sum).update(k);
      owner.getListState(items).add(key);
    }
    return Promise.all(old.map((b) => b.snapshot(1).serialize()));
  }

  for (const parallelism of [3, 1, 128]) {
    it(`restores state written at parallelism 2 at parallelism ${parallelism}: each key exactly once, in its owner`, async () => {
      const keys = 1000;
      const blobs = await writeAtParallelism2(keys);
      const restored = Array.from({ length: parallelism }, (_, i) => {
        const b = new HeapKeyedStateBackend({
          operatorUid: "op",
          maxParallelism: 128,
          keyGroupRange: keyGroupRangeForSubtask(128, parallelism, i),
        });
        b.restore(blobs);
        return b;
      });
      expect(restored.reduce((n, b) => n + b.numKeys(), 0)).toBe(keys);
      for (let k = 0; k < keys; k++) {
        const key = `key-${k}`;
        const owner = restored[subtaskForKeyGroup(128, parallelism, keyGroupOf(canonicalKey(key), 128))]!;
        owner.setCurrentKey(key);
        expect(owner.getState(sum).value()).toBe(k);
        expect(owner.getListState(items).get()).toEqual([key]);
      }
    });
  }
});
