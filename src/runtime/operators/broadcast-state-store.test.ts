import { describe, expect, it } from "vitest";
import { MapStateDescriptor, OperatorStateBackend, redistributeOperatorState, StateTtlConfig } from "../../state/index.ts";
import { BroadcastStateStore, pickBroadcastCopy, UnknownBroadcastStateError } from "./broadcast-state-store.ts";

const rules = new MapStateDescriptor<string, number>("rules");
const flags = new MapStateDescriptor<string, boolean>("flags");
const DESCRIPTORS = [rules, flags] as MapStateDescriptor<unknown, unknown>[];

/** Snapshots of `p` subtasks that each applied the same broadcast updates. */
async function snapshotsOf(p: number): Promise<Uint8Array[]> {
  const blobs: Uint8Array[] = [];
  for (let i = 0; i < p; i++) {
    const backend = new OperatorStateBackend({ operatorUid: "rules-op" });
    const store = new BroadcastStateStore("rules-op", i, backend, DESCRIPTORS);
    const w = store.writable(rules);
    w.put("a", 1);
    w.put("b", 2);
    w.put("a", 3);
    w.remove("b");
    w.put("c", 4);
    store.writable(flags).put("on", true);
    store.snapshot();
    blobs.push(await backend.snapshot(1).serialize());
  }
  return blobs;
}

describe("broadcast state store", () => {
  it("restores the same maps, without duplicates, on every subtask at a smaller and a larger parallelism", async () => {
    const old = await snapshotsOf(3);
    for (const p of [1, 3, 5]) {
      const assigned = redistributeOperatorState(old, p);
      for (let i = 0; i < p; i++) {
        const backend = new OperatorStateBackend({ operatorUid: "rules-op" });
        backend.restore(assigned[i]!);
        const store = new BroadcastStateStore("rules-op", i, backend, DESCRIPTORS);
        expect([...store.readOnly(rules).entries()], `parallelism ${p}, subtask ${i}`).toEqual([["a", 3], ["c", 4]]);
        expect([...store.readOnly(flags).entries()]).toEqual([["on", true]]);
      }
    }
  });

  it("keeps the copy of the lowest old subtask", () => {
    const maps = pickBroadcastCopy([[2, "rules", "x", 2], [1, "rules", "x", 1], [1, "rules", "y", 5], [2, "rules", "z", 9]]);
    expect([...maps.get("rules")!]).toEqual([["x", 1], ["y", 5]]);
  });

  it("names the operator and the state when a state was not declared in broadcast(...)", () => {
    const store = new BroadcastStateStore("rules-op", 0, new OperatorStateBackend({ operatorUid: "rules-op" }), [rules] as MapStateDescriptor<unknown, unknown>[]);
    expect(() => store.readOnly(flags)).toThrow(UnknownBroadcastStateError);
    expect(() => store.readOnly(flags)).toThrow(/'rules-op'.*'flags'.*'rules'/);
  });

  it("refuses a broadcast state descriptor with TTL (TTL is for keyed state)", () => {
    const expiring = new MapStateDescriptor<string, number>("expiring").enableTimeToLive(StateTtlConfig.newBuilder(1000).build());
    expect(() => new BroadcastStateStore("rules-op", 0, new OperatorStateBackend({ operatorUid: "rules-op" }), [expiring] as MapStateDescriptor<unknown, unknown>[])).toThrow(
      "broadcast state 'expiring' in operator 'rules-op' cannot have a time to live",
    );
  });
});
