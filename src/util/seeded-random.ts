/**
 * A seeded pseudo-random generator (randomized tests, failure points, jitter) that reproduces:
 * the seed comes from `WEIR_SEED` when set, otherwise it is drawn at random,
 * and tests print it in their assertion messages.
 */

/** The seed of this test run: `WEIR_SEED` or a random 32-bit integer. */
export function testSeed(): number {
  const s = process.env.WEIR_SEED;
  if (s !== undefined && s !== "") {
    const n = Number(s);
    if (!Number.isInteger(n)) throw new Error(`WEIR_SEED must be an integer, got '${s}'`);
    return n >>> 0;
  }
  return Math.floor(Math.random() * 2 ** 32);
}

/**
 * Mulberry32: uniform numbers in [0, 1) determined by `seed`.
 *
 * @example
 * ```ts
 * const next = seededRandom(42);
 * next(); // the same value on every run
 * ```
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** An integer in [from, to] (inclusive) drawn from `random`. */
export function randomInt(random: () => number, from: number, to: number): number {
  return from + Math.floor(random() * (to - from + 1));
}
