/** Makes the bid of a bid event. */
import { BidObject } from "./event-objects.ts";
import type { EventRandom } from "./event-random.ts";
import { FIRST_AUCTION_ID, FIRST_PERSON_ID, hotId, lastAuctionId, lastPersonId, randomAuctionId, randomPersonId } from "./nexmark-ids.ts";
import type { Bid } from "./nexmark-event.ts";
import type { NexmarkConfig } from "./nexmark-options.ts";
import { nextChannel, nextExtra } from "./nexmark-strings.ts";
import { nextPrice } from "./price.ts";

/**
 * The bid of event `n` (a bid event) at `dateTime`; `r` is started for `n`. Hot bids go to the
 * first auction of the latest block of 100 auctions, hot bidders are the second person of the
 * latest block of 100 persons (hot sellers are the first, so they differ).
 */
export function nextBid(c: NexmarkConfig, r: EventRandom, n: number, dateTime: number): Bid {
  const auction = r.nextInt(c.hotAuctionRatio) > 0 ? hotId(lastAuctionId(c, n)) : randomAuctionId(c, r, n);
  const bidder = r.nextInt(c.hotBiddersRatio) > 0 ? hotId(lastPersonId(c, n)) + 1 : randomPersonId(c, r, n);
  const price = nextPrice(r);
  const { channel, url } = nextChannel(r);
  return new BidObject(auction + FIRST_AUCTION_ID, bidder + FIRST_PERSON_ID, price, channel, url, dateTime, nextExtra(r, 8 + 8 + 8 + 8, c.avgBidByteSize));
}
