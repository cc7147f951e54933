/**
 * Test helpers of async I/O: an AsyncWaitOperator driven by hand as its task
 * would drive it (a real mailbox, a ManualClock for processing time, a real
 * operator state backend whose bytes restore a new instance), and a service
 * whose requests the test completes one by one.
 */
import { MetricRegistry } from "../../metrics/metric-registry.ts";
import type { AsyncFunctionLike } from "../../core/async-function.ts";
import { AsyncRetryStrategies, type AsyncRetryStrategy } from "../../core/async-retry-strategy.ts";
import { OperatorStateBackend } from "../../state/index.ts";
import { ManualClock } from "../../util/clock.ts";
import { NO_TIMESTAMP } from "../elements.ts";
import { Mailbox } from "../task/mailbox.ts";
import { AsyncWaitOperator } from "./async-wait-operator.ts";

/** What the operator emitted, in order: records with their timestamps, and watermarks. */
export type Emitted<OUT> = { readonly record: OUT; readonly timestamp: number } | { readonly watermark: number };

/** Settings of a driven operator. */
export interface HarnessOptions<OUT> {
  readonly outputMode?: "ordered" | "unordered";
  readonly timeoutMs?: number;
  readonly capacity?: number;
  readonly retryStrategy?: AsyncRetryStrategy<OUT>;
  /** State to restore (the bytes of another harness's `snapshot`). */
  readonly restore?: Uint8Array;
  readonly clock?: ManualClock;
}

/** An AsyncWaitOperator with its task's mailbox and clock. */
export class AsyncHarness<IN, OUT> {
  readonly clock: ManualClock;
  readonly emitted: Emitted<OUT>[] = [];
  private readonly mailbox = new Mailbox(() => {});
  private readonly element = { timestamp: NO_TIMESTAMP };
  private readonly state = new OperatorStateBackend({ operatorUid: "lookup" });

  private constructor(readonly operator: AsyncWaitOperator<IN, OUT>, clock: ManualClock) {
    this.clock = clock;
  }

  /** Creates and opens an operator running `fn`. */
  static async open<IN, OUT>(fn: AsyncFunctionLike<IN, OUT>, o: HarnessOptions<OUT> = {}): Promise<AsyncHarness<IN, OUT>> {
    const operator = new AsyncWaitOperator<IN, OUT>(fn, {
      outputMode: o.outputMode ?? "ordered",
      timeoutMs: o.timeoutMs ?? 0,
      capacity: o.capacity ?? 100,
      retryStrategy: o.retryStrategy ?? AsyncRetryStrategies.NO_RETRY_STRATEGY,
    });
    const h = new AsyncHarness(operator, o.clock ?? new ManualClock(0));
    if (o.restore) h.state.restore([o.restore]);
    const clock = h.clock;
    await operator.open(
      {
        jobId: "async-harness",
        operatorUid: "lookup",
        operatorName: "Lookup",
        subtaskIndex: 0,
        parallelism: 1,
        maxParallelism: 128,
        attempt: 0,
        isRestored: o.restore !== undefined,
        element: h.element,
        processingTime: { now: () => clock.now(), scheduleAt: (t, cb) => void clock.setTimeout(() => h.mailbox.put(cb), t - clock.now()) },
        mailbox: h.mailbox,
        autoWatermarkIntervalMs: 0,
        operatorState: h.state,
        clock,
        metricGroup: new MetricRegistry().group({ jobId: "async-harness", jobName: "async-harness" }),
        reportResult: () => {},
      },
      {
        collect: (record) => void h.emitted.push({ record, timestamp: h.element.timestamp }),
        collectSide: () => {},
        emitWatermark: (watermark) => void h.emitted.push({ watermark }),
        emitWatermarkStatus: () => {},
      },
    );
    return h;
  }

  /** A record arrives (with an event timestamp, or none). */
  input(value: IN, timestamp = NO_TIMESTAMP): void {
    this.element.timestamp = timestamp;
    this.operator.processElement(value);
  }

  watermark(timestamp: number): void {
    this.operator.processWatermark(timestamp);
  }

  /** Lets pending Promise callbacks run, then runs the mails they (and timers) queued, as the task loop does. */
  async settle(): Promise<void> {
    for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
    for (let mail = this.mailbox.take(); mail; mail = this.mailbox.take()) await mail();
  }

  /** Settles, moves processing time forward (due timers queue their mails), then settles again. */
  async advance(ms: number): Promise<void> {
    await this.settle();
    this.clock.advance(ms);
    await this.settle();
  }

  /** The records emitted so far. */
  output(): OUT[] {
    return this.emitted.flatMap((e) => ("record" in e ? [e.record] : []));
  }

  /** A checkpoint: the operator's snapshot hook, then its state as bytes. */
  async snapshot(id = 1): Promise<Uint8Array> {
    this.operator.snapshotState(id);
    return this.state.snapshot(id).serialize();
  }

  async close(): Promise<void> {
    await this.operator.close();
  }
}

/** A pending request of a {@link ManualService}. */
interface Request<IN, OUT> {
  readonly input: IN;
  resolve(value: OUT | readonly OUT[]): void;
  reject(error: unknown): void;
}

/** An external service whose requests stay pending until the test completes them. */
export class ManualService<IN, OUT> {
  /** Every request received, in order (completed ones included). */
  readonly requests: Request<IN, OUT>[] = [];
  private readonly pending: Request<IN, OUT>[] = [];

  /** The async lambda calling this service. */
  readonly call = (input: IN): Promise<OUT | readonly OUT[]> =>
    new Promise((resolve, reject) => {
      const r = { input, resolve, reject };
      this.requests.push(r);
      this.pending.push(r);
    });

  /** Inputs of the requests not completed yet, in request order. */
  inFlight(): IN[] {
    return this.pending.map((r) => r.input);
  }

  /** Completes the oldest pending request for `input` with `value`. */
  resolve(input: IN, value: OUT | readonly OUT[]): void {
    this.take(input).resolve(value);
  }

  /** Fails the oldest pending request for `input`. */
  reject(input: IN, error: unknown): void {
    this.take(input).reject(error);
  }

  private take(input: IN): Request<IN, OUT> {
    const i = this.pending.findIndex((r) => Object.is(r.input, input) || JSON.stringify(r.input) === JSON.stringify(input));
    if (i < 0) throw new Error(`no pending request for ${JSON.stringify(input)}`);
    return this.pending.splice(i, 1)[0]!;
  }
}
