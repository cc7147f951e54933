/**
 * Two small Nexmark-like window jobs over generated bids, for profiling the
 * window operator on one core (parallelism 1, in-process, generator included):
 *
 * ```
 * hop (q5-like):    bids → watermarks (bounded 1 s) → keyBy(auction) → HOP 10 s / 2 s count
 *                        → keyBy(window end) → TUMBLE 2 s maxBy(count) → sink
 * tumble (q7-like): bids → watermarks (bounded 1 s) → windowAll(TUMBLE 10 s) maxBy(price) → sink
 * ```
 *
 * Bid `s` is a pure function of its sequence number: event time advances
 * 1 ms per bid with a seeded lag in [0, 1 s) (within the watermark bound, so
 * nothing is late); its auction is one of `BID_AUCTIONS`, hot-skewed (3 bids
 * in 4 go to the 10 hottest). Each run is checked against closed forms: the
 * hop job's counts over all auctions and windows sum to 5 × N, the tumble
 * job emits one maximum per 10 s of event time.
 */
import { OutputTag, SlidingEventTimeWindows, TumblingEventTimeWindows, WatermarkStrategy, type AggregateFunction, type CheckpointStats, type Sink, type StreamExecutionEnvironment } from "../../src/index.ts";
import type { TimeWindow } from "../../src/time/windows/window.ts";
import { countingSink } from "./counting-sink.ts";
import { EVENT_TIME_BASE, seededOffset } from "./event-time-data.ts";
import { runInProcess } from "./in-process-run.ts";

/** Distinct auctions, and how many of them are hot. */
export const BID_AUCTIONS = 1_000;
const HOT_AUCTIONS = 10;
/** Out-of-orderness of the bids and the watermark bound, in ms. */
const BID_DISORDER_MS = 1_000;
/** HOP size and slide, TUMBLE size, in ms. */
export const HOP_SIZE_MS = 10_000;
export const HOP_SLIDE_MS = 2_000;
export const TUMBLE_SIZE_MS = 10_000;

const SEED = 5;
const RESULTS = "bid-window-results";
const COUNTS = "bid-window-counts";
const LATE = "late-bids";

/** A generated bid. */
export interface Bid {
  readonly auction: number;
  readonly bidder: number;
  readonly price: number;
  readonly ts: number;
}

/** Bid number `s` (0-based). */
export function bidOf(s: number): Bid {
  const h = seededOffset(s, 2 ** 30, SEED);
  const auction = (h & 3) !== 0 ? (h >>> 2) % HOT_AUCTIONS : (h >>> 2) % BID_AUCTIONS;
  return { auction, bidder: (h >>> 8) % 10_000, price: 100 + (h % 10_000), ts: EVENT_TIME_BASE + s - seededOffset(s, BID_DISORDER_MS, SEED + 1) };
}

/** Which job, how many bids, and whether exactly-once checkpoints run every second. */
export interface BidWindowParams {
  readonly job: "hop" | "tumble";
  readonly bids: number;
  readonly checkpointIntervalMs: number;
}

/** What one run measured. */
export interface BidWindowMeasurement {
  readonly elapsedMs: number;
  /** Records the sink received (hottest auctions per window, or maxima per window). */
  readonly results: number;
  /** hop: sum of the counts the first stage emitted (5 × bids when nothing was lost or duplicated); tumble: the largest price. */
  readonly check: number;
  readonly lateBids: number;
  readonly checkpoints: CheckpointStats | null;
}

interface AuctionCount {
  readonly auction: number;
  readonly count: number;
  readonly end: number;
}

const countBids: AggregateFunction<Bid, number, number> = {
  createAccumulator: () => 0,
  add: (_b, acc) => acc + 1,
  getResult: (acc) => acc,
  merge: (a, b) => a + b,
};

/** Counts what arrives; `check` folds each record with `fold`. */
function resultSink<T>(fold: (acc: number, r: T) => number, name: string): Sink<T> {
  return {
    createWriter(context) {
      let n = 0;
      let acc = 0;
      return {
        write(r) {
          n++;
          acc = fold(acc, r);
        },
        finish: () => context.reportResult(name, [[n, acc]]),
      };
    },
  };
}

function build(env: StreamExecutionEnvironment, p: BidWindowParams): void {
  const late = new OutputTag<Bid>("late");
  const bids = env
    .fromSequence(0, p.bids - 1)
    .uid("sequence")
    .map(bidOf)
    .uid("bids")
    .assignTimestampsAndWatermarks(WatermarkStrategy.forBoundedOutOfOrderness<Bid>(BID_DISORDER_MS).withTimestampAssigner((b) => b.ts))
    .uid("timestamps");
  if (p.job === "hop") {
    const counts = bids
      .keyBy((b) => b.auction)
      .window(SlidingEventTimeWindows.of(HOP_SIZE_MS, HOP_SLIDE_MS))
      .sideOutputLateData(late)
      .aggregate<number, number, AuctionCount>(countBids, (auction: number, w: TimeWindow, cs: Iterable<number>, out) => {
        for (const count of cs) out.collect({ auction, count, end: w.end });
      })
      .uid("hop-count");
    counts.getSideOutput(late).sinkTo(countingSink(LATE)).uid("late");
    counts.sinkTo(resultSink<AuctionCount>((acc, c) => acc + c.count, COUNTS)).uid("count-sum");
    counts
      .keyBy((c: AuctionCount) => c.end)
      .window(TumblingEventTimeWindows.of(HOP_SLIDE_MS))
      .maxBy("count")
      .uid("hottest")
      .sinkTo(resultSink<AuctionCount>((acc, c) => Math.max(acc, c.count), RESULTS))
      .uid("sink");
  } else {
    const maxima = bids.windowAll(TumblingEventTimeWindows.of(TUMBLE_SIZE_MS)).sideOutputLateData(late).maxBy("price").uid("tumble-max");
    maxima.getSideOutput(late).sinkTo(countingSink(LATE)).uid("late");
    maxima.sinkTo(resultSink<Bid>((acc, b) => Math.max(acc, b.price), RESULTS)).uid("sink");
  }
}

/**
 * Runs one bid-window job at parallelism 1 in the calling thread and measures it.
 *
 * @example
 * ```ts
 * const m = await runBidWindows({ job: "hop", bids: 1_000_000, checkpointIntervalMs: 0 });
 * console.log(m.check === 5 * 1_000_000, m.bids / m.elapsedMs);
 * ```
 */
export async function runBidWindows(p: BidWindowParams): Promise<BidWindowMeasurement> {
  const run = await runInProcess(`bench-bid-${p.job}`, { parallelism: 1, checkpointIntervalMs: p.checkpointIntervalMs }, (env) => build(env, p));
  const [results, largest] = run.result.getCollected<[number, number]>(RESULTS)[0]!;
  const countSum = p.job === "hop" ? run.result.getCollected<[number, number]>(COUNTS)[0]![1] : largest;
  return {
    elapsedMs: run.elapsedMs,
    results,
    check: countSum,
    lateBids: run.result.getCollected<number>(LATE).reduce((a, b) => a + b, 0),
    checkpoints: run.checkpoints,
  };
}
