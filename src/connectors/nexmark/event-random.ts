/**
 * The pseudo-random numbers of one Nexmark event: a small generator
 * (Mulberry32) started from a hash of the seed and the event number, so
 * event n's fields depend on (seed, n) only, not on the events before it or
 * on which reader makes it. One instance is reused for every event
 * (`start(n)`), so drawing allocates nothing.
 */

/** murmur3's 32-bit finalizer: a bijective mix of the bits of `h`. */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class EventRandom {
  private state = 0;
  private readonly seedHash: number;

  constructor(seed: number) {
    this.seedHash = mix32((seed ^ 0x9e3779b9) >>> 0);
  }

  /**
   * Starts the numbers of event `n` (a safe integer ≥ 0) on stream `stream`
   * (0 for the fields; others for independent draws such as the time lag).
   */
  start(n: number, stream = 0): void {
    const lo = n >>> 0;
    const hi = (n / 4294967296) >>> 0;
    this.state = mix32(lo ^ mix32(hi ^ mix32(this.seedHash ^ stream)));
  }

  /** A uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const a = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A uniform number in [0, 1). */
  nextDouble(): number {
    return this.nextUint32() / 4294967296;
  }

  /** A uniform integer in [0, bound) for a bound ≥ 1. */
  nextInt(bound: number): number {
    return Math.floor(this.nextDouble() * bound);
  }
}
