import { describe, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { hashCodeOfStateKey as h } from "../key-groups.ts";
import { stateKeyOf, type StateKey } from "../state-key.ts";
import { KeyTable } from "./key-table.ts";

const SEED = testSeed();

const contents = <V>(t: KeyTable<V>): Map<StateKey, V> => {
  const out = new Map<StateKey, V>();
  t.forEach((v, k) => out.set(k, v));
  return out;
};

describe(`KeyTable (seed ${SEED}, WEIR_SEED=${SEED})`, () => {
  it("gets, sets, overwrites and deletes keys of every kind", () => {
    const t = new KeyTable<string>();
    const keys: StateKey[] = [0, 1, -1, 2 ** 31, 0.5, "", "a", "1", 1n, true, false, stateKeyOf(["a", 1]), stateKeyOf("\u0000x")];
    keys.forEach((k, i) => t.set(k, h(k), `v${i}`));
    expect(t.size).toBe(keys.length);
    keys.forEach((k, i) => expect(t.get(k, h(k)), String(k)).toBe(`v${i}`));
    t.set("a", h("a"), "again");
    expect(t.get("a", h("a"))).toBe("again");
    expect(t.delete(1, h(1))).toBe(true);
    expect(t.delete(1, h(1))).toBe(false);
    expect(t.get(1, h(1))).toBeUndefined();
    expect(t.get("1", h("1"))).toBe("v7"); // "1" is not 1
    expect(t.size).toBe(keys.length - 1);
  });

  it("agrees with a Map through random inserts, updates and deletes, across growth and deleted pairs", () => {
    const random = seededRandom(SEED);
    const t = new KeyTable<number>();
    const oracle = new Map<StateKey, number>();
    for (let step = 0; step < 50_000; step++) {
      const n = randomInt(random, 0, 3_000);
      const k: StateKey = n % 3 === 0 ? `k${n}` : n % 3 === 1 ? n : n + 0.25;
      if (random() < 0.3) {
        expect(t.delete(k, h(k)), `step ${step}, seed ${SEED}`).toBe(oracle.delete(k));
      } else {
        t.set(k, h(k), step);
        oracle.set(k, step);
      }
      if (step % 5_000 === 0) expect(contents(t), `step ${step}, seed ${SEED}`).toEqual(oracle);
    }
    expect(t.size).toBe(oracle.size);
    expect(contents(t)).toEqual(oracle);
    for (const [k, v] of oracle) expect(t.get(k, h(k))).toBe(v);
    const [keys, values] = t.columns();
    expect(new Map(keys.map((k, i) => [k, values[i]!]))).toEqual(oracle);
  });

  it("keeps exactly the live keys when keys come and go (deleted pairs reused and purged)", () => {
    const t = new KeyTable<number>();
    for (let i = 0; i < 100_000; i++) {
      t.set(i, h(i), i);
      if (i >= 10) t.delete(i - 10, h(i - 10));
    }
    expect(t.size).toBe(10);
    expect([...contents(t).keys()].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 10 }, (_, i) => 99_990 + i));
    expect(t.columns()[0].length).toBe(10);
  });
});
