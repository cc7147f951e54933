/**
 * Nexmark q7, highest bid: per tumbling window of 10 s, the bids with the
 * highest price (all of them on a tie). Two keyed window stages: the highest
 * bids per auction and window, then per window (keyed by its end):
 *
 * ```sql
 * SELECT B.auction, B.price, B.bidder, B.dateTime, B.extra FROM bid B
 * JOIN (SELECT MAX(price) AS maxprice, window_end FROM TUMBLE(bid, dateTime, 10 s) GROUP BY window_start, window_end) B1
 * ON B.price = B1.maxprice AND B.dateTime in that window
 * ```
 */
import { filter, map, mergeMap, Observable, type OperatorFunction } from "rxjs";
import {
  NexmarkEventType,
  nexmarkEventTime,
  TumblingEventTimeWindows,
  type AggregateFunction,
  type Bid,
  type Collector,
  type TimeWindow,
} from "../../../src/index.ts";
import { digestAdd, digestAddString, digestStart, type NexmarkQuery } from "./nexmark-query.ts";
import { PendingWindows, windowStart } from "./pending-windows.ts";

/** A highest bid of a window. */
export interface HighestBid {
  auction: number;
  price: number;
  bidder: number;
  dateTime: number;
  extra: string;
}

/** The highest price so far and the bids that have it. */
interface MaxBids {
  price: number;
  bids: HighestBid[];
}

/** The highest bids of an auction in the window ending at `end`. */
interface WindowMax extends MaxBids {
  end: number;
}

const SIZE_MS = 10_000;

const highest = (b: Bid): HighestBid => ({ auction: b.auction, price: b.price, bidder: b.bidder, dateTime: b.dateTime, extra: b.extra });

/** Keeps the bids with the highest price. */
function addBid(b: Bid, acc: MaxBids): MaxBids {
  if (b.price > acc.price) return { price: b.price, bids: [highest(b)] };
  if (b.price === acc.price) return { price: acc.price, bids: [...acc.bids, highest(b)] };
  return acc;
}

function mergeMax(a: MaxBids, b: MaxBids): MaxBids {
  return a.price === b.price ? { price: a.price, bids: [...a.bids, ...b.bids] } : a.price > b.price ? a : b;
}

const maxBids: AggregateFunction<Bid, MaxBids, MaxBids> = {
  createAccumulator: () => ({ price: -1, bids: [] }),
  add: addBid,
  getResult: (acc) => acc,
  merge: mergeMax,
};

const maxOfAuctions: AggregateFunction<WindowMax, MaxBids, MaxBids> = {
  createAccumulator: () => ({ price: -1, bids: [] }),
  add: (w, acc) => mergeMax(acc, w),
  getResult: (acc) => acc,
  merge: mergeMax,
};

/** Keeps the highest bids per tumbling window; emits them when the watermark passes the window. */
function highestPerWindow(): OperatorFunction<Bid, MaxBids> {
  return (bids) =>
    new Observable((subscriber) => {
      const windows = new PendingWindows<MaxBids>(
        () => ({ price: -1, bids: [] }),
        (_end, acc) => subscriber.next(acc),
      );
      return bids.subscribe({
        next(b) {
          addToWindow(windows, b);
          windows.advance(b.dateTime);
        },
        error: (e) => subscriber.error(e),
        complete() {
          windows.fireAll();
          subscriber.complete();
        },
      });
    });
}

/** Adds a bid to its window, in place (the accumulators of the loops are their own). */
function addToWindow(windows: PendingWindows<MaxBids>, b: Bid): void {
  const acc = windows.get(windowStart(b.dateTime, SIZE_MS) + SIZE_MS);
  if (b.price > acc.price) {
    acc.price = b.price;
    acc.bids = [highest(b)];
  } else if (b.price === acc.price) acc.bids.push(highest(b));
}

export const q7: NexmarkQuery<HighestBid> = {
  name: "q7",
  description: "highest bid: per TUMBLE(10 s) window, the bids with the highest price",
  keyed: true,
  build: (events) =>
    events
      .filter((e) => e.type === NexmarkEventType.BID)
      .name("bids")
      .map((e) => e.bid!)
      .name("bid")
      .keyBy((b) => b.auction)
      .window(TumblingEventTimeWindows.of(SIZE_MS))
      .aggregate(maxBids, (_auction: number, w: TimeWindow, maxima: Iterable<MaxBids>, out: Collector<WindowMax>) => {
        for (const m of maxima) out.collect({ end: w.end, price: m.price, bids: m.bids });
      })
      .uid("q7-auction-max")
      .name("highest bids per auction and window")
      .keyBy((m) => m.end)
      .window(TumblingEventTimeWindows.of(SIZE_MS))
      .aggregate(maxOfAuctions, (_end: number, _w: TimeWindow, maxima: Iterable<MaxBids>, out: Collector<HighestBid>) => {
        for (const m of maxima) for (const b of m.bids) out.collect(b);
      })
      .uid("q7-max")
      .name("q7"),
  fused(g, events, emit) {
    const windows = new PendingWindows<MaxBids>(
      () => ({ price: -1, bids: [] }),
      (_end, acc) => {
        for (const b of acc.bids) emit(b);
      },
    );
    for (let n = 0; n < events; n++) {
      const e = g.event(n);
      if (e.type === NexmarkEventType.BID) addToWindow(windows, e.bid);
      windows.advance(nexmarkEventTime(e));
    }
    windows.fireAll();
  },
  rx: (events) =>
    events.pipe(
      filter((e) => e.type === NexmarkEventType.BID),
      map((e) => e.bid!),
      highestPerWindow(),
      mergeMap((acc) => acc.bids),
    ),
  sqlRow: ({ fields: f }) => ({ auction: Number(f[0]), price: Number(f[1]), bidder: Number(f[2]), dateTime: f[3] as number, extra: f[4] as string }),
  digest(b) {
    let h = digestStart();
    h = digestAdd(h, b.auction);
    h = digestAdd(h, b.price);
    h = digestAdd(h, b.bidder);
    h = digestAdd(h, b.dateTime);
    return digestAddString(h, b.extra);
  },
};
