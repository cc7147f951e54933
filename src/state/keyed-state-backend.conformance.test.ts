/**
 * The keyed state backend contract, run against every backend (heap and
 * disk, see test/support/keyed-backends.ts): every state kind, registration
 * rules, errors, snapshots and their restore. Heap-only behaviour (encoding
 * counters) is tested in heap/heap-keyed-state-backend.test.ts, the disk
 * backend's cache and store in disk/.
 */
import { describe, expect, it } from "vitest";
import { keyedBackendKinds } from "../../test/support/keyed-backends.ts";
import {
  type AggregateFunction,
  AggregatingStateDescriptor,
  ListStateDescriptor,
  MapStateDescriptor,
  ReducingStateDescriptor,
  ValueStateDescriptor,
} from "./descriptors.ts";
import {
  KeyGroupOutOfRangeError,
  NoCurrentKeyError,
  StateDescriptorMismatchError,
  StateKindMismatchError,
  StateRestoreError,
  StateSerializationError,
  UnsupportedKeyError,
} from "./errors.ts";
import { canonicalKey as canonicalKeyOf } from "./canonical-key.ts";
import { keyGroupOf } from "./key-groups.ts";
import type { KeyedStateBackend } from "./keyed-state-backend.ts";
import { packPlainData } from "./serializer.ts";

const sum = new ValueStateDescriptor<number>("sum", 0);
const items = new ListStateDescriptor<string>("items");
const perPage = new MapStateDescriptor<string, number>("per-page");

const avgFn: AggregateFunction<number, { sum: number; n: number }, number> = {
  createAccumulator: () => ({ sum: 0, n: 0 }),
  add: (v, acc) => {
    acc.sum += v; // mutates in place, as Flink allows
    acc.n += 1;
    return acc;
  },
  getResult: (acc) => acc.sum / acc.n,
  merge: (a, b) => ({ sum: a.sum + b.sum, n: a.n + b.n }),
};

/** Snapshots taken and not yet released (both backends count them in `stats()`). */
const liveSnapshots = (b: KeyedStateBackend): number => (b as unknown as { stats(): { liveSnapshots: number } }).stats().liveSnapshots;

