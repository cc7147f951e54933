/**
 * Window contents on the real backends (heap, and disk with a small cache):
 * accumulators and reduced values changed in place, records shared by
 * several windows, and snapshots taken between records of one key (the
 * contents keep the current key's table between calls) equal the state at
 * the moment they were taken; a kept table evicted by the disk backend's
 * cache is fetched again.
 */
import { describe, expect, it } from "vitest";
import { keyedBackendKinds, TEST_DISK_CACHE_ENTRIES } from "../../../test/support/keyed-backends.ts";
import type { KeyedStateBackend } from "../../state/keyed-state-backend.ts";
import { StateSerializationError } from "../../state/index.ts";
import { AggregatingWindowContents, ListWindowContents, ReducingWindowContents, type WindowContents } from "./window-contents.ts";

interface Rec {
  id: number;
  seen: number[];
}

/** Each form, built on a backend; `ids` reads what the window function would get as the sorted ids of a window. */
const forms: [string, (b: KeyedStateBackend) => WindowContents<Rec>, (got: unknown[]) => number[]][] = [
  ["records", (b) => new ListWindowContents<Rec>(b, "w"), (got) => (got as Rec[]).map((r) => r.id).sort((a, b) => a - b)],
  [
    "aggregate changing its accumulator",
    (b) =>
      new AggregatingWindowContents<Rec, { ids: number[] }>(b, "w", {
        createAccumulator: () => ({ ids: [] }),
        add: (r, acc) => {
          acc.ids.push(r.id);
          return acc;
        },
        getResult: (acc) => acc,
        merge: (x, y) => ({ ids: [...x.ids, ...y.ids] }),
      }),
    (got) => [...(got[0] as { ids: number[] }).ids].sort((a, b) => a - b),
  ],
  [
    "reduce changing and returning its first argument",
    (b) =>
      new ReducingWindowContents<Rec>(b, "w", (x, y) => {
        x.seen.push(y.id);
        return x;
      }),
    (got) => {
      const r = got[0] as Rec;
      return [r.id, ...r.seen].sort((a, b) => a - b);
    },
  ],
];

const rec = (id: number): Rec => ({ id, seen: [] });

describe.each(keyedBackendKinds())("window contents ($name backend)", ({ make: makeBackend }) => {
  const backend = (): KeyedStateBackend => makeBackend({ operatorUid: "w" });
  for (const [name, make, ids] of forms) {
    it(`${name}: a snapshot between two records of the same key keeps the first`, async () => {
      const b = backend();
      const contents = make(b);
      for (let k = 0; k < 50; k++) {
        b.setCurrentKey(k);
        contents.add(1000, rec(k), 0, true); // the record also goes to window 2000
        contents.add(2000, rec(k), 0, false);
      }
      contents.beforeSnapshot();
      const snap = b.snapshot(1);
      // the same key as the last record (49) first: its table must not be changed in place
      for (let k = 49; k >= 0; k--) {
        b.setCurrentKey(k);
        contents.add(1000, rec(100 + k), 0, false);
        contents.add(2000, rec(200 + k), 0, false);
      }
      const bytes = await snap.serialize();
      snap.release();
      const restored = backend();
      restored.restore([bytes]);
      const again = make(restored);
      for (let k = 0; k < 50; k++) {
        restored.setCurrentKey(k);
        expect(ids(again.get(1000)!)).toEqual([k]);
        expect(ids(again.get(2000)!)).toEqual([k]);
        b.setCurrentKey(k);
        expect(ids(contents.get(1000)!)).toEqual([k, 100 + k]);
        expect(ids(contents.get(2000)!)).toEqual([k, 200 + k]);
        expect(contents.size(2000)).toBe(2);
      }
      expect(again.totalSize()).toBe(100);
    });

    it(`${name}: one record in two windows, what the function gets and changes, and taking a window out`, () => {
      const b = backend();
      const contents = make(b);
      b.setCurrentKey("k");
      const shared = rec(1);
      expect(contents.add(10, shared, 0, true)).toBe(true);
      expect(contents.add(20, shared, 0, false)).toBe(true);
      expect(contents.add(10, rec(2), 0, false)).toBe(false);
      const got = contents.get(20)!;
      expect(ids(got)).toEqual([1]);
      (got[0] as Rec).seen?.push(98); // what the function got is its own too
      expect(ids(contents.get(10)!)).toEqual([1, 2]);
      expect(ids(contents.take(20)!)).toEqual([1]);
      expect(contents.get(20)).toBeUndefined();
      expect(contents.size(10)).toBe(2);
      contents.clear(10);
      expect(contents.totalSize()).toBe(0);
    });

    it(`${name}: windows named by starts in \`at\` (beyond the small integers, negative, near 2^53) are those of add/size/take`, () => {
      const starts = [-1_700_000_000_000, -5, 0, 2 ** 31, 1_700_000_000_000, 2 ** 53 - 2];
      const a = backend();
      const viaAt = make(a);
      const b = backend();
      const byNs = make(b);
      const at = viaAt.at;
      for (let k = 0; k < 3; k++) {
        for (const [i, start] of starts.entries()) {
          const ts = start + 1;
          at[0] = start;
          at[1] = ts;
          a.setCurrentKey(k);
          b.setCurrentKey(k);
          const shared = i % 2 === 0;
          expect(viaAt.addAt(rec(10 * k + i), shared)).toBe(byNs.add(start, rec(10 * k + i), ts, shared));
          expect(viaAt.addAt(rec(100 + i), false)).toBe(byNs.add(start, rec(100 + i), ts, false));
        }
      }
      for (let k = 0; k < 3; k++) {
        a.setCurrentKey(k);
        b.setCurrentKey(k);
        for (const start of starts) {
          at[0] = start;
          expect(viaAt.get(start)).toEqual(byNs.get(start));
          if (viaAt instanceof ListWindowContents) expect(viaAt.elements(start)).toEqual((byNs as ListWindowContents<Rec>).elements(start));
          expect(viaAt.sizeAt()).toBe(2);
          expect(viaAt.sizeAt()).toBe(byNs.size(start));
          expect(ids(viaAt.takeAt()!)).toEqual(ids(byNs.take(start)!));
          expect(viaAt.sizeAt()).toBe(0);
          expect(viaAt.takeAt()).toBeUndefined();
        }
      }
      expect(viaAt.totalSize()).toBe(0);
      expect(byNs.totalSize()).toBe(0);
    });

    it(`${name}: a window's first value that is not plain data is refused, whether or not the record goes to another window too`, () => {
      for (const shared of [false, true]) {
        const b = backend();
        const contents = make(b);
        b.setCurrentKey("k");
        const bad = { ...rec(1), id: (() => 1) as unknown as number }; // a function is no state value
        expect(() => contents.add(10, bad, 0, shared)).toThrow(StateSerializationError);
      }
    });

    it(`${name}: the table kept for a key is fetched again after other keys' state pushed it out of a cache`, () => {
      const b = backend();
      const contents = make(b);
      const other = b.getEngineState<number>("_other");
      b.setCurrentKey("held");
      contents.add(10, rec(1), 0, false);
      for (let k = 0; k < TEST_DISK_CACHE_ENTRIES * 4; k++) {
        b.setCurrentKey(k); // records of other keys that touch only other state
        other.set(k);
      }
      b.setCurrentKey("held");
      contents.add(10, rec(2), 0, false);
      contents.beforeSnapshot(); // forgets the kept table: what follows reads the stored one
      expect(ids(contents.get(10)!)).toEqual([1, 2]);
    });
  }
});
