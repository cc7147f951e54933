import { describe, expect, it } from "vitest";
import { LayeredMap } from "./layered-map.ts";

const sorted = (it: Iterable<[string, unknown]>): [string, unknown][] => [...it].sort(([a], [b]) => a.localeCompare(b));

describe("LayeredMap", () => {
  it("reads, writes and deletes with one layer", () => {
    const m = new LayeredMap<number>();
    m.set("a", 1);
    m.set("b", 2);
    m.delete("a");
    m.set("c", undefined);
    expect(m.get("a")).toBeUndefined();
    expect(sorted(m.entries())).toEqual([["b", 2]]);
    expect(m.layerCount()).toBe(1);
  });

  it("captures without copying and isolates the view from later writes and deletes", () => {
    const m = new LayeredMap<number>();
    for (let i = 0; i < 1000; i++) m.set(`k${i}`, i);
    const view = m.capture();
    expect(m.copiedEntries()).toBe(0);
    expect(m.layerCount()).toBe(2);
    m.set("k1", 100);
    m.delete("k2");
    m.set("new", 7);
    expect(m.get("k1")).toBe(100);
    expect(m.get("k2")).toBeUndefined();
    const seen = new Map(m.viewEntries(view));
    expect(seen.size).toBe(1000);
    expect(seen.get("k1")).toBe(1);
    expect(seen.get("k2")).toBe(2);
    expect(seen.has("new")).toBe(false);
    m.release(view);
    expect(m.layerCount()).toBe(1);
    const live = new Map(m.entries());
    expect(live.size).toBe(1000); // -k2 +new
    expect(live.get("k1")).toBe(100);
    expect(live.has("k2")).toBe(false);
  });

  it("copies a value out of a frozen layer before handing it out for mutation", () => {
    const m = new LayeredMap<number[]>();
    m.set("a", [1]);
    const view = m.capture();
    m.getOwned("a", (l) => l.slice())!.push(2);
    expect(m.get("a")).toEqual([1, 2]);
    expect(new Map(m.viewEntries(view)).get("a")).toEqual([1]);
    expect(m.copiedEntries()).toBe(1);
    m.getOwned("a", (l) => l.slice())!.push(3); // now owned: no second copy
    expect(m.copiedEntries()).toBe(1);
    m.release(view);
  });

  it("keeps overlapping views apart and merges back to one layer whatever the release order", () => {
    for (const order of [
      [0, 1, 2],
      [2, 1, 0],
      [1, 0, 2],
      [1, 2, 0],
    ]) {
      const m = new LayeredMap<number>();
      m.set("x", 0);
      m.set("gone", 0);
      const views = [m.capture()];
      m.set("x", 1);
      m.delete("gone");
      views.push(m.capture());
      m.set("x", 2);
      m.set("gone", 2);
      views.push(m.capture());
      m.set("x", 3);
      expect(m.layerCount()).toBe(4);
      const expected = [
        [["gone", 0], ["x", 0]],
        [["x", 1]],
        [["gone", 2], ["x", 2]],
      ];
      for (const i of order) {
        // every view still outstanding sees exactly its own content, whatever was merged before
        for (let j = 0; j < 3; j++) if (!views[j]!.released) expect(sorted(m.viewEntries(views[j]!))).toEqual(expected[j]);
        m.release(views[i]!);
      }
      expect(m.layerCount()).toBe(1);
      expect(sorted(m.entries())).toEqual([["gone", 2], ["x", 3]]);
    }
  });

  it("keeps a view consistent when layers merge while it is being iterated", () => {
    const m = new LayeredMap<number>();
    for (let i = 0; i < 100; i++) m.set(`k${i}`, i);
    const v1 = m.capture();
    for (let i = 0; i < 50; i++) m.set(`k${i}`, -i);
    m.delete("k99");
    const v2 = m.capture();
    m.set("k0", 1000);
    const it = m.viewEntries(v2);
    const got = new Map<string, number>();
    for (let i = 0; i < 10; i++) {
      const n = it.next();
      got.set(n.value![0], n.value![1]);
    }
    m.release(v1); // merges the layer below v2's top into ... while v2 is mid-iteration
    for (let n = it.next(); n.done !== true; n = it.next()) got.set(n.value[0], n.value[1]);
    expect(got.size).toBe(99);
    for (let i = 0; i < 99; i++) expect(got.get(`k${i}`)).toBe(i < 50 ? -i : i);
    m.release(v2);
    expect(m.layerCount()).toBe(1);
    expect(m.get("k0")).toBe(1000);
  });
});
