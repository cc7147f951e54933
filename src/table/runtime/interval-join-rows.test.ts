import { describe, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { SideRows, type LegacyStoredRows, type StoredRows } from "./interval-join-rows.ts";

/** A row as the naive model holds it. */
interface Model {
  key: string;
  f: SqlValue[];
  t: number;
  m: boolean;
}

/** The stored rows of `flush`, by key, as `[t, m, f]` triples. */
function flushed(rows: SideRows, watermark: number): Map<string, StoredRows | undefined> {
  const out = new Map<string, StoredRows | undefined>();
  rows.flush(watermark, (key, stored) => out.set(key, stored));
  return out;
}

describe("SideRows against a list of rows filtered on each question", () => {
  for (const [name, offset, pads] of [
    ["expiring, padded", 30, true],
    ["expiring", -5, false],
    ["kept for good", undefined, false],
  ] as const) {
    it(`${name}: matches, padding, expiry (compacted) and flushes equal the model's, scanned and indexed`, () => {
      const seed = testSeed();
      const random = seededRandom(seed);
      const rows = new SideRows(offset, pads);
      let model: Model[] = [];
      /** Keys keyed state holds (what the flushes wrote). */
      const state = new Map<string, StoredRows>();
      let watermark = -Infinity;
      /** Rows come from two upstream channels, one 3000 ahead of the other in event time (then dead rows wait behind live ones). */
      let clock = 0;
      const LEAD = 3000;
      const live = (r: Model) => offset === undefined || r.t + offset > watermark;
      for (let step = 0; step < 12_000; step++) {
        const msg = `WEIR_SEED=${seed} step ${step}`;
        const op = random();
        if (op < 0.45) {
          // rows out of order by up to 50, some late (then the join would not hold them: neither does the model)
          clock++;
          const t = clock + (random() < 0.5 ? LEAD : 0) + randomInt(random, -50, 10);
          if (offset !== undefined && t + offset <= watermark) continue;
          const key = `k${randomInt(random, 0, step < 6000 ? 200 : 8)}`;
          const r: Model = { key, f: [key, t, step], t, m: random() < 0.1 };
          model.push(r);
          rows.add(key, r.f, t, r.m);
        } else if (op < 0.85) {
          const key = `k${randomInt(random, 0, 20)}`;
          const lo = clock + (random() < 0.5 ? LEAD : 0) - randomInt(random, 0, 120);
          const hi = lo + randomInt(random, 0, 80);
          const want = model.filter((r) => r.key === key && r.t >= lo && r.t <= hi && live(r));
          const n = rows.matches(key, lo, hi, watermark);
          expect(rows.found.slice(0, n).map((s) => rows.fieldsAt(s)), msg).toEqual(want.map((r) => r.f));
          if (n > 0 && random() < 0.5) {
            rows.setMatched(rows.found[0]!);
            want[0]!.m = true;
          }
        } else if (op < 0.97) {
          watermark = Math.max(watermark, clock - randomInt(random, 0, 60));
          if (pads) {
            const due = model.filter((r) => !live(r) && !r.m).sort((a, b) => a.t - b.t);
            const padded: SqlValue[][] = [];
            let last = -Infinity;
            for (let next = rows.nextPadding(); next !== undefined && next <= watermark; next = rows.nextPadding()) {
              expect(next, `${msg}: padding in order of cleanup times`).toBeGreaterThanOrEqual(last);
              last = next;
              const f = rows.popPadding();
              if (f !== undefined) padded.push(f);
            }
            expect(new Set(padded), msg).toEqual(new Set(due.map((r) => r.f)));
            for (const r of due) r.m = true; // padded once: never again
          }
          rows.expire(watermark);
          model = model.filter(live);
        } else {
          for (const [key, stored] of flushed(rows, watermark)) {
            if (stored === undefined) state.delete(key);
            else state.set(key, stored);
          }
          const want = new Map<string, StoredRows>();
          for (const r of model) want.set(r.key, [...(want.get(r.key) ?? []), r.t, r.m, r.f]);
          expect(state, `${msg}: keyed state after a flush`).toEqual(want);
        }
      }
    });
  }

  it("restores both layouts to the same rows, and its first flush writes the flat one", () => {
    const f1 = ["a", 10, 1];
    const f2 = ["a", 12, 2];
    const f3 = ["b", 11, 3];
    const legacy: [string, LegacyStoredRows][] = [
      ["a", { rows: [{ f: f1, t: 10, m: false }, { f: f2, t: 12, m: true }], next: 40 }],
      ["b", { rows: [{ f: f3, t: 11, m: false }], next: 41 }],
    ];
    const flat: [string, StoredRows][] = [
      ["a", [10, false, f1, 12, true, f2]],
      ["b", [11, false, f3]],
    ];
    for (const entries of [legacy, flat]) {
      const rows = new SideRows(30, true);
      rows.restore(entries);
      expect(rows.matches("a", 0, 100, -Infinity)).toBe(2);
      expect(rows.found.map((s) => rows.fieldsAt(s))).toEqual([f1, f2]);
      expect(flushed(rows, -Infinity)).toEqual(new Map(flat));
      // the restored match flags: the row at 12 matched, so only 10 and 11 are padded
      const padded: SqlValue[][] = [];
      while (rows.nextPadding() !== undefined) {
        const f = rows.popPadding();
        if (f !== undefined) padded.push(f);
      }
      expect(padded).toEqual([f1, f3]);
      rows.expire(100);
      expect(flushed(rows, 100)).toEqual(new Map([["a", undefined], ["b", undefined]]));
    }
  });
});
