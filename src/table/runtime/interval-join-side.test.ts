import { describe, expect, it } from "vitest";
import type { KeyedStateBackend } from "../../state/keyed-state-backend.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { keyedBackendKinds } from "../../../test/support/keyed-backends.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { KeyedSideRows } from "./interval-join-keyed-rows.ts";
import { SideRows } from "./interval-join-rows.ts";
import { flatRows, type JoinKey, type JoinSideRows, type LegacyStoredRows, type StoredRows } from "./interval-join-side.ts";

const [heap, disk] = keyedBackendKinds();

/** A row as the naive model holds it. */
interface Model {
  key: string;
  f: SqlValue[];
  t: number;
  m: boolean;
}

/** A side's rows over a real keyed state backend, and what that backend's state `_rows` holds after a flush. */
interface Subject {
  readonly rows: JoinSideRows;
  readonly backend: KeyedStateBackend;
  /** Flushes at `watermark`; returns the keys it wrote. */
  flush(watermark: number): JoinKey[];
  /** Keyed state `_rows` by key, in the flat layout. */
  state(): Map<string, StoredRows>;
}

function subject(impl: "held" | "keyed", backend: KeyedStateBackend, offset: number | undefined, pads: boolean): Subject {
  const state = backend.getEngineState<StoredRows | LegacyStoredRows>("_rows");
  const rows = impl === "held" ? new SideRows(offset, pads) : new KeyedSideRows(state, offset, pads, (key) => backend.setCurrentKey(key));
  return {
    rows,
    backend,
    flush: (watermark) => {
      const written: JoinKey[] = [];
      rows.flush(watermark, (key, stored) => {
        written.push(key);
        backend.setCurrentKey(key);
        state.set(stored);
      });
      return written;
    },
    state: () => new Map([...backend.entriesOf("_rows")].map(([k, v]) => [k as string, flatRows(v as StoredRows | LegacyStoredRows)])),
  };
}

const IMPLS = [
  ["held in memory, written behind (heap backend)", "held", heap!],
  ["in keyed state (heap backend)", "keyed", heap!],
  ["in keyed state (disk backend, evicting)", "keyed", disk!],
] as const;

describe.each(IMPLS)("interval join rows %s against a list of rows filtered on each question", (_name, impl, kind) => {
  for (const [name, offset, pads] of [
    ["expiring, padded", 30, true],
    ["expiring", -5, false],
    ["kept for good", undefined, false],
  ] as const) {
    it(`${name}: matches, padding, expiry and keyed state after flushes equal the model's`, () => {
      const seed = testSeed();
      const random = seededRandom(seed);
      const { rows, backend, flush, state } = subject(impl, kind.make(), offset, pads);
      let model: Model[] = [];
      let watermark = -Infinity;
      /** Rows come from two upstream channels, one 3000 ahead of the other in event time (then dead rows wait behind live ones). */
      let clock = 0;
      const LEAD = 3000;
      const live = (r: Model) => offset === undefined || r.t + offset > watermark;
      const steps = kind.name === "disk" ? 4000 : 12_000;
      for (let step = 0; step < steps; step++) {
        const msg = `WEIR_SEED=${seed} step ${step}`;
        const op = random();
        if (op < 0.45) {
          // rows out of order by up to 50, some late (then the join would not hold them: neither does the model)
          clock++;
          const t = clock + (random() < 0.5 ? LEAD : 0) + randomInt(random, -50, 10);
          if (offset !== undefined && t + offset <= watermark) continue;
          const key = `k${randomInt(random, 0, step < steps / 2 ? 200 : 8)}`;
          const r: Model = { key, f: [key, t, step], t, m: random() < 0.1 };
          model.push(r);
          backend.setCurrentKey(key);
          rows.add(key, r.f, t, r.m);
        } else if (op < 0.85) {
          const key = `k${randomInt(random, 0, 20)}`;
          const lo = clock + (random() < 0.5 ? LEAD : 0) - randomInt(random, 0, 120);
          const hi = lo + randomInt(random, 0, 80);
          const want = model.filter((r) => r.key === key && r.t >= lo && r.t <= hi && live(r));
          backend.setCurrentKey(key);
          const n = rows.matches(key, lo, hi, watermark);
          expect(rows.found.slice(0, n).map((s) => rows.fieldsAt(s)), msg).toEqual(want.map((r) => r.f));
          if (n > 0 && random() < 0.5) {
            rows.setMatched(rows.found[0]!);
            want[0]!.m = true;
          }
        } else if (op < 0.97) {
          watermark = Math.max(watermark, clock - randomInt(random, 0, 60));
          const due = model.filter((r) => !live(r) && !r.m);
          const padded: SqlValue[][] = [];
          let last = -Infinity;
          for (let next = rows.nextCleanup(); next !== undefined && next <= watermark; next = rows.nextCleanup()) {
            expect(next, `${msg}: cleanups in order of their times`).toBeGreaterThanOrEqual(last);
            last = next;
            const before = padded.length;
            rows.cleanUp(watermark, padded);
            for (const f of padded.slice(before)) expect((f[1] as number) + offset!, `${msg}: padded at its cleanup time`).toBe(next);
          }
          expect(new Set(padded), msg).toEqual(new Set(pads ? due.map((r) => r.f) : []));
          for (const r of due) r.m = true; // padded once: never again
          rows.expire(watermark);
          model = model.filter(live);
        } else {
          flush(watermark);
          const want = new Map<string, StoredRows>();
          for (const r of model) want.set(r.key, [...(want.get(r.key) ?? []), r.t, r.m, r.f]);
          expect(state(), `${msg}: keyed state after a flush`).toEqual(want);
        }
      }
    });
  }
});

