/**
 * Engine-owned keyed state (`getEngineState`): no copies on access, values
 * mutated in place through `getOwned`, and still a snapshot that equals the
 * state when it was taken.
 */
import { describe, expect, it } from "vitest";
import { keyedBackendKinds } from "../../test/support/keyed-backends.ts";

describe.each(keyedBackendKinds())("engine-owned keyed state ($name)", ({ make }) => {
  const backend = () => make();

  it("hands out the stored value itself, per key", () => {
    const b = backend();
    const s = b.getEngineState<Map<number, number[]>>("_w");
    b.setCurrentKey("a");
    const m = new Map([[1, [1]]]);
    s.set(m);
    expect(s.get()).toBe(m);
    expect(s.getOwned()).toBe(m);
    b.setCurrentKey("b");
    expect(s.get()).toBeUndefined();
    b.setCurrentKey("a");
    s.set(undefined);
    expect(s.get()).toBeUndefined();
  });

  it("a snapshot keeps the values it was taken with, whatever is changed in place after", async () => {
    const b = backend();
    const s = b.getEngineState<Map<number, number[]>>("_w");
    for (let k = 0; k < 100; k++) {
      b.setCurrentKey(k);
      s.set(new Map([[k, [k]]]));
    }
    const snap = b.snapshot(1);
    for (let k = 0; k < 100; k += 2) {
      b.setCurrentKey(k);
      const owned = s.getOwned()!;
      owned.get(k)!.push(-1);
      owned.set(-k, [0]);
      expect(s.getOwned()).toBe(owned);
    }
    const bytes = await snap.serialize();
    snap.release();
    const r = backend();
    r.restore([bytes]);
    const restored = r.getEngineState<Map<number, number[]>>("_w");
    for (let k = 0; k < 100; k++) {
      r.setCurrentKey(k);
      expect(restored.get()).toEqual(new Map([[k, [k]]]));
      b.setCurrentKey(k);
      expect(s.get()).toEqual(k % 2 === 0 ? new Map([[k, [k, -1]], [-k, [0]]]) : new Map([[k, [k]]]));
    }
  });
});
