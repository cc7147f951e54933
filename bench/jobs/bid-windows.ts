/**
 * Two small Nexmark-like window jobs over generated bids, for profiling the
 * window operator on one core (parallelism 1, in-process, generator included):
 *
 * ```
 * hop (q5-like):    bids → watermarks (bounded 1 s) → keyBy(auction) → HOP 10 s / 2 s count
 *                        → keyBy(window end) → TUMBLE 2 s reduce (the hottest auction, and the sum of the counts) → sink
 * tumble (q7-like): bids → watermarks (bounded 1 s) → windowAll(TUMBLE 10 s) maxBy(price) → sink
 * ```
 *
 * Bid `s` is a pure function of its sequence number: event time advances
 * 1 ms per bid with a seeded lag in [0, 1 s) (within the watermark bound, so
 * nothing is late); its auction is one of `BID_AUCTIONS`, hot-skewed (3 bids
 * in 4 go to the 10 hottest). Each run is checked against closed forms: the
 * hop job's counts over all auctions and windows sum to 5 × N (the second
 * stage carries their sum along with the hottest auction), the tumble job
 * emits one maximum per 10 s of event time.
 */
import { OutputTag, SlidingEventTimeWindows, TumblingEventTimeWindows, WatermarkStrategy, type AggregateFunction, type CheckpointStats, type Sink, type StreamExecutionEnvironment } from "../../src/index.ts";
import type { TimeWindow } from "../../src/time/windows/window.ts";
import { BenchIntegrityError } from "../integrity-error.ts";
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
  return { auction, bidder: (h >>> 8) % 10_000, price: priceOf(s), ts: EVENT_TIME_BASE + s - seededOffset(s, BID_DISORDER_MS, SEED + 1) };
}

/** The price of bid `s`. */
function priceOf(s: number): number {
  return 100 + (seededOffset(s, 2 ** 30, SEED) % 10_000);
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
  /** CPU time of the process during the run (all of the job runs in this thread; on a shared machine steadier than wall time). */
  readonly cpuMs: number;
  /** Records the sink received (the hottest auction of each window, or the maximum of each window). */
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
  /** The sum of the counts reduced into this one (its own count before the second stage). */
  readonly sum: number;
}

/** The hottest of two auction counts of one window, with the sum of all counts. */
function hottest(a: AuctionCount, b: AuctionCount): AuctionCount {
  const top = b.count > a.count ? b : a;
  return { auction: top.auction, count: top.count, end: top.end, sum: a.sum + b.sum };
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
        for (const count of cs) out.collect({ auction, count, end: w.end, sum: count });
      })
      .uid("hop-count");
    counts.getSideOutput(late).sinkTo(countingSink(LATE)).uid("late");
    counts
      .keyBy((c: AuctionCount) => c.end)
      .window(TumblingEventTimeWindows.of(HOP_SLIDE_MS))
      .reduce(hottest)
      .uid("hottest")
      .sinkTo(resultSink<AuctionCount>((acc, c) => acc + c.sum, RESULTS))
      .uid("sink");
  } else {
    const maxima = bids.windowAll(TumblingEventTimeWindows.of(TUMBLE_SIZE_MS)).sideOutputLateData(late).maxBy("price").uid("tumble-max");
    maxima.getSideOutput(late).sinkTo(countingSink(LATE)).uid("late");
    maxima.sinkTo(resultSink<Bid>((acc, b) => Math.max(acc, b.price), RESULTS)).uid("sink");
  }
}

/**
 * Runs one bid-window job at parallelism 1 in the calling thread, measures it
 * and checks its result.
 *
 * @throws BenchIntegrityError when a bid was late, or the result is not the expected one
 * @example
 * ```ts
 * const m = await runBidWindows({ job: "hop", bids: 1_000_000, checkpointIntervalMs: 0 });
 * console.log(1_000_000 / m.elapsedMs, "bids per ms");
 * ```
 */
export async function runBidWindows(p: BidWindowParams): Promise<BidWindowMeasurement> {
  const cpu = process.cpuUsage();
  const run = await runInProcess(`bench-bid-${p.job}`, { parallelism: 1, checkpointIntervalMs: p.checkpointIntervalMs }, (env) => build(env, p));
  const { user, system } = process.cpuUsage(cpu);
  const [results, check] = run.result.getCollected<[number, number]>(RESULTS)[0]!;
  const label = `${p.job}, ${p.bids} bids`;
  const lateBids = run.result.getCollected<number>(LATE).reduce((a, b) => a + b, 0);
  if (lateBids !== 0) throw new BenchIntegrityError(label, "late bids", 0, lateBids);
  const expected = expectedResult(p);
  if (results !== expected.results) throw new BenchIntegrityError(label, "results", expected.results, results);
  if (check !== expected.check) throw new BenchIntegrityError(label, p.job === "hop" ? "sum of the counts" : "largest price", expected.check, check);
  return {
    elapsedMs: run.elapsedMs,
    cpuMs: (user + system) / 1000,
    results,
    check,
    lateBids,
    checkpoints: run.checkpoints,
  };
}

/** What a run must produce, from the bids themselves: their windows (a contiguous range), and their largest price. */
function expectedResult(p: BidWindowParams): { results: number; check: number } {
  // a bid's timestamp is within BID_DISORDER_MS below base + s: only the first and last bids can be the extremes
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (let s = 0; s < Math.min(p.bids, BID_DISORDER_MS); s++) first = Math.min(first, bidOf(s).ts);
  for (let s = Math.max(0, p.bids - BID_DISORDER_MS); s < p.bids; s++) last = Math.max(last, bidOf(s).ts);
  if (p.job === "hop") {
    // one hottest auction per window end; each bid is in HOP_SIZE / HOP_SLIDE windows
    const perBid = HOP_SIZE_MS / HOP_SLIDE_MS;
    return { results: Math.floor(last / HOP_SLIDE_MS) - Math.floor(first / HOP_SLIDE_MS) + perBid, check: perBid * p.bids };
  }
  let largest = 0;
  for (let s = 0; s < p.bids; s++) largest = Math.max(largest, priceOf(s));
  return { results: Math.floor(last / TUMBLE_SIZE_MS) - Math.floor(first / TUMBLE_SIZE_MS) + 1, check: largest };
}
