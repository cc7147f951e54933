/**
 * Event n of a Nexmark stream as a pure function of the options and n: its
 * type from n's slot in the person : auction : bid cycle, its ids from the
 * id arithmetic, its time from n and the event rate (moved back by a
 * pseudo-random lag of at most `maxOutOfOrdernessMs`), its other fields from
 * random numbers seeded by (seed, n). So any reader can make any share of the
 * stream, in any order, and a restored reader makes the same events again.
 */
import { nextAuction } from "./auction-generator.ts";
import { nextBid } from "./bid-generator.ts";
import { EventObject } from "./event-objects.ts";
import { EventRandom } from "./event-random.ts";
import { eventTypeOf } from "./nexmark-ids.ts";
import type { NexmarkEvent } from "./nexmark-event.ts";
import { resolveNexmarkOptions, type NexmarkConfig, type NexmarkOptions } from "./nexmark-options.ts";
import { nextPerson } from "./person-generator.ts";

/** Random stream of the time lag (apart from the fields' stream 0, so a lag does not change the fields). */
const LAG_STREAM = 1;

/**
 * Makes the events of one Nexmark stream.
 *
 * @example
 * ```ts
 * const g = new NexmarkGenerator({ maxOutOfOrdernessMs: 2_000 });
 * const e = g.event(7);          // the same object contents on every call, in every thread
 * g.timestamp(7) === e.bid!.dateTime; // true (event 7 is a bid)
 * ```
 */
export class NexmarkGenerator {
  readonly config: NexmarkConfig;
  private readonly random: EventRandom;
  private readonly lagRandom: EventRandom;
  private readonly inOrderTime = (n: number) => this.inOrderTimestamp(n);

  /** @throws NexmarkOptionError for an option out of range */
  constructor(options: NexmarkOptions = {}) {
    this.config = resolveNexmarkOptions(options);
    this.random = new EventRandom(this.config.seed);
    this.lagRandom = new EventRandom(this.config.seed);
  }

  /** Event `n` (a safe integer ≥ 0): a new object each call (plain data, made as `event-objects.ts` says). */
  event(n: number): NexmarkEvent {
    const c = this.config;
    const dateTime = this.timestamp(n);
    const r = this.random;
    r.start(n);
    switch (eventTypeOf(c, n)) {
      case 0:
        return new EventObject(0, nextPerson(c, r, n, dateTime), null, null);
      case 1:
        return new EventObject(1, null, nextAuction(c, r, n, dateTime, this.inOrderTime), null);
      default:
        return new EventObject(2, null, null, nextBid(c, r, n, dateTime));
    }
  }

  /** Event time of event `n`: its in-order time minus its lag in [0, maxOutOfOrdernessMs]. */
  timestamp(n: number): number {
    const max = this.config.maxOutOfOrdernessMs;
    if (max === 0) return this.inOrderTimestamp(n);
    this.lagRandom.start(n, LAG_STREAM);
    return this.inOrderTimestamp(n) - this.lagRandom.nextInt(max + 1);
  }

  /** `baseTime + n · 1000 / eventsPerSecond`, rounded down: never decreases with n. */
  inOrderTimestamp(n: number): number {
    return this.config.baseTime + Math.floor((n * 1000) / this.config.eventsPerSecond);
  }

  /** Whether event `n` is a person (0), an auction (1) or a bid (2), without making it. */
  typeOf(n: number): 0 | 1 | 2 {
    return eventTypeOf(this.config, n);
  }
}
