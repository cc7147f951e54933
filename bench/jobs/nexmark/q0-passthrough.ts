/** Nexmark q0, passthrough: every bid as it is (`SELECT auction, bidder, price, channel, url, dateTime, extra FROM bid`). */
import { filter, map } from "rxjs";
import { NexmarkEventType, type Bid } from "../../../src/index.ts";
import { digestAdd, digestAddString, digestStart, type NexmarkQuery } from "./nexmark-query.ts";

/** The digest of a bid. */
export function bidDigest(b: Bid): number {
  let h = digestStart();
  h = digestAdd(h, b.auction);
  h = digestAdd(h, b.bidder);
  h = digestAdd(h, b.price);
  h = digestAdd(h, b.dateTime);
  h = digestAddString(h, b.channel);
  h = digestAddString(h, b.url);
  return digestAddString(h, b.extra);
}

export const q0: NexmarkQuery<Bid> = {
  name: "q0",
  description: "passthrough: every bid",
  keyed: false,
  build: (events) =>
    events
      .filter((e) => e.type === NexmarkEventType.BID)
      .name("bids")
      .map((e) => e.bid!)
      .name("q0"),
  fused(g, events, emit) {
    for (let n = 0; n < events; n++) {
      const e = g.event(n);
      if (e.type === NexmarkEventType.BID) emit(e.bid);
    }
  },
  rx: (events) =>
    events.pipe(
      filter((e) => e.type === NexmarkEventType.BID),
      map((e) => e.bid!),
    ),
  sqlRow: ({ fields: f }) => ({ auction: Number(f[0]), bidder: Number(f[1]), price: Number(f[2]), channel: f[3] as string, url: f[4] as string, dateTime: f[5] as number, extra: f[6] as string }),
  digest: bidDigest,
  eventTimeOf: (b) => b.dateTime,
};
