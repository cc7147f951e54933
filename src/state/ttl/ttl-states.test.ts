import { describe, expect, it } from "vitest";
import { ManualClock } from "../../util/clock.ts";
import {
  type AggregateFunction,
  AggregatingStateDescriptor,
  ListStateDescriptor,
  MapStateDescriptor,
  ReducingStateDescriptor,
  ValueStateDescriptor,
} from "../descriptors.ts";
import { HeapKeyedStateBackend } from "../heap/heap-keyed-state-backend.ts";
import { StateTtlConfig, StateVisibility, UpdateType } from "./state-ttl-config.ts";

const TTL = 100;
const backendAt = (clock: ManualClock): HeapKeyedStateBackend =>
  new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: [0, 127], clock });

const sumAgg: AggregateFunction<number, { sum: number }, number> = {
  createAccumulator: () => ({ sum: 0 }),
  add: (v, acc) => {
    acc.sum += v;
    return acc;
  },
  getResult: (acc) => acc.sum,
  merge: (a, b) => ({ sum: a.sum + b.sum }),
};

/** One state kind seen as "write a number, read what is visible" (undefined when nothing is). */
interface Kind {
  readonly name: string;
  open(b: HeapKeyedStateBackend, ttl: StateTtlConfig): { write(v: number): void; read(): unknown };
  /** What `read` returns after `write(v)` on empty state. */
  readonly one: (v: number) => unknown;
}

const KINDS: readonly Kind[] = [
  {
    name: "value",
    open: (b, ttl) => {
      const s = b.getState(new ValueStateDescriptor<number>("s").enableTimeToLive(ttl));
      return { write: (v) => s.update(v), read: () => s.value() };
    },
    one: (v) => v,
  },
  {
    name: "list",
    open: (b, ttl) => {
      const s = b.getListState(new ListStateDescriptor<number>("s").enableTimeToLive(ttl));
      return { write: (v) => s.add(v), read: () => {
        const l = s.get();
        return l.length === 0 ? undefined : l;
      } };
    },
    one: (v) => [v],
  },
  {
    name: "map",
    open: (b, ttl) => {
      const s = b.getMapState(new MapStateDescriptor<string, number>("s").enableTimeToLive(ttl));
      return { write: (v) => s.put("k", v), read: () => s.get("k") };
    },
    one: (v) => v,
  },
  {
    name: "reducing",
    open: (b, ttl) => {
      const s = b.getReducingState(new ReducingStateDescriptor<number>("s", (x, y) => x + y).enableTimeToLive(ttl));
      return { write: (v) => s.add(v), read: () => s.get() };
    },
    one: (v) => v,
  },
  {
    name: "aggregating",
    open: (b, ttl) => {
      const s = b.getAggregatingState(new AggregatingStateDescriptor("s", sumAgg).enableTimeToLive(ttl));
      return { write: (v) => s.add(v), read: () => s.get() };
    },
    one: (v) => v,
  },
];