describe.each(keyedBackendKinds())("$name keyed state backend", ({ name, make }) => {
  it("tells whether its states are in memory (heap) or may be larger than memory (disk)", () => {
    expect(make().statesInMemory).toBe(name === "heap");
  });

  /** Restores serialized snapshots into a fresh full-range backend of this kind, to read what they hold. */
  const reopen = (bytes: Uint8Array): KeyedStateBackend => {
    const b = make();
    b.restore([bytes]);
    return b;
  };

  describe("state kinds", () => {
    it("ValueState: per-key values, default value, update(undefined) clears", () => {
      const b = make();
      const s = b.getState(sum);
      const plain = b.getState(new ValueStateDescriptor<string>("plain"));
      b.setCurrentKey("a");
      expect(s.value()).toBe(0);
      expect(plain.value()).toBeUndefined();
      s.update(5);
      plain.update("x");
      b.setCurrentKey("b");
      expect(s.value()).toBe(0);
      s.update(7);
      b.setCurrentKey("a");
      expect(s.value()).toBe(5);
      expect(plain.value()).toBe("x");
      s.clear();
      expect(s.value()).toBe(0);
      plain.update(undefined as unknown as string);
      expect(plain.value()).toBeUndefined();
      expect(b.numKeys()).toBe(1); // only "b" has state left
    });

    it("ListState: add, addAll, update, get returns a copy, clear", () => {
      const b = make();
      const l = b.getListState(items);
      b.setCurrentKey(1);
      expect(l.get()).toEqual([]);
      l.add("x");
      l.addAll(["y", "z"]);
      const got = l.get();
      got.push("not stored");
      expect(l.get()).toEqual(["x", "y", "z"]);
      l.update(["only"]);
      expect(l.get()).toEqual(["only"]);
      l.update([]);
      expect(b.numKeys()).toBe(0);
      l.add("again");
      l.clear();
      expect(l.get()).toEqual([]);
    });

    it("MapState: put, putAll, get, remove, contains, iteration, isEmpty, clear", () => {
      const b = make();
      const m = b.getMapState(perPage);
      b.setCurrentKey(["user", 1]);
      expect(m.isEmpty()).toBe(true);
      m.put("/a", 1);
      m.putAll(new Map([["/b", 2]]));
      m.putAll([["/c", 3]]);
      expect(m.get("/b")).toBe(2);
      expect(m.contains("/c")).toBe(true);
      expect([...m.keys()]).toEqual(["/a", "/b", "/c"]);
      expect([...m.values()]).toEqual([1, 2, 3]);
      expect([...m.entries()]).toEqual([["/a", 1], ["/b", 2], ["/c", 3]]);
      m.remove("/a");
      m.remove("/missing");
      expect(m.contains("/a")).toBe(false);
      m.remove("/b");
      m.remove("/c");
      expect(m.isEmpty()).toBe(true);
      expect(b.numKeys()).toBe(0);
      m.put("/z", 9);
      m.clear();
      expect(m.get("/z")).toBeUndefined();
    });

    it("ReducingState and AggregatingState fold what is added", () => {
      const b = make();
      const max = b.getReducingState(new ReducingStateDescriptor<number>("max", Math.max));
      const avg = b.getAggregatingState(new AggregatingStateDescriptor("avg", avgFn));
      b.setCurrentKey(10n);
      expect(max.get()).toBeUndefined();
      expect(avg.get()).toBeUndefined();
      for (const v of [3, 9, 4]) {
        max.add(v);
        avg.add(v);
      }
      expect(max.get()).toBe(9);
      expect(avg.get()).toBeCloseTo(16 / 3);
      max.clear();
      avg.clear();
      expect(max.get()).toBeUndefined();
      expect(avg.get()).toBeUndefined();
    });

    it("returns one handle per name and refuses a name reused with another kind", () => {
      const b = make({ operatorUid: "running-sum" });
      expect(b.getState(sum)).toBe(b.getState(new ValueStateDescriptor<number>("sum", 0)));
      expect(() => b.getListState(new ListStateDescriptor<number>("sum"))).toThrow(StateKindMismatchError);
      expect(() => b.getListState(new ListStateDescriptor<number>("sum"))).toThrow(
        /state 'sum' in operator 'running-sum' is already registered as value state; it cannot also be used as list state/,
      );
    });

    it("refuses a name reused with the same kind but another default or function, accepts an equal one", () => {
      const b = make({ operatorUid: "running-sum" });
      b.getState(sum);
      expect(() => b.getState(new ValueStateDescriptor<number>("sum"))).toThrow(StateDescriptorMismatchError);
      expect(() => b.getState(new ValueStateDescriptor<string>("sum", ""))).toThrow(
        /state 'sum' in operator 'running-sum' was registered with default value 0 and again with default value "": one name is one state/,
      );
      b.getState(new ValueStateDescriptor("tally", { count: 0 }));
      expect(() => b.getState(new ValueStateDescriptor("tally", { count: 0 }))).not.toThrow();
      expect(() => b.getState(new ValueStateDescriptor("tally", { count: 1 }))).toThrow(/default value \{"count":0\} and again with default value \{"count":1\}/);

      const max = () => new ReducingStateDescriptor<number>("max", (x, y) => Math.max(x, y));
      expect(b.getReducingState(max())).toBe(b.getReducingState(max())); // the same lambda written anew
      expect(() => b.getReducingState(new ReducingStateDescriptor<number>("max", Math.min))).toThrow(
        /'max' .* was registered with a reduce function and again with another one/,
      );
      b.getAggregatingState(new AggregatingStateDescriptor("avg", avgFn));
      expect(() => b.getAggregatingState(new AggregatingStateDescriptor("avg", { ...avgFn, getResult: (acc) => acc.sum }))).toThrow(
        StateDescriptorMismatchError,
      );
    });

    it("names the operator and state when no key is set, and rejects bad keys", () => {
      const b = make({ operatorUid: "counter" });
      const s = b.getState(sum);
      expect(() => s.value()).toThrow(NoCurrentKeyError);
      expect(() => s.value()).toThrow(/keyed state 'sum' in operator 'counter'/);
      expect(() => b.setCurrentKey({ id: 1 })).toThrow(UnsupportedKeyError);
      expect(() => b.setCurrentKey({ id: 1 })).toThrow(/in operator 'counter': got a plain object/);
    });

    it("throws when a key's group is outside the backend's range", () => {
      const key = "apple"; // key group 100
      expect(keyGroupOf(key, 128)).toBe(100);
      const low = make({ keyGroupRange: [0, 63] });
      expect(() => low.setCurrentKey(key)).toThrow(KeyGroupOutOfRangeError);
      expect(() => low.setCurrentKey(key)).toThrow(/key 'apple' belongs to key group 100, outside the range \[0, 63\]/);
      const high = make({ keyGroupRange: [64, 127] });
      high.setCurrentKey(key);
      expect(high.getCurrentKey()).toBe(key);
    });
  });

  describe("snapshots", () => {
    it("round-trips every state kind and value type through serialize and restore", async () => {
      const b = make();
      const v = b.getState(new ValueStateDescriptor<unknown>("v"));
      const l = b.getListState(items);
      const m = b.getMapState(perPage);
      const r = b.getReducingState(new ReducingStateDescriptor<number>("max", Math.max));
      const a = b.getAggregatingState(new AggregatingStateDescriptor("avg", avgFn));
      const rich = { m: new Map([[1, new Set(["s"])]]), d: new Date(5), u: [undefined, 1n], bytes: new Uint8Array([7]) };
      for (const key of ["k", 2, 3n, ["x", 1]]) {
        b.setCurrentKey(key);
        v.update(rich);
        l.addAll(["a", "b"]);
        m.put("/p", 1);
        r.add(4);
        a.add(2);
      }
      const snap = b.snapshot(1);
      const bytes = await snap.serialize();
      snap.release();
      const back = reopen(bytes);
      expect(back.numKeys()).toBe(4);
      for (const key of ["k", 2, 3n, ["x", 1]]) {
        back.setCurrentKey(key);
        expect(back.getState(new ValueStateDescriptor<unknown>("v")).value()).toEqual(rich);
        expect(back.getListState(items).get()).toEqual(["a", "b"]);
        expect(back.getMapState(perPage).get("/p")).toBe(1);
        expect(back.getReducingState(new ReducingStateDescriptor<number>("max", Math.max)).get()).toBe(4);
        expect(back.getAggregatingState(new AggregatingStateDescriptor("avg", avgFn)).get()).toBe(2);
      }
      expect(() => back.getMapState(new MapStateDescriptor("items"))).toThrow(StateKindMismatchError);
    });

    it("does not let writes after snapshot() reach the serialized snapshot", async () => {
      const b = make();
      const s = b.getState(sum);
      const l = b.getListState(items);
      const m = b.getMapState(perPage);
      const a = b.getAggregatingState(new AggregatingStateDescriptor("avg", avgFn));
      const r = b.getReducingState(
        new ReducingStateDescriptor<{ total: number }>("total", (x, y) => {
          x.total += y.total; // mutating reduce
          return x;
        }),
      );
      for (const key of ["a", "b", "c"]) {
        b.setCurrentKey(key);
        s.update(1);
        l.add("before");
        m.put("before", 1);
        a.add(10);
        r.add({ total: 1 });
      }
      const snap = b.snapshot(1);
      b.setCurrentKey("a");
      s.update(2);
      l.add("after");
      m.put("after", 2);
      m.put("before", 99);
      a.add(1000);
      r.add({ total: 100 });
      b.setCurrentKey("b");
      l.clear();
      m.clear();
      s.clear();
      b.setCurrentKey("c");
      l.update(["replaced"]);
      m.remove("before");
      b.setCurrentKey("new");
      s.update(5);

      const back = reopen(await snap.serialize());
      snap.release();
      for (const key of ["a", "b", "c"]) {
        back.setCurrentKey(key);
        expect(back.getState(sum).value()).toBe(1);
        expect(back.getListState(items).get()).toEqual(["before"]);
        expect([...back.getMapState(perPage).entries()]).toEqual([["before", 1]]);
        expect(back.getAggregatingState(new AggregatingStateDescriptor("avg", avgFn)).get()).toBe(10);
        expect(back.getReducingState(new ReducingStateDescriptor<{ total: number }>("total", (x) => x)).get()).toEqual({
          total: 1,
        });
      }
      expect(back.numKeys()).toBe(3);

      // the live state has all the later writes
      b.setCurrentKey("a");
      expect(s.value()).toBe(2);
      expect(l.get()).toEqual(["before", "after"]);
      expect(m.get("before")).toBe(99);
      expect(a.get()).toBeCloseTo(1010 / 2);
      expect(r.get()).toEqual({ total: 101 });
      b.setCurrentKey("b");
      expect(l.get()).toEqual([]);
      expect(liveSnapshots(b)).toBe(0);
    });

    it("gives two overlapping snapshots their own views", async () => {
      const b = make();
      const l = b.getListState(items);
      b.setCurrentKey("k");
      l.add("1");
      const first = b.snapshot(1);
      l.add("2");
      const second = b.snapshot(2);
      l.add("3");
      expect(liveSnapshots(b)).toBe(2);
      const secondBytes = await second.serialize();
      second.release();
      expect(liveSnapshots(b)).toBe(1);
      l.add("4");
      const firstBytes = await first.serialize();
      first.release();
      expect(liveSnapshots(b)).toBe(0);
      const read = async (bytes: Uint8Array): Promise<string[]> => {
        const r = reopen(bytes);
        r.setCurrentKey("k");
        return r.getListState(items).get();
      };
      expect(await read(firstBytes)).toEqual(["1"]);
      expect(await read(secondBytes)).toEqual(["1", "2"]);
      expect(l.get()).toEqual(["1", "2", "3", "4"]);
    });

    it("refuses a value that is not plain data at update, naming descriptor, operator, key and path; state is unchanged", () => {
      const b = make({ operatorUid: "running-sum" });
      const s = b.getState(new ValueStateDescriptor<unknown>("sum"));
      b.setCurrentKey("ok");
      s.update({ n: 1 });
      b.setCurrentKey("x");
      s.update({ n: 2 });
      expect(() => s.update(() => 1)).toThrow(StateSerializationError);
      expect(() => s.update({ n: 3, f: () => 1 })).toThrow(
        /value at key 'x' of state 'sum' in operator 'running-sum' contains a function at \.f; state values must be plain data/,
      );
      class Money {
        constructor(readonly cents: number) {}
      }
      expect(() => s.update({ m: new Money(1) })).toThrow(/an instance of class Money at \.m/);
      const cyclic: Record<string, unknown> = { n: 4 };
      cyclic.self = cyclic;
      expect(() => s.update(cyclic)).toThrow(/a circular structure/);
      expect(s.value()).toEqual({ n: 2 });
    });

    it("stops serializing when released (aborted checkpoint)", async () => {
      const b = make();
      const s = b.getState(sum);
      for (let i = 0; i < 20_000; i++) {
        b.setCurrentKey(i);
        s.update(i);
      }
      const snap = b.snapshot(3);
      const p = snap.serialize();
      snap.release();
      await expect(p).rejects.toThrow(/snapshot 3 of operator 'op' was released/);
    });

    it("refuses blobs of another max parallelism or another format", async () => {
      const b = make();
      b.getState(sum);
      const bytes = await b.snapshot(1).serialize();
      const other = make({ maxParallelism: 256 });
      expect(() => other.restore([bytes])).toThrow(StateRestoreError);
      expect(() => other.restore([bytes])).toThrow(/operator 'op'.*maxParallelism 128, this job uses 256/);
      expect(() => make().restore([new Uint8Array([0xc1])])).toThrow(/cannot restore state of operator 'op': blob #0/);
      const future = packPlainData({ format: "weir-heap-keyed", version: 3, maxParallelism: 128, states: [] });
      expect(() => make().restore([future])).toThrow(/blob #0 has format version 3; this version of weir reads versions 1 and 2/);
    });

    it("restores a format-1 blob without number keys, and refuses one with number keys naming the key", () => {
      // Format 1: flat [keyGroup, canonicalKey, value] chunks, key groups hashed from the canonical string.
      const v1 = (entries: [unknown, unknown][]): Uint8Array => {
        const flat = entries.flatMap(([key, value]) => [keyGroupOf(key, 128), canonicalKeyOf(key), value]);
        return packPlainData({
          format: "weir-heap-keyed", version: 1, operatorUid: "op", checkpointId: 1, maxParallelism: 128, keyGroupRange: [0, 127],
          states: [{ name: "sum", kind: "value", chunks: [packPlainData(flat)] }],
        });
      };
      const low = make({ keyGroupRange: [0, 63] });
      const high = make({ keyGroupRange: [64, 127] });
      const keys: unknown[] = ["apple", "banana", "\u0000x", 3n, true, ["a", 1]];
      const blob = v1(keys.map((k, i) => [k, i + 1]));
      low.restore([blob]);
      high.restore([blob]);
      expect(low.numKeys() + high.numKeys()).toBe(keys.length);
      keys.forEach((k, i) => {
        const owner = keyGroupOf(k, 128) < 64 ? low : high;
        owner.setCurrentKey(k);
        expect(owner.getState(sum).value()).toBe(i + 1);
      });
      expect(() => make().restore([v1([["a", 1], [42, 2]])])).toThrow(StateRestoreError);
      expect(() => make().restore([v1([[42, 2]])])).toThrow(/format-1 snapshot with number keys \(state 'sum', key 42\)/);
    });
  });
});
