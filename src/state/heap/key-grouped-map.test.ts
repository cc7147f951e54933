import { describe, expect, it } from "vitest";
import { hashCodeOfStateKey as h } from "../key-groups.ts";
import type { StateKey } from "../state-key.ts";
import { KeyGroupedMap, type KeyGroupedView } from "./key-grouped-map.ts";
import type { KeyGroupEntries } from "../snapshot/key-group-chunk.ts";

/** A readable "encoding" for the tests: the group's entries as JSON, sorted by key. */
const json = (table: KeyGroupEntries): Uint8Array => {
  const [keys, values] = table.columns();
  return new TextEncoder().encode(JSON.stringify(keys.map((k, i) => [k, values[i]]).sort(([a], [b]) => String(a).localeCompare(String(b)))));
};
const entriesOf = <V>(m: KeyGroupedMap<V>): [number, StateKey, V][] => {
  const out: [number, StateKey, V][] = [];
  m.forEach((v, k, g) => out.push([g, k, v]));
  return out.sort(([g1, a], [g2, b]) => g1 - g2 || String(a).localeCompare(String(b)));
};
const decoded = (view: KeyGroupedView, g: number): unknown => {
  const chunk = view.chunks[g];
  return chunk ? JSON.parse(new TextDecoder().decode(chunk)) : chunk;
};
/** Encodes what the serializer would, and returns every group's content as the view saw it. */
function serialized(m: KeyGroupedMap<unknown>, view: KeyGroupedView): unknown[] {
  const out: unknown[] = [];
  for (let g = 0; g < m.groups; g++) {
    m.encodePending(view, g);
    out.push(decoded(view, g));
  }
  return out;
}

describe("KeyGroupedMap", () => {
  it("reads, writes and deletes per key group", () => {
    const m = new KeyGroupedMap<number>(10, 4, json);
    m.set(0, "a", h("a"), 1);
    m.set(3, "a", h("a"), 2);
    m.set(3, "b", h("b"), 3);
    m.delete(3, "b", h("b"));
    m.set(0, "c", h("c"), undefined);
    expect(m.get(0, "a", h("a"))).toBe(1);
    expect(m.get(3, "a", h("a"))).toBe(2);
    expect(m.get(1, "a", h("a"))).toBeUndefined();
    expect(entriesOf(m)).toEqual([[0, "a", 1], [3, "a", 2]]);
  });

  it("captures without encoding; a write encodes its group for the view first, untouched groups wait for the serializer", () => {
    const m = new KeyGroupedMap<number>(0, 3, json);
    m.set(0, "x", h("x"), 1);
    m.set(1, "y", h("y"), 2);
    const view = m.capture();
    expect(view.chunks).toEqual([undefined, undefined, null]); // group 2 was empty
    m.set(0, "x", h("x"), 10);
    m.set(0, "z", h("z"), 11);
    m.set(2, "new", h("new"), 12); // an empty group has nothing to keep
    expect(m.stats()).toMatchObject({ liveViews: 1, encodedOnWrite: 1, encodedBySerializer: 0 });
    expect(decoded(view, 0)).toEqual([["x", 1]]);
    expect(view.chunks[1]).toBeUndefined();
    expect(serialized(m, view)).toEqual([[["x", 1]], [["y", 2]], null]);
    expect(m.stats()).toMatchObject({ encodedOnWrite: 1, encodedBySerializer: 1 });
    m.release(view);
    m.set(1, "y", h("y"), 20); // no view left: nothing encoded
    expect(m.stats()).toMatchObject({ liveViews: 0, encodedOnWrite: 1 });
  });

  it("lets values be mutated in place after getForUpdate without reaching a view", () => {
    const m = new KeyGroupedMap<number[]>(0, 1, json);
    m.set(0, "a", h("a"), [1]);
    const view = m.capture();
    m.getForUpdate(0, "a", h("a"))!.push(2);
    m.getForUpdate(0, "a", h("a"))!.push(3); // encoded once only
    expect(m.get(0, "a", h("a"))).toEqual([1, 2, 3]);
    expect(serialized(m, view)).toEqual([[["a", [1]]]]);
    expect(m.stats().encodedOnWrite).toBe(1);
  });

  it("does not encode for a delete of an absent key", () => {
    const m = new KeyGroupedMap<number>(0, 1, json);
    m.set(0, "a", h("a"), 1);
    m.capture();
    m.delete(0, "missing", h("missing"));
    expect(m.stats().encodedOnWrite).toBe(0);
    m.delete(0, "a", h("a"));
    expect(m.stats().encodedOnWrite).toBe(1);
  });

  it("keeps overlapping views apart, whatever the release order, and encodes a shared version once", () => {
    for (const order of [
      [0, 1, 2],
      [2, 1, 0],
      [1, 0, 2],
    ]) {
      const m = new KeyGroupedMap<number>(0, 2, json);
      m.set(0, "a", h("a"), 0);
      m.set(1, "b", h("b"), 0);
      const views = [m.capture()];
      m.set(0, "a", h("a"), 1);
      views.push(m.capture(), m.capture()); // two views of one version: one encoding
      m.set(0, "a", h("a"), 2);
      expect(m.stats()).toMatchObject({ encodedOnWrite: 2, reused: 1 });
      for (const i of order) {
        expect(serialized(m, views[i]!)[0], `view ${i}, order ${order.join(",")}`).toEqual([["a", i === 0 ? 0 : 1]]);
        m.release(views[i]!);
      }
      expect(m.stats().liveViews).toBe(0);
      expect(m.get(0, "a", h("a"))).toBe(2);
    }
  });

  it("reuses the encoding of a group unchanged since an earlier view", () => {
    const m = new KeyGroupedMap<number>(0, 2, json);
    m.set(0, "a", h("a"), 1);
    m.set(1, "b", h("b"), 1);
    const first = m.capture();
    serialized(m, first);
    m.release(first);
    m.set(1, "b", h("b"), 2);
    const second = m.capture();
    expect(serialized(m, second)).toEqual([[["a", 1]], [["b", 2]]]);
    expect(second.chunks[0]).toBe(first.chunks[0]);
    expect(m.stats()).toMatchObject({ encodedBySerializer: 3, reused: 1 });
  });

  it("refuses to serialize a released view, and clearAll drops content", () => {
    const m = new KeyGroupedMap<number>(0, 1, json);
    m.set(0, "a", h("a"), 1);
    const view = m.capture();
    m.clearAll();
    expect(() => m.encodePending(view, 0)).toThrow(/released/);
    expect(entriesOf(m)).toEqual([]);
    m.set(0, "b", h("b"), 2);
    expect(entriesOf(m)).toEqual([[0, "b", 2]]);
  });
});
