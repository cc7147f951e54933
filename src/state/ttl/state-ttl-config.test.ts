import { describe, expect, it } from "vitest";
import { ManualClock } from "../../util/clock.ts";
import { descriptorDifference, ListStateDescriptor, ValueStateDescriptor } from "../descriptors.ts";
import { StateDescriptorMismatchError, StateTtlMismatchError } from "../errors.ts";
import { HeapKeyedStateBackend } from "../heap/heap-keyed-state-backend.ts";
import { OperatorStateBackend } from "../operator/operator-state-backend.ts";
import { StateTtlConfig, StateVisibility, UpdateType } from "./state-ttl-config.ts";

const backend = (): HeapKeyedStateBackend =>
  new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127], clock: new ManualClock(0) });

describe("StateTtlConfig", () => {
  it("has Flink's defaults and builder methods", () => {
    const d = StateTtlConfig.newBuilder(1000).build();
    expect([d.ttlMs, d.updateType, d.stateVisibility, d.cleanupInFullSnapshot, d.incrementalCleanup]).toEqual([
      1000, UpdateType.OnCreateAndWrite, StateVisibility.NeverReturnExpired, false, { cleanupSize: 5, runCleanupForEveryRecord: false },
    ]);
    expect(StateTtlConfig.newBuilder(1).disableCleanupInBackground().build().incrementalCleanup).toBeUndefined();
    expect(StateTtlConfig.newBuilder(1).disableCleanupInBackground().cleanupIncrementally(7).build().incrementalCleanup?.cleanupSize).toBe(7);
    const c = StateTtlConfig.newBuilder(5)
      .setTtl(60_000)
      .updateTtlOnReadAndWrite()
      .returnExpiredIfNotCleanedUp()
      .cleanupFullSnapshot()
      .cleanupIncrementally(10, true)
      .build();
    expect(c.toString()).toBe(
      "TTL 60000 ms, OnReadAndWrite, ReturnExpiredIfNotCleanedUp, cleanup in full snapshot, incremental cleanup of 10 per access and record",
    );
    expect(StateTtlConfig.newBuilder(1).cleanupIncrementally().build().incrementalCleanup).toEqual({ cleanupSize: 5, runCleanupForEveryRecord: false });
  });

  it("refuses bad settings with the valid choices", () => {
    expect(() => StateTtlConfig.newBuilder(0)).toThrow(/positive integer number of milliseconds, got 0/);
    expect(() => StateTtlConfig.newBuilder(1.5)).toThrow(/got 1.5/);
    expect(() => StateTtlConfig.newBuilder(1).setUpdateType("OnRead" as UpdateType)).toThrow(
      /setUpdateType: got "OnRead"; valid values are OnCreateAndWrite, OnReadAndWrite/,
    );
    expect(() => StateTtlConfig.newBuilder(1).setStateVisibility("x" as StateVisibility)).toThrow(/NeverReturnExpired, ReturnExpiredIfNotCleanedUp/);
    expect(() => StateTtlConfig.newBuilder(1).cleanupIncrementally(0)).toThrow(/cleanupSize must be a positive integer, got 0/);
    expect(() => new ValueStateDescriptor("v").enableTimeToLive({} as StateTtlConfig)).toThrow(/expected a StateTtlConfig/);
  });
});

