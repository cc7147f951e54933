import { describe, expect, it } from "vitest";
import { HeapKeyedStateBackend, ReducingStateDescriptor, StateTtlConfig, ValueStateDescriptor } from "../../state/index.ts";
import { WindowScopedState } from "./window-scoped-state.ts";

describe("WindowScopedState", () => {
  const store = () => new WindowScopedState(new HeapKeyedStateBackend({ operatorUid: "w", maxParallelism: 128, keyGroupRange: [0, 127] }), "_window-state");
  const ttl = StateTtlConfig.newBuilder(1000).build();

  it("keeps state per window of the current key", () => {
    const backend = new HeapKeyedStateBackend({ operatorUid: "w", maxParallelism: 128, keyGroupRange: [0, 127] });
    const scoped = new WindowScopedState(backend, "_window-state");
    backend.setCurrentKey("k");
    const n = scoped.getPartitionedState(new ValueStateDescriptor<number>("n", 0));
    scoped.setWindow("w1");
    n.update(1);
    scoped.setWindow("w2");
    expect(n.value()).toBe(0);
    scoped.setWindow("w1");
    expect(n.value()).toBe(1);
  });

  it("refuses window state with TTL instead of ignoring it", () => {
    const s = store();
    expect(() => s.getPartitionedState(new ValueStateDescriptor<number>("n").enableTimeToLive(ttl))).toThrow(
      "window state 'n' (in '_window-state') cannot have a time to live",
    );
    expect(() => s.getReducingState(new ReducingStateDescriptor<number>("r", (a, b) => a + b).enableTimeToLive(ttl))).toThrow(/window state 'r'/);
  });
});
