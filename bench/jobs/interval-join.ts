/**
 * The interval-join benchmark job, in the calling thread:
 *
 * ```
 * fromSequence(1, N) → map (order)   → timestamps/watermarks (bounded 1 s) → keyBy(id % 10 000) ┐
 * fromSequence(1, N) → map (payment) → timestamps/watermarks (bounded 7 s) → keyBy(orderId % 10 000) ┴→ intervalJoin.between(−5 s, +5 s) → sink counting pairs
 * ```
 *
 * Order `s` (bench/jobs/event-time-data.ts) has timestamp
 * `base + s − lag(s)`, lag in [0, 1 s); its one payment has the order's
 * timestamp plus a seeded offset in [−3 s, +3 s]. Orders of the same key are
 * 10 000 events (10 s ± 1 s) apart, so a payment lies within ±5 s of its own
 * order only: the join emits exactly N pairs, each of an order with its own
 * payment. The payments arrive in order id order, so their timestamps are out
 * of order by up to 1 s + 2 × 3 s < 7 s (their watermark bound): nothing is late.
 */
import {
  OutputTag,
  ProcessJoinFunction,
  WatermarkStrategy,
  type CheckpointStats,
  type Collector,
  type ProcessJoinContext,
  type Sink,
  type StreamExecutionEnvironment,
} from "../../src/index.ts";
import { EVENT_TIME_BASE, eventIndex, seededOffset } from "./event-time-data.ts";
import { runInProcess, type InProcessRunParams } from "./in-process-run.ts";
import { countingSink } from "./counting-sink.ts";

/** Distinct keys. */
export const JOIN_KEYS = 10_000;
/** The join interval: a payment within [order − 5 s, order + 5 s]. */
export const JOIN_LOWER_MS = -5_000;
export const JOIN_UPPER_MS = 5_000;
/** Out-of-orderness of the orders (lag in [0, 1 s)) and largest offset of a payment from its order. */
const ORDER_DISORDER_MS = 1_000;
const PAYMENT_OFFSET_MS = 3_000;
/** Watermark bound of the payments: covers the orders' lag and both offsets. */
const PAYMENT_BOUND_MS = ORDER_DISORDER_MS + 2 * PAYMENT_OFFSET_MS;

const ORDER_SEED = 2;
const PAYMENT_SEED = 3;
const PAIRS = "pairs";
const LATE = "late";

interface Order {
  readonly id: number;
  readonly ts: number;
}

interface Payment {
  readonly orderId: number;
  readonly ts: number;
}

/** One run of the interval-join job. */
export interface IntervalJoinParams extends InProcessRunParams {
  /** Orders, and as many payments (a multiple of `parallelism`). */
  readonly orders: number;
}

/** What one run measured. */
export interface IntervalJoinMeasurement {
  readonly elapsedMs: number;
  /** Pairs of an order with its own payment (`orders` when nothing was lost or duplicated). */
  readonly matchedPairs: number;
  /** Pairs of an order with another order's payment (0 by construction of the data). */
  readonly foreignPairs: number;
  /** Orders and payments sent to the late side outputs (0 when the watermark bounds hold). */
  readonly lateRecords: number;
  readonly checkpoints: CheckpointStats | null;
}

function orderTimestamp(s: number): number {
  return EVENT_TIME_BASE + s - seededOffset(s, ORDER_DISORDER_MS, ORDER_SEED);
}

/** Emits whether the pair is an order with its own payment. */
class PairOrderWithPayment extends ProcessJoinFunction<Order, Payment, boolean> {
  processElement(order: Order, payment: Payment, _ctx: ProcessJoinContext, out: Collector<boolean>): void {
    out.collect(order.id === payment.orderId);
  }
}

/** Drops the pairs; reports how many were of an order with its own payment and how many not. */
const pairSink: Sink<boolean> = {
  createWriter(context) {
    let matched = 0;
    let foreign = 0;
    return {
      write(own) {
        if (own) matched++;
        else foreign++;
      },
      finish: () => context.reportResult(PAIRS, [[matched, foreign]]),
    };
  },
};

/** Builds the job's graph on `env`. */
function build(env: StreamExecutionEnvironment, p: IntervalJoinParams): void {
  const lateOrders = new OutputTag<Order>("late-orders");
  const latePayments = new OutputTag<Payment>("late-payments");
  const orders = env
    .fromSequence(1, p.orders)
    .uid("order-sequence")
    .map((n): Order => {
      const s = eventIndex(n, p.orders, p.parallelism);
      return { id: s, ts: orderTimestamp(s) };
    })
    .uid("orders")
    .assignTimestampsAndWatermarks(WatermarkStrategy.forBoundedOutOfOrderness<Order>(ORDER_DISORDER_MS).withTimestampAssigner((o) => o.ts))
    .uid("order-timestamps");
  const payments = env
    .fromSequence(1, p.orders)
    .uid("payment-sequence")
    .map((n): Payment => {
      const s = eventIndex(n, p.orders, p.parallelism);
      return { orderId: s, ts: orderTimestamp(s) + seededOffset(s, 2 * PAYMENT_OFFSET_MS + 1, PAYMENT_SEED) - PAYMENT_OFFSET_MS };
    })
    .uid("payments")
    .assignTimestampsAndWatermarks(WatermarkStrategy.forBoundedOutOfOrderness<Payment>(PAYMENT_BOUND_MS).withTimestampAssigner((x) => x.ts))
    .uid("payment-timestamps");
  const pairs = orders
    .keyBy((o) => o.id % JOIN_KEYS)
    .intervalJoin(payments.keyBy((x) => x.orderId % JOIN_KEYS))
    .between(JOIN_LOWER_MS, JOIN_UPPER_MS)
    .sideOutputLeftLateData(lateOrders)
    .sideOutputRightLateData(latePayments)
    .process(new PairOrderWithPayment())
    .uid("join");
  pairs.sinkTo(pairSink).uid("pairs");
  pairs.getSideOutput(lateOrders).sinkTo(countingSink(LATE)).uid("late-orders");
  pairs.getSideOutput(latePayments).sinkTo(countingSink(LATE)).uid("late-payments");
}

/**
 * Runs the interval-join job once, in-process, and measures it.
 *
 * @example
 * ```ts
 * const m = await runIntervalJoin({ orders: 1_000_000, parallelism: 4, checkpointIntervalMs: 1_000 });
 * console.log(m.matchedPairs === 1_000_000, m.foreignPairs, m.lateRecords);
 * ```
 */
export async function runIntervalJoin(params: IntervalJoinParams): Promise<IntervalJoinMeasurement> {
  const run = await runInProcess("bench-interval-join", params, (env) => build(env, params));
  const perSubtask = run.result.getCollected<[number, number]>(PAIRS);
  return {
    elapsedMs: run.elapsedMs,
    matchedPairs: perSubtask.reduce((a, [m]) => a + m, 0),
    foreignPairs: perSubtask.reduce((a, [, f]) => a + f, 0),
    lateRecords: run.result.getCollected<number>(LATE).reduce((a, b) => a + b, 0),
    checkpoints: run.checkpoints,
  };
}