describe("TTL mismatches", () => {
  const ttl = StateTtlConfig.newBuilder(1000).build();

  it("descriptorDifference reports registering one state with and without TTL, or with another TTL", () => {
    expect(descriptorDifference(new ValueStateDescriptor("v"), new ValueStateDescriptor("v").enableTimeToLive(ttl))).toBe(
      "no TTL and again with TTL 1000 ms, OnCreateAndWrite, NeverReturnExpired, incremental cleanup of 5 per access",
    );
    const other = StateTtlConfig.newBuilder(2000).build();
    expect(descriptorDifference(new ListStateDescriptor("l").enableTimeToLive(ttl), new ListStateDescriptor("l").enableTimeToLive(other))).toMatch(
      /^TTL 1000 ms.* and again with TTL 2000 ms/,
    );
    const same = StateTtlConfig.newBuilder(1000).build();
    expect(descriptorDifference(new ValueStateDescriptor("v").enableTimeToLive(ttl), new ValueStateDescriptor("v").enableTimeToLive(same))).toBeUndefined();
    const b = backend();
    b.getState(new ValueStateDescriptor<number>("v").enableTimeToLive(ttl));
    expect(() => b.getState(new ValueStateDescriptor<number>("v"))).toThrow(StateDescriptorMismatchError);
  });

  async function snapshotOf(withTtl: boolean): Promise<Uint8Array> {
    const b = backend();
    const d = new ValueStateDescriptor<number>("count");
    const s = b.getState(withTtl ? d.enableTimeToLive(ttl) : d);
    b.setCurrentKey("k");
    s.update(1);
    const snap = b.snapshot(1);
    const bytes = await snap.serialize();
    snap.release();
    return bytes;
  }

  it("restoring a TTL state without TTL, or a plain state with TTL, names operator and state", async () => {
    const restored = backend();
    restored.restore([await snapshotOf(true)]);
    expect(() => restored.getState(new ValueStateDescriptor<number>("count"))).toThrow(StateTtlMismatchError);
    expect(() => restored.getState(new ValueStateDescriptor<number>("count"))).toThrow(
      "state 'count' in operator 'op' was checkpointed with TTL and is now registered without TTL",
    );
    const plain = backend();
    plain.restore([await snapshotOf(false)]);
    expect(() => plain.getState(new ValueStateDescriptor<number>("count").enableTimeToLive(ttl))).toThrow(
      "state 'count' in operator 'op' was checkpointed without TTL and is now registered with TTL",
    );
    // restoring into a state already registered checks too
    const registered = backend();
    registered.getState(new ValueStateDescriptor<number>("count"));
    const withTtl = await snapshotOf(true);
    expect(() => registered.restore([withTtl])).toThrow(StateTtlMismatchError);
  });

  it("an incremental chain (base, then delta) keeps the TTL form and marker", async () => {
    const clock = new ManualClock(0);
    const b = new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127], trackChanges: true, clock });
    const s = b.getState(new ValueStateDescriptor<number>("count").enableTimeToLive(ttl));
    b.setCurrentKey("k");
    s.update(1);
    const base = b.snapshot(1, "base");
    const blobs = [await base.serialize()];
    base.release();
    clock.set(500);
    b.setCurrentKey("j");
    s.update(2);
    const delta = b.snapshot(2, "delta");
    blobs.push(await delta.serialize());
    delta.release();
    const restored = new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127], clock });
    restored.restore(blobs);
    expect(new Map(restored.entriesOf("count"))).toEqual(new Map([["k", [1, 0]], ["j", [2, 500]]]));
    clock.set(1000); // k expired, j alive
    const r = restored.getState(new ValueStateDescriptor<number>("count").enableTimeToLive(ttl));
    restored.setCurrentKey("j");
    expect(r.value()).toBe(2);
    restored.setCurrentKey("k");
    expect(r.value()).toBeUndefined();
    const plain = new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127] });
    plain.restore([blobs[1]!]);
    expect(() => plain.getState(new ValueStateDescriptor<number>("count"))).toThrow(StateTtlMismatchError);
  });

  it("a TTL state restores with TTL, with its timestamps", async () => {
    const b = backend();
    b.restore([await snapshotOf(true)]);
    const s = b.getState(new ValueStateDescriptor<number>("count").enableTimeToLive(ttl));
    b.setCurrentKey("k");
    expect(s.value()).toBe(1);
    expect([...b.entriesOf("count")]).toEqual([["k", [1, 0]]]);
  });
});

describe("TTL on non-keyed state", () => {
  it("operator list state refuses a descriptor with TTL", () => {
    const ops = new OperatorStateBackend({ operatorUid: "src" });
    const d = new ListStateDescriptor<number>("offsets").enableTimeToLive(StateTtlConfig.newBuilder(1000).build());
    expect(() => ops.getListState(d)).toThrow(
      "operator list state 'offsets' in operator 'src' cannot have a time to live: TTL (enableTimeToLive) applies to keyed state only",
    );
    expect(() => ops.getUnionListState(d)).toThrow(/operator union list state 'offsets'/);
  });
});
