/** Nexmark q2, selection: the bids on auctions whose id is a multiple of 123 (`SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0`). */
import { filter, map } from "rxjs";
import { NexmarkEventType } from "../../../src/index.ts";
import { digestAdd, digestStart, type NexmarkQuery } from "./nexmark-query.ts";

/** An auction and a price bid on it. */
export interface AuctionPrice {
  auction: number;
  price: number;
}

const MODULUS = 123;

export const q2: NexmarkQuery<AuctionPrice> = {
  name: "q2",
  description: "selection: bids with auction % 123 = 0, as (auction, price)",
  keyed: false,
  build: (events) =>
    events
      .filter((e) => e.type === NexmarkEventType.BID && e.bid!.auction % MODULUS === 0)
      .name("bids on auctions % 123")
      .map((e) => ({ auction: e.bid!.auction, price: e.bid!.price }))
      .name("q2"),
  fused(g, events, emit) {
    for (let n = 0; n < events; n++) {
      const e = g.event(n);
      if (e.type === NexmarkEventType.BID && e.bid.auction % MODULUS === 0) emit({ auction: e.bid.auction, price: e.bid.price });
    }
  },
  rx: (events) =>
    events.pipe(
      filter((e) => e.type === NexmarkEventType.BID && e.bid!.auction % MODULUS === 0),
      map((e) => ({ auction: e.bid!.auction, price: e.bid!.price })),
    ),
  sqlRow: ({ fields: f }) => ({ auction: Number(f[0]), price: Number(f[1]) }),
  digest: (r) => digestAdd(digestAdd(digestStart(), r.auction), r.price),
};
