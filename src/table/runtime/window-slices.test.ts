import { describe, expect, it } from "vitest";
import { CurrentSlice, windowSlicing } from "./window-slices.ts";

/** `t` rounded down to `offset + k × step` with `%`, as the slicing is defined. */
function floorTo(t: number, step: number, offset: number): number {
  return t - ((((t - offset) % step) + step) % step);
}

describe("windowSlicing", () => {
  it("cuts time into slices as the % arithmetic does, for any time, step and offset", () => {
    const specs = [
      { kind: "tumble", timeField: 0, size: 10_000, offset: 0 },
      { kind: "tumble", timeField: 0, size: 7, offset: -3 },
      { kind: "hop", timeField: 0, size: 10_000, slide: 2_000, offset: 0 },
      { kind: "hop", timeField: 0, size: 9_000, slide: 6_000, offset: 1_000 },
      { kind: "cumulate", timeField: 0, maxSize: 86_400_000, step: 3_600_000, offset: -3_600_000 },
    ] as const;
    const times = [0, -1, 1, 1_999, 2_000, -2_000, -2_001, 1_767_225_599_999, 1_767_225_600_000, 2 ** 52 - 1, -(2 ** 52), 0.5, -0.25];
    let seed = 7;
    for (let i = 0; i < 2_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      times.push((seed - 2 ** 30) * 1_000_003 + (i % 3));
    }
    for (const spec of specs) {
      const s = windowSlicing(spec);
      for (const t of times) {
        const e = s.sliceEnd(t);
        expect(e).toBe(floorTo(t, s.sliceSize, spec.offset) + s.sliceSize);
        expect(t >= e - s.sliceSize && t < e).toBe(true);
      }
    }
    const hop = windowSlicing(specs[3]);
    // slices of 3 s (gcd of 9 s and 6 s) from 1 s; windows [1 s, 10 s), [7 s, 16 s) …: the slice [4 s, 7 s) is in the first only
    expect([hop.sliceEnd(4_000), hop.firstWindowEnd(7_000), hop.lastWindowEnd(7_000)]).toEqual([7_000, 10_000, 10_000]);
    expect([hop.firstWindowEnd(-(2 ** 40) + 1_000), hop.lastWindowEnd(-(2 ** 40) + 1_000)]).toEqual([
      floorTo(-(2 ** 40) + 1_000 + 5_999, 6_000, 10_000),
      floorTo(-(2 ** 40) + 1_000 - 3_000 + 9_000, 6_000, 10_000),
    ]);
  });
});

describe("CurrentSlice", () => {
  it("moves only when a time leaves the slice of the time before, and then gives that slice's window ends", () => {
    const slicing = windowSlicing({ kind: "hop", timeField: 0, size: 10_000, slide: 4_000, offset: 0 });
    const at = new CurrentSlice(slicing);
    for (const [t, moved] of [[7_000, true], [7_999, false], [5_999, true], [-1, true], [-1_999, false], [8_000, true]] as const) {
      expect(at.moveTo(t), `moveTo(${t})`).toBe(moved);
      expect([at.end, at.firstEnd, at.lastEnd]).toEqual([slicing.sliceEnd(t), slicing.firstWindowEnd(slicing.sliceEnd(t)), slicing.lastWindowEnd(slicing.sliceEnd(t))]);
    }
  });
});

describe("CurrentSlice: back and forth between slices", () => {
  it("gives each time's slice and window ends whichever slices came before (remembered or not)", () => {
    const specs = [
      { kind: "hop", timeField: 0, size: 10_000, slide: 2_000, offset: 0 },
      { kind: "tumble", timeField: 0, size: 1, offset: 0 },
      { kind: "cumulate", timeField: 0, maxSize: 9_000, step: 3_000, offset: 1_000 },
    ] as const;
    let seed = 11;
    for (const spec of specs) {
      const slicing = windowSlicing(spec);
      const at = new CurrentSlice(slicing);
      let before = Number.NaN;
      for (let i = 0; i < 3_000; i++) {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        // times out of order over up to 8 slices: slices are left, come back remembered, or are forgotten
        const t = 1_767_225_600_000 + i * slicing.sliceSize * 0.1 - (seed % (8 * slicing.sliceSize));
        const end = slicing.sliceEnd(t);
        expect(at.moveTo(t), `${spec.kind} moveTo(${t})`).toBe(end !== before);
        expect([at.end, at.firstEnd, at.lastEnd]).toEqual([end, slicing.firstWindowEnd(end), slicing.lastWindowEnd(end)]);
        before = end;
      }
    }
  });
});