describe("interval join rows held in memory: a flush writes only the keys whose rows changed", () => {
  it("rows added, matched, expired or died behind live ones: each changes its key alone (the state's changed keys tell)", () => {
    const { rows, backend, flush } = subject("held", heap!.make({ trackChanges: true }), 100, true);
    const add = (key: string, t: number) => rows.add(key, [key, t], t, false);
    for (let i = 0; i < 50; i++) add(`k${i}`, 1000 + i);
    add("late", 500); // waits behind the rows above, which expire later
    expect(flush(-Infinity)).toHaveLength(51);
    /** What the next incremental checkpoint holds: the keys written since the previous one. */
    const checkpoint = () => {
      const n = backend.changedKeyCount();
      backend.snapshot(1, "delta").release();
      return n;
    };
    checkpoint();
    expect(flush(-Infinity), "nothing changed").toEqual([]);
    expect(checkpoint()).toBe(0);
    add("k7", 1500);
    expect(flush(-Infinity), "a row added").toEqual(["k7"]);
    expect(checkpoint()).toBe(1);
    expect(rows.matches("k9", 1000, 1100, -Infinity)).toBe(1);
    rows.setMatched(rows.found[0]!);
    expect(flush(-Infinity), "a match flag set").toEqual(["k9"]);
    expect(checkpoint()).toBe(1);
    const unmatched: SqlValue[][] = [];
    while ((rows.nextCleanup() ?? Infinity) <= 700) rows.cleanUp(700, unmatched);
    rows.expire(700);
    expect(unmatched).toEqual([["late", 500]]);
    expect(flush(700), "a row died behind live ones").toEqual(["late"]);
    expect(checkpoint()).toBe(1);
    while ((rows.nextCleanup() ?? Infinity) <= 1100) rows.cleanUp(1100, unmatched);
    rows.expire(1100);
    expect(flush(1100), "a row dropped at the front").toEqual(["k0"]);
    expect(checkpoint()).toBe(1);
  });
});

describe.each(IMPLS)("interval join rows %s restore both stored layouts", (_name, impl, kind) => {
  it("to the same rows, match flags and padding; a key written again is in the flat layout", () => {
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
      const backend = kind.make();
      const stored = backend.getEngineState<StoredRows | LegacyStoredRows>("_rows");
      for (const [key, value] of entries) {
        backend.setCurrentKey(key);
        stored.set(value);
      }
      const { rows, flush, state } = subject(impl, backend, 30, true);
      rows.restore(entries);
      backend.setCurrentKey("a");
      expect(rows.matches("a", 0, 100, -Infinity)).toBe(2);
      expect(rows.found.map((s) => rows.fieldsAt(s))).toEqual([f1, f2]);
      rows.add("a", ["a", 13, 4], 13, false);
      flush(-Infinity);
      backend.setCurrentKey("a");
      expect(stored.get(), "the key written again").toEqual([10, false, f1, 12, true, f2, 13, false, ["a", 13, 4]]);
      expect(state().get("b")).toEqual([11, false, f3]);
      // the restored match flags: the row at 12 matched, so only 10, 11 and 13 are padded
      const padded: SqlValue[][] = [];
      while (rows.nextCleanup() !== undefined) rows.cleanUp(100, padded);
      expect(padded).toEqual([f1, f3, ["a", 13, 4]]);
      rows.expire(100);
      flush(100);
      expect(state()).toEqual(new Map());
    }
  });
});
