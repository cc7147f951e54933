/**
 * Snapshot isolation of object values: a snapshot holds the state at the
 * moment it was taken, whatever user code does with objects afterwards
 * (mutating them before or after `update`, keeping references across records,
 * returning the accumulator from a reducer), for every state kind and for
 * snapshots larger than one serialization slice — on every backend (the
 * disk backend's small test cache evicts while the snapshot serializes).
 */
import { describe, expect, it } from "vitest";
import {
  type AggregateFunction,
  AggregatingStateDescriptor,
  ListStateDescriptor,
  MapStateDescriptor,
  ReducingStateDescriptor,
  ValueStateDescriptor,
} from "./descriptors.ts";
import { keyedBackendKinds } from "../../test/support/keyed-backends.ts";
import type { KeyedStateBackend } from "./keyed-state-backend.ts";
import { SLICE_ENTRIES } from "./snapshot/keyed-snapshot-format.ts";

interface Acc {
  n: number;
  items: number[];
}

/** Keys beyond one serialization slice, so that part of the snapshot is encoded after records flow again. */
const KEYS = SLICE_ENTRIES * 2 + 17;

describe.each(keyedBackendKinds())("snapshot isolation of object values ($name)", ({ make }) => {
  const backend = (): KeyedStateBackend => make();

  /** Reads every key's value of one state from a serialized snapshot. */
  const readBack = <T>(bytes: Uint8Array, read: (b: KeyedStateBackend) => T): T[] => {
    const b = backend();
    b.restore([bytes]);
    const out: T[] = [];
    for (let k = 0; k < KEYS; k++) {
      b.setCurrentKey(k);
      out.push(read(b));
    }
    return out;
  };

  /** Takes a snapshot after `before`, runs `after` (which mutates objects), then serializes. */
  const snapshotBetween = async (b: KeyedStateBackend, after: () => void): Promise<Uint8Array> => {
    const snap = b.snapshot(1);
    after();
    const bytes = await snap.serialize();
    snap.release();
    return bytes;
  };

  it("ValueState: mutate before update, after update, and through kept references", async () => {
    const b = backend();
    const d = new ValueStateDescriptor<Acc>("v");
    const s = b.getState(d);
    const kept: Acc[] = [];
    for (let k = 0; k < KEYS; k++) {
      b.setCurrentKey(k);
      const v: Acc = { n: k, items: [k] };
      s.update(v);
      v.n = -1; // mutate after update
      kept.push(v);
    }
    const bytes = await snapshotBetween(b, () => {
      for (let k = 0; k < KEYS; k++) {
        b.setCurrentKey(k);
        const v = s.value()!;
        v.n += 1000; // mutate before update
        v.items.push(99);
        kept[k]!.items.push(-7); // a reference kept across records
        s.update(v);
        v.items.length = 0; // and after
      }
    });
    const snap = readBack(bytes, (r) => r.getState(d).value());
    expect(snap).toEqual(Array.from({ length: KEYS }, (_, k) => ({ n: k, items: [k] })));
    b.setCurrentKey(5);
    expect(s.value()).toEqual({ n: 1005, items: [5, 99] });
  });

  it("ValueState: the default object is not shared by keys", () => {
    const b = backend();
    const s = b.getState(new ValueStateDescriptor<Acc>("v", { n: 0, items: [] }));
    b.setCurrentKey("a");
    s.value()!.items.push(1);
    const a = s.value()!;
    a.n = 5;
    s.update(a);
    b.setCurrentKey("b");
    expect(s.value()).toEqual({ n: 0, items: [] });
  });

  it("ListState: elements added and read are copies", async () => {
    const b = backend();
    const d = new ListStateDescriptor<Acc>("l");
    const s = b.getListState(d);
    const kept: Acc[] = [];
    for (let k = 0; k < KEYS; k++) {
      b.setCurrentKey(k);
      const e = { n: k, items: [] };
      s.add(e);
      kept.push(e);
    }
    const bytes = await snapshotBetween(b, () => {
      for (let k = 0; k < KEYS; k++) {
        b.setCurrentKey(k);
        for (const e of s.get()) e.n = -1;
        kept[k]!.n = -2;
        s.add({ n: 1, items: [] });
      }
    });
    expect(readBack(bytes, (r) => r.getListState(d).get())).toEqual(Array.from({ length: KEYS }, (_, k) => [{ n: k, items: [] }]));
    b.setCurrentKey(3);
    expect(s.get()).toEqual([{ n: 3, items: [] }, { n: 1, items: [] }]);
  });

  it("MapState: values put and read (get, entries, values) are copies", async () => {
    const b = backend();
    const d = new MapStateDescriptor<string, Acc>("m");
    const s = b.getMapState(d);
    for (let k = 0; k < KEYS; k++) {
      b.setCurrentKey(k);
      const v = { n: k, items: [] as number[] };
      s.put("a", v);
      v.n = -1;
    }
    const bytes = await snapshotBetween(b, () => {
      for (let k = 0; k < KEYS; k++) {
        b.setCurrentKey(k);
        s.get("a")!.items.push(1);
        for (const [, v] of s.entries()) v.n = -2;
        for (const v of s.values()) v.items.push(2);
      }
    });
    expect(readBack(bytes, (r) => r.getMapState(d).get("a"))).toEqual(Array.from({ length: KEYS }, (_, k) => ({ n: k, items: [] })));
    b.setCurrentKey(7);
    expect(s.get("a")).toEqual({ n: 7, items: [] });
  });

  it("ReducingState: a reducer that mutates and returns its accumulator", async () => {
    const b = backend();
    const d = new ReducingStateDescriptor<Acc>("r", (a, x) => {
      a.n += x.n;
      a.items.push(...x.items);
      return a;
    });
    const s = b.getReducingState(d);
    for (let k = 0; k < KEYS; k++) {
      b.setCurrentKey(k);
      s.add({ n: k, items: [k] });
    }
    const bytes = await snapshotBetween(b, () => {
      for (let k = 0; k < KEYS; k++) {
        b.setCurrentKey(k);
        s.add({ n: 1, items: [0] });
        s.get()!.n = -5;
      }
    });
    expect(readBack(bytes, (r) => r.getReducingState(d).get())).toEqual(Array.from({ length: KEYS }, (_, k) => ({ n: k, items: [k] })));
    b.setCurrentKey(2);
    expect(s.get()).toEqual({ n: 3, items: [2, 0] });
  });

  it("AggregatingState: add mutates the accumulator; getResult may return it", async () => {
    const agg: AggregateFunction<number, Acc, Acc> = {
      createAccumulator: () => ({ n: 0, items: [] }),
      add: (v, acc) => {
        acc.n += v;
        acc.items.push(v);
        return acc;
      },
      getResult: (acc) => acc,
      merge: (a, x) => ({ n: a.n + x.n, items: [...a.items, ...x.items] }),
    };
    const b = backend();
    const d = new AggregatingStateDescriptor("a", agg);
    const s = b.getAggregatingState(d);
    for (let k = 0; k < KEYS; k++) {
      b.setCurrentKey(k);
      s.add(k);
    }
    const bytes = await snapshotBetween(b, () => {
      for (let k = 0; k < KEYS; k++) {
        b.setCurrentKey(k);
        s.add(1);
        s.get()!.items.push(-1);
      }
    });
    expect(readBack(bytes, (r) => r.getAggregatingState(d).get())).toEqual(Array.from({ length: KEYS }, (_, k) => ({ n: k, items: [k] })));
    b.setCurrentKey(4);
    expect(s.get()).toEqual({ n: 5, items: [4, 1] });
  });
});
