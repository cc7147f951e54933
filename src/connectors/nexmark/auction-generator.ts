/** Makes the auction of an auction event. */
import { AuctionObject } from "./event-objects.ts";
import type { EventRandom } from "./event-random.ts";
import { FIRST_AUCTION_ID, FIRST_CATEGORY_ID, FIRST_PERSON_ID, NUM_CATEGORIES, hotId, lastAuctionId, lastPersonId, randomPersonId } from "./nexmark-ids.ts";
import type { Auction } from "./nexmark-event.ts";
import type { NexmarkConfig } from "./nexmark-options.ts";
import { nextExtra, nextString } from "./nexmark-strings.ts";
import { nextPrice } from "./price.ts";

/**
 * The auction opened by event `n` (an auction event) at `dateTime`; `r` is started for `n`.
 * `eventTime(m)` is the (in-order) time of event m, for the auction's length: on average
 * the time until `numInFlightAuctions` more auctions are opened, so that about that many are open at once.
 */
export function nextAuction(c: NexmarkConfig, r: EventRandom, n: number, dateTime: number, eventTime: (m: number) => number): Auction {
  const seller = r.nextInt(c.hotSellersRatio) > 0 ? hotId(lastPersonId(c, n)) : randomPersonId(c, r, n);
  const category = FIRST_CATEGORY_ID + r.nextInt(NUM_CATEGORIES);
  const initialBid = nextPrice(r);
  const eventsForInFlight = Math.floor((c.numInFlightAuctions * c.totalProportion) / c.auctionProportion);
  const horizonMs = eventTime(n + eventsForInFlight) - eventTime(n);
  const expires = dateTime + 1 + r.nextInt(Math.max(horizonMs * 2, 1));
  const itemName = nextString(r, 20);
  const description = nextString(r, 100);
  const reserve = initialBid + nextPrice(r);
  const size = 8 + itemName.length + description.length + 8 + 8 + 8 + 8 + 8;
  const extra = nextExtra(r, size, c.avgAuctionByteSize);
  return new AuctionObject(lastAuctionId(c, n) + FIRST_AUCTION_ID, itemName, description, initialBid, reserve, dateTime, expires, seller + FIRST_PERSON_ID, category, extra);
}
