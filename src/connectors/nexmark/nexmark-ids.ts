/**
 * The id arithmetic of the Nexmark model. Event numbers cycle through
 * `person + auction + bid` slots (1 + 3 + 46 by default: a person, 3
 * auctions, 46 bids), so the persons and auctions that exist before event n
 * follow from n alone: ids are dense, and a bid or auction can refer to a
 * recent person or auction without any state (the Nexmark project's
 * generator works the same way). Base-0 ids here; events add
 * `FIRST_PERSON_ID` / `FIRST_AUCTION_ID`.
 */
import type { NexmarkConfig } from "./nexmark-options.ts";
import type { EventRandom } from "./event-random.ts";

export const FIRST_PERSON_ID = 1000;
export const FIRST_AUCTION_ID = 1000;
export const FIRST_CATEGORY_ID = 10;
export const NUM_CATEGORIES = 5;
/** Hot persons and auctions are the first of each block of this many ids. */
export const HOT_ID_BLOCK = 100;
/** Cold references may point this many ids past the latest person or auction (not created yet). */
const ID_LEAD = 10;

/** Which of person (0), auction (1), bid (2) event `n` is. */
export function eventTypeOf(c: NexmarkConfig, n: number): 0 | 1 | 2 {
  const slot = n % c.totalProportion;
  return slot < c.personProportion ? 0 : slot < c.personProportion + c.auctionProportion ? 1 : 2;
}

/** The latest person id at event `n` (the new one if `n` is a person), −1 before the first person. */
export function lastPersonId(c: NexmarkConfig, n: number): number {
  const epoch = Math.floor(n / c.totalProportion);
  const slot = n % c.totalProportion;
  return epoch * c.personProportion + Math.min(slot, c.personProportion - 1);
}

/** The latest auction id at event `n` (the new one if `n` is an auction), −1 before the first auction. */
export function lastAuctionId(c: NexmarkConfig, n: number): number {
  let epoch = Math.floor(n / c.totalProportion);
  let slot = n % c.totalProportion;
  if (slot < c.personProportion) {
    epoch--;
    slot = c.auctionProportion - 1;
  } else if (slot >= c.personProportion + c.auctionProportion) slot = c.auctionProportion - 1;
  else slot -= c.personProportion;
  return epoch * c.auctionProportion + slot;
}

/** A random person among the `numActivePeople` latest ones, or a few ids ahead. */
export function randomPersonId(c: NexmarkConfig, r: EventRandom, n: number): number {
  const people = lastPersonId(c, n) + 1;
  const active = Math.min(people, c.numActivePeople);
  return people - active + r.nextInt(active + ID_LEAD);
}

/** A random auction among the `numInFlightAuctions` latest ones, or a few ids ahead. */
export function randomAuctionId(c: NexmarkConfig, r: EventRandom, n: number): number {
  const last = lastAuctionId(c, n);
  const min = Math.max(last - c.numInFlightAuctions, 0);
  return min + r.nextInt(last - min + 1 + ID_LEAD);
}

/** The first id of the block of `HOT_ID_BLOCK` ids that `id` is in. */
export function hotId(id: number): number {
  return Math.floor(id / HOT_ID_BLOCK) * HOT_ID_BLOCK;
}
