/**
 * What a Nexmark stream looks like: its length, the simulated site's event
 * rate, out-of-orderness, proportions and hot keys (the knobs of the Nexmark
 * project's generator configuration, with its defaults), and whether the
 * source emits at that rate or as fast as it can.
 */
import type { Clock } from "../../util/clock.ts";
import { NexmarkOptionError } from "./nexmark-option-error.ts";

/** Options of `NexmarkSource.create`; every one has a default. */
export interface NexmarkOptions {
  /** Events in the stream (event numbers 0 … events − 1); omitted: unbounded (a continuous source). */
  readonly events?: number;
  /**
   * Events per second of the simulated site (default 10 000): event n happens at
   * `baseTime + n · 1000 / eventsPerSecond` ms, before out-of-orderness.
   */
  readonly eventsPerSecond?: number;
  /**
   * Emit each event when it is due on the wall clock, i.e. at `eventsPerSecond` in all
   * (default false: as fast as the job takes them, the unbounded rate).
   */
  readonly rateLimited?: boolean;
  /**
   * With `rateLimited`: wall-clock time (ms since the epoch, per `clock`) at which
   * event 0 is due, so that event n is due at `startTime + n · 1000 / eventsPerSecond`
   * in every reader. Default: each reader starts its schedule with its first poll
   * (and again after a restore, without a burst of overdue events).
   */
  readonly startTime?: number;
  /**
   * Events are out of order by up to this many ms (default 0): each event's time is
   * moved back by a pseudo-random lag in [0, maxOutOfOrdernessMs]. Event time read
   * with `WatermarkStrategy.forBoundedOutOfOrderness(maxOutOfOrdernessMs)` has no late events.
   */
  readonly maxOutOfOrdernessMs?: number;
  /** Event time of event 0, ms since the epoch (default 2026-01-01T00:00:00Z). */
  readonly baseTime?: number;
  /** Seed of the pseudo-random fields (default 0): another seed, another stream. */
  readonly seed?: number;
  /** Persons, auctions and bids per `person + auction + bid` events (default 1 : 3 : 46). */
  readonly proportions?: { readonly person: number; readonly auction: number; readonly bid: number };
  /** 1 − 1/ratio of the bids go to the current hot auction (default 2: half). */
  readonly hotAuctionRatio?: number;
  /** 1 − 1/ratio of the auctions are opened by the current hot seller (default 4: three quarters). */
  readonly hotSellersRatio?: number;
  /** 1 − 1/ratio of the bids are made by the current hot bidder (default 4: three quarters). */
  readonly hotBiddersRatio?: number;
  /** The latest persons that cold sellers and bidders are drawn from (default 1000). */
  readonly numActivePeople?: number;
  /** The latest auctions that cold bids go to (default 100). */
  readonly numInFlightAuctions?: number;
  /** Average size in bytes that the `extra` padding brings persons, auctions and bids to (default 200, 500, 100). */
  readonly avgPersonByteSize?: number;
  readonly avgAuctionByteSize?: number;
  readonly avgBidByteSize?: number;
  /** The clock of the rate limit (default the system clock); a `ManualClock` in tests. */
  readonly clock?: Clock;
}

/** The options with their defaults applied and checked (what the generator and reader read). */
export interface NexmarkConfig {
  /** `Infinity` when unbounded. */
  readonly events: number;
  readonly eventsPerSecond: number;
  readonly rateLimited: boolean;
  readonly startTime: number | undefined;
  readonly maxOutOfOrdernessMs: number;
  readonly baseTime: number;
  readonly seed: number;
  readonly personProportion: number;
  readonly auctionProportion: number;
  readonly bidProportion: number;
  readonly totalProportion: number;
  readonly hotAuctionRatio: number;
  readonly hotSellersRatio: number;
  readonly hotBiddersRatio: number;
  readonly numActivePeople: number;
  readonly numInFlightAuctions: number;
  readonly avgPersonByteSize: number;
  readonly avgAuctionByteSize: number;
  readonly avgBidByteSize: number;
  readonly clock: Clock | undefined;
}

/** 2026-01-01T00:00:00Z. */
export const NEXMARK_DEFAULT_BASE_TIME = Date.UTC(2026, 0, 1);

/**
 * Applies the defaults and checks the options.
 *
 * @throws NexmarkOptionError naming the first option out of range
 * @example
 * ```ts
 * resolveNexmarkOptions({ events: 1_000 }).bidProportion; // 46
 * ```
 */
export function resolveNexmarkOptions(o: NexmarkOptions = {}): NexmarkConfig {
  const events = o.events ?? Number.POSITIVE_INFINITY;
  if (events !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(events) && events >= 0)) throw new NexmarkOptionError("events", events, "a safe integer ≥ 0");
  const eventsPerSecond = positive("eventsPerSecond", o.eventsPerSecond ?? 10_000);
  const maxOutOfOrdernessMs = o.maxOutOfOrdernessMs ?? 0;
  if (!(Number.isSafeInteger(maxOutOfOrdernessMs) && maxOutOfOrdernessMs >= 0))
    throw new NexmarkOptionError("maxOutOfOrdernessMs", maxOutOfOrdernessMs, "an integer ≥ 0");
  const baseTime = o.baseTime ?? NEXMARK_DEFAULT_BASE_TIME;
  if (!Number.isSafeInteger(baseTime)) throw new NexmarkOptionError("baseTime", baseTime, "an integer (ms since the epoch)");
  const seed = o.seed ?? 0;
  if (!Number.isInteger(seed)) throw new NexmarkOptionError("seed", seed, "an integer");
  if (o.startTime !== undefined && !Number.isFinite(o.startTime)) throw new NexmarkOptionError("startTime", o.startTime, "a finite number of ms");
  const p = o.proportions ?? { person: 1, auction: 3, bid: 46 };
  return {
    events,
    eventsPerSecond,
    rateLimited: o.rateLimited ?? false,
    startTime: o.startTime,
    maxOutOfOrdernessMs,
    baseTime,
    seed,
    personProportion: count("proportions.person", p.person),
    auctionProportion: count("proportions.auction", p.auction),
    bidProportion: count("proportions.bid", p.bid),
    totalProportion: p.person + p.auction + p.bid,
    hotAuctionRatio: count("hotAuctionRatio", o.hotAuctionRatio ?? 2),
    hotSellersRatio: count("hotSellersRatio", o.hotSellersRatio ?? 4),
    hotBiddersRatio: count("hotBiddersRatio", o.hotBiddersRatio ?? 4),
    numActivePeople: count("numActivePeople", o.numActivePeople ?? 1000),
    numInFlightAuctions: count("numInFlightAuctions", o.numInFlightAuctions ?? 100),
    avgPersonByteSize: count("avgPersonByteSize", o.avgPersonByteSize ?? 200),
    avgAuctionByteSize: count("avgAuctionByteSize", o.avgAuctionByteSize ?? 500),
    avgBidByteSize: count("avgBidByteSize", o.avgBidByteSize ?? 100),
    clock: o.clock,
  };
}

/** An integer ≥ 1. */
function count(option: string, v: number): number {
  if (!(Number.isSafeInteger(v) && v >= 1)) throw new NexmarkOptionError(option, v, "an integer ≥ 1");
  return v;
}

function positive(option: string, v: number): number {
  if (!(Number.isFinite(v) && v > 0)) throw new NexmarkOptionError(option, v, "a number > 0");
  return v;
}
