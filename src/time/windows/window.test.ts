import { describe, expect, it } from "vitest";
import { seededRandom, testSeed } from "../../util/seeded-random.ts";
import { floorRemainder, windowStartWithOffset } from "./window.ts";

/** The definition: `%`, moved into `[0, size)` (a zero as +0: `%` leaves -0 for a negative multiple). */
function remainderByModulo(x: number, size: number): number {
  const r = x % size;
  return r < 0 ? r + size : r + 0;
}

describe("window starts", () => {
  it("align windows to the epoch plus the offset for negative times and offsets", () => {
    expect(windowStartWithOffset(1_234, 0, 1_000)).toBe(1_000);
    expect(windowStartWithOffset(-1, 0, 1_000)).toBe(-1_000);
    expect(windowStartWithOffset(1_234, -300, 1_000)).toBe(700);
    expect(windowStartWithOffset(699, -300, 1_000)).toBe(-300);
    expect(windowStartWithOffset(1_000.5, 0, 1_000)).toBe(1_000);
  });

  const seed = testSeed();
  it(`floorRemainder equals % moved into [0, size) for epoch milliseconds, negative and huge times, fractions (seed ${seed})`, () => {
    const random = seededRandom(seed);
    const sizes = [1, 3, 7, 1_000, 2_000, 10_000, 60_000, 86_400_000, 123_457];
    for (let i = 0; i < 200_000; i++) {
      const size = sizes[i % sizes.length]!;
      const kind = i % 5;
      const x =
        kind === 0 ? Math.floor(1.7e12 + random() * 1e11) // epoch milliseconds
        : kind === 1 ? -Math.floor(random() * 2 ** 52) // negative
        : kind === 2 ? Math.floor(2 ** 52 - random() * 1e6) * (random() < 0.5 ? -1 : 1) // near the exact bound
        : kind === 3 ? 2 ** 52 + Math.floor(random() * 2 ** 62) // beyond it
        : (random() - 0.5) * 1e13; // fractions
      expect(floorRemainder(x, size), `x ${x}, size ${size} (WEIR_SEED=${seed})`).toBe(remainderByModulo(x, size));
    }
  });
});
