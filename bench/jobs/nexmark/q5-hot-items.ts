/**
 * Nexmark q5, hot items: per sliding window of 10 s every 2 s, the auctions
 * with the most bids (all of them on a tie), as (auction, bids). Two keyed
 * window stages: the count per auction and window, then the maximum per
 * window (keyed by the window's end), as Flink plans the SQL:
 *
 * ```sql
 * SELECT auction, num FROM (count(*) per auction and HOP(dateTime, 2 s, 10 s)) AS AuctionBids
 * JOIN (max of those counts per window) AS MaxBids ON same window AND AuctionBids.num >= MaxBids.maxn
 * ```
 */
import { filter, map, mergeMap, Observable, type OperatorFunction } from "rxjs";
import {
  NexmarkEventType,
  nexmarkEventTime,
  SlidingEventTimeWindows,
  TumblingEventTimeWindows,
  type AggregateFunction,
  type Bid,
  type Collector,
  type TimeWindow,
} from "../../../src/index.ts";
import { digestAdd, digestStart, type NexmarkQuery } from "./nexmark-query.ts";
import { PendingWindows, windowStart } from "./pending-windows.ts";

/** A hot auction of a window and its number of bids. */
export interface HotItem {
  auction: number;
  num: number;
}

/** The bids of an auction in the window ending at `end`. */
interface AuctionCount {
  auction: number;
  num: number;
  end: number;
}

/** The highest count of a window and the auctions that have it. */
interface MaxCount {
  num: number;
  auctions: number[];
}

const SIZE_MS = 10_000;
const SLIDE_MS = 2_000;

const countBids: AggregateFunction<Bid, number, number> = {
  createAccumulator: () => 0,
  add: (_bid, n) => n + 1,
  getResult: (n) => n,
  merge: (a, b) => a + b,
};

/** Keeps the auctions with the highest count. */
const maxCount: AggregateFunction<AuctionCount, MaxCount, MaxCount> = {
  createAccumulator: () => ({ num: 0, auctions: [] }),
  add: (c, acc) => (c.num > acc.num ? { num: c.num, auctions: [c.auction] } : c.num === acc.num ? { num: acc.num, auctions: [...acc.auctions, c.auction] } : acc),
  getResult: (acc) => acc,
  merge: (a, b) => (a.num === b.num ? { num: a.num, auctions: [...a.auctions, ...b.auctions] } : a.num > b.num ? a : b),
};

/** The hot items of one window from its counts per auction. */
function hottest(counts: Map<number, number>): HotItem[] {
  let max = 0;
  for (const n of counts.values()) if (n > max) max = n;
  const out: HotItem[] = [];
  for (const [auction, num] of counts) if (num === max) out.push({ auction, num });
  return out;
}

/** Counts bids per sliding window and auction; emits each window's counts when the watermark passes it. */
function slidingCounts(): OperatorFunction<Bid, Map<number, number>> {
  return (bids) =>
    new Observable((subscriber) => {
      const windows = new PendingWindows<Map<number, number>>(
        () => new Map(),
        (_end, counts) => subscriber.next(counts),
      );
      return bids.subscribe({
        next(b) {
          countInWindows(windows, b);
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

/** Adds a bid to the counts of the `SIZE_MS / SLIDE_MS` windows holding it. */
function countInWindows(windows: PendingWindows<Map<number, number>>, b: Bid): void {
  const last = windowStart(b.dateTime, SLIDE_MS);
  for (let start = last; start > b.dateTime - SIZE_MS; start -= SLIDE_MS) {
    const counts = windows.get(start + SIZE_MS);
    counts.set(b.auction, (counts.get(b.auction) ?? 0) + 1);
  }
}

export const q5: NexmarkQuery<HotItem> = {
  name: "q5",
  description: "hot items: per HOP(10 s, 2 s) window, the auctions with the most bids",
  keyed: true,
  build: (events) =>
    events
      .filter((e) => e.type === NexmarkEventType.BID)
      .name("bids")
      .map((e) => e.bid!)
      .name("bid")
      .keyBy((b) => b.auction)
      .window(SlidingEventTimeWindows.of(SIZE_MS, SLIDE_MS))
      .aggregate(countBids, (auction: number, w: TimeWindow, counts: Iterable<number>, out: Collector<AuctionCount>) => {
        for (const num of counts) out.collect({ auction, num, end: w.end });
      })
      .uid("q5-count")
      .name("bids per auction and window")
      .keyBy((c) => c.end)
      .window(TumblingEventTimeWindows.of(SLIDE_MS))
      .aggregate(maxCount, (_end: number, _w: TimeWindow, maxima: Iterable<MaxCount>, out: Collector<HotItem>) => {
        for (const m of maxima) for (const auction of m.auctions) out.collect({ auction, num: m.num });
      })
      .uid("q5-max")
      .name("q5"),
  fused(g, events, emit) {
    const windows = new PendingWindows<Map<number, number>>(
      () => new Map(),
      (_end, counts) => {
        for (const item of hottest(counts)) emit(item);
      },
    );
    for (let n = 0; n < events; n++) {
      const e = g.event(n);
      if (e.type === NexmarkEventType.BID) countInWindows(windows, e.bid);
      windows.advance(nexmarkEventTime(e));
    }
    windows.fireAll();
  },
  rx: (events) =>
    events.pipe(
      filter((e) => e.type === NexmarkEventType.BID),
      map((e) => e.bid!),
      slidingCounts(),
      mergeMap((counts) => hottest(counts)),
    ),
  sqlRow: ({ fields: f }) => ({ auction: Number(f[0]), num: Number(f[1]) }),
  digest: (r) => digestAdd(digestAdd(digestStart(), r.auction), r.num),
};
