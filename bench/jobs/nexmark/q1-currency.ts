/** Nexmark q1, currency conversion: bids with their price in euros (`SELECT auction, bidder, 0.908 * price AS price, dateTime, extra FROM bid`). */
import { filter, map } from "rxjs";
import { NexmarkEventType, type Bid } from "../../../src/index.ts";
import { decimalToNumber } from "../../../src/table/types/decimal.ts";
import type { Decimal } from "../../../src/index.ts";
import { digestAdd, digestAddString, digestStart, type NexmarkQuery } from "./nexmark-query.ts";

/** A bid in euros. */
export interface EuroBid {
  auction: number;
  bidder: number;
  price: number;
  dateTime: number;
  extra: string;
}

const DOLLARS_TO_EUROS = 0.908;

function toEuros(b: Bid): EuroBid {
  return { auction: b.auction, bidder: b.bidder, price: b.price * DOLLARS_TO_EUROS, dateTime: b.dateTime, extra: b.extra };
}

export const q1: NexmarkQuery<EuroBid> = {
  name: "q1",
  description: "currency conversion: bids with price × 0.908",
  keyed: false,
  build: (events) =>
    events
      .filter((e) => e.type === NexmarkEventType.BID)
      .name("bids")
      .map((e) => toEuros(e.bid!))
      .name("q1"),
  fused(g, events, emit) {
    for (let n = 0; n < events; n++) {
      const e = g.event(n);
      if (e.type === NexmarkEventType.BID) emit(toEuros(e.bid));
    }
  },
  rx: (events) =>
    events.pipe(
      filter((e) => e.type === NexmarkEventType.BID),
      map((e) => toEuros(e.bid!)),
    ),
  sqlRow: ({ fields: f }) => ({ auction: Number(f[0]), bidder: Number(f[1]), price: decimalToNumber(f[2] as Decimal), dateTime: f[3] as number, extra: f[4] as string }),
  digest(b) {
    let h = digestStart();
    h = digestAdd(h, b.auction);
    h = digestAdd(h, b.bidder);
    h = digestAdd(h, b.price);
    h = digestAdd(h, b.dateTime);
    return digestAddString(h, b.extra);
  },
  eventTimeOf: (b) => b.dateTime,
};