describe("TTL state kinds × update type × visibility (manual clock)", () => {
  for (const kind of KINDS) {
    for (const updateType of [UpdateType.OnCreateAndWrite, UpdateType.OnReadAndWrite]) {
      for (const visibility of [StateVisibility.NeverReturnExpired, StateVisibility.ReturnExpiredIfNotCleanedUp]) {
        it(`${kind.name}, ${updateType}, ${visibility}`, () => {
          const clock = new ManualClock(1000);
          const b = backendAt(clock);
          const ttl = StateTtlConfig.newBuilder(TTL).disableCleanupInBackground().setUpdateType(updateType).setStateVisibility(visibility).build();
          const s = kind.open(b, ttl);
          b.setCurrentKey("a");
          expect(s.read()).toBeUndefined();
          s.write(7); // stamped 1000
          b.setCurrentKey("b");
          s.write(8); // stamped 1000, never read
          b.setCurrentKey("a");
          clock.set(1099);
          expect(s.read()).toEqual(kind.one(7)); // alive; OnReadAndWrite re-stamps it 1099
          clock.set(1150); // 1000 + 100 <= 1150: expired unless re-stamped
          const returnExpired = visibility === StateVisibility.ReturnExpiredIfNotCleanedUp;
          if (updateType === UpdateType.OnReadAndWrite) {
            expect(s.read()).toEqual(kind.one(7)); // re-stamped 1150
            clock.set(1249);
            expect(s.read()).toEqual(kind.one(7)); // re-stamped 1249
            clock.set(1349); // 1249 + 100 <= 1349: expired
          }
          expect(s.read()).toEqual(returnExpired ? kind.one(7) : undefined);
          expect(s.read()).toBeUndefined(); // the read that found it expired removed it
          // key b was never read: expired either way, its stored value still there until read
          expect(b.entriesOf("s").next().value?.[0]).toBe("b");
          b.setCurrentKey("b");
          expect(s.read()).toEqual(returnExpired ? kind.one(8) : undefined);
          expect(b.numKeys()).toBe(0);
          // writing after expiry starts afresh (reducing/aggregating do not fold the expired value in)
          s.write(3);
          expect(s.read()).toEqual(kind.one(3));
        });
      }
    }
  }

  it("a write re-stamps the value (OnCreateAndWrite)", () => {
    const clock = new ManualClock(0);
    const b = backendAt(clock);
    const ttl = StateTtlConfig.newBuilder(TTL).build();
    const value = b.getState(new ValueStateDescriptor<number>("v").enableTimeToLive(ttl));
    const sum = b.getReducingState(new ReducingStateDescriptor<number>("r", (x, y) => x + y).enableTimeToLive(ttl));
    b.setCurrentKey(1);
    value.update(1);
    sum.add(1);
    clock.set(90);
    value.update(2);
    sum.add(2);
    clock.set(150);
    expect(value.value()).toBe(2);
    expect(sum.get()).toBe(3);
    clock.set(190);
    expect(value.value()).toBeUndefined();
    expect(sum.get()).toBeUndefined();
  });

  it("value state returns its default value once the value expired; update(undefined) clears", () => {
    const clock = new ManualClock(0);
    const b = backendAt(clock);
    const s = b.getState(new ValueStateDescriptor("v", { n: 0 }).enableTimeToLive(StateTtlConfig.newBuilder(TTL).build()));
    b.setCurrentKey("k");
    s.update({ n: 5 });
    clock.set(TTL);
    const d = s.value()!;
    expect(d).toEqual({ n: 0 });
    d.n = 9; // a copy of the default
    expect(s.value()).toEqual({ n: 0 });
    s.update({ n: 1 });
    s.update(undefined as never);
    expect(b.numKeys()).toBe(0);
  });

  it("list elements expire one by one", () => {
    const clock = new ManualClock(0);
    const b = backendAt(clock);
    const s = b.getListState(new ListStateDescriptor<string>("l").enableTimeToLive(StateTtlConfig.newBuilder(TTL).build()));
    b.setCurrentKey("k");
    s.add("a"); // 0
    clock.set(40);
    s.addAll(["b", "c"]); // 40
    clock.set(80);
    s.add("d"); // 80
    clock.set(100);
    expect(s.get()).toEqual(["b", "c", "d"]);
    clock.set(140);
    expect(s.get()).toEqual(["d"]);
    expect([...b.entriesOf("l")].map(([, v]) => (v as unknown[]).length)).toEqual([1]); // the read removed them
    s.update(["x", "y"]); // 140
    clock.set(239);
    expect(s.get()).toEqual(["x", "y"]);
    clock.set(240);
    expect(s.get()).toEqual([]);
    expect(b.numKeys()).toBe(0);
  });

  it("map entries expire one by one; reads of all entries skip and remove expired ones", () => {
    const clock = new ManualClock(0);
    const b = backendAt(clock);
    const ttl = StateTtlConfig.newBuilder(TTL).setUpdateType(UpdateType.OnReadAndWrite).build();
    const s = b.getMapState(new MapStateDescriptor<string, number>("m").enableTimeToLive(ttl));
    b.setCurrentKey("k");
    s.put("a", 1); // 0
    clock.set(50);
    s.putAll(new Map([["b", 2], ["c", 3]])); // 50
    clock.set(90);
    expect(s.get("a")).toBe(1); // re-stamped 90
    clock.set(160); // b and c expired, a alive
    expect(s.contains("b")).toBe(false);
    expect([...s.entries()]).toEqual([["a", 1]]);
    expect([...s.keys()]).toEqual(["a"]);
    expect([...s.values()]).toEqual([1]);
    expect(s.isEmpty()).toBe(false);
    clock.set(260); // a, re-stamped by the reads at 160, expires now
    expect(s.isEmpty()).toBe(true);
    expect(b.numKeys()).toBe(0);
    s.put("z", 26);
    s.remove("z");
    expect(s.isEmpty()).toBe(true);
  });

  it("keeps object semantics: values are copied in and out", () => {
    const clock = new ManualClock(0);
    const b = backendAt(clock);
    const ttl = StateTtlConfig.newBuilder(TTL).setUpdateType(UpdateType.OnReadAndWrite).build();
    const v = b.getState(new ValueStateDescriptor<{ n: number }>("v").enableTimeToLive(ttl));
    const l = b.getListState(new ListStateDescriptor<{ n: number }>("l").enableTimeToLive(ttl));
    const m = b.getMapState(new MapStateDescriptor<string, { n: number }>("m").enableTimeToLive(ttl));
    b.setCurrentKey("k");
    const o = { n: 1 };
    v.update(o);
    l.add(o);
    m.put("x", o);
    o.n = 2;
    const [rv, rl, rm] = [v.value()!, l.get()[0]!, m.get("x")!];
    expect([rv, rl, rm]).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
    rv.n = 3;
    rl.n = 3;
    rm.n = 3;
    for (const [, e] of m.entries()) e.n = 4;
    expect([v.value(), l.get()[0], m.get("x")]).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
  });

  it("the stored form is [value, lastAccess], user code never sees it", () => {
    const clock = new ManualClock(42);
    const b = backendAt(clock);
    const s = b.getState(new ValueStateDescriptor<string>("v").enableTimeToLive(StateTtlConfig.newBuilder(TTL).build()));
    b.setCurrentKey("k");
    s.update("x");
    expect([...b.entriesOf("v")]).toEqual([["k", ["x", 42]]]);
    expect(s.value()).toBe("x");
  });
});
