import type { EventRandom } from "./event-random.ts";

/** ln(10^6): a price is 100 · e^(u · this) = 100 · 10^(6u) for u uniform in [0, 1). */
const LN_1E6 = 6 * Math.LN10;

/** A price in cents, log-uniform from 100 (one dollar) to 100 000 000. */
export function nextPrice(r: EventRandom): number {
  return Math.round(Math.exp(r.nextDouble() * LN_1E6) * 100);
}
