/**
 * Async I/O (Flink's `AsyncWaitOperator`): one request per record through a
 * user async function, at most `capacity` records in the operator at once.
 *
 * - Results come back in any callback; the operator queues them and hands
 *   them to the task as one mail per burst, so it emits only on the task's
 *   turn (never concurrently with itself or a snapshot).
 * - At capacity it tells the task it accepts no input: the task reads
 *   nothing more (the rest of a batch waits, not issued, in a backlog) and
 *   sleeps until a completion frees a slot.
 * - Timeouts are one processing-time timer for the oldest request (deadlines
 *   are in request order); retries are processing-time timers too, so both
 *   follow the job's clock.
 * - A checkpoint keeps every input not emitted yet (in flight, completed but
 *   waiting for its turn, or in the backlog) and the watermarks between
 *   them; after a restore they are requested again, in order. Completed
 *   results are not kept: they are requested again too (as Flink does).
 * - At the end of input the task waits until every request was emitted.
 */
import { asAsyncFunction, type AsyncFunction, type AsyncFunctionLike, type ResultFuture } from "../../core/async-function.ts";
import type { AsyncRetryStrategy } from "../../core/async-retry-strategy.ts";
import { ListStateDescriptor, type ListState } from "../../state/index.ts";
import { copyPlainData, PlainDataError } from "../../state/plain-copy.ts";
import { Fifo } from "../../util/fifo.ts";
import { AsyncFunctionError, AsyncPlainDataError, AsyncTimeoutError } from "./async-errors.ts";
import {
  AsyncRecordEntry,
  OrderedResultQueue,
  UnorderedResultQueue,
  type AsyncResultQueue,
  type QueuedElement,
  type QueueOutput,
} from "./async-result-queue.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { UdfOperator } from "./udf-operator.ts";

/** How the operator runs requests. */
export interface AsyncWaitSettings<OUT> {
  /** Results in input order, or as they complete (within the records between two watermarks). */
  readonly outputMode: "ordered" | "unordered";
  /** Time for all attempts of one input in ms; 0 or less: no timeout. */
  readonly timeoutMs: number;
  /** Records in the operator at most (in flight or waiting for their turn). */
  readonly capacity: number;
  readonly retryStrategy: AsyncRetryStrategy<OUT>;
}

/** An element of the checkpointed list: a record not emitted yet, or a watermark. */
type StoredElement<IN> = { readonly record: IN; readonly timestamp: number } | { readonly watermark: number };

/** The outcome of one attempt (or of the timeout hook). */
type Outcome<OUT> =
  | { readonly results: OUT[] }
  | { readonly error: unknown; /** Not retried, not wrapped: a misuse of the result future. */ readonly fatal: boolean };

/** An outcome waiting for the task's turn. */
interface Completion<IN, OUT> {
  readonly entry: AsyncRecordEntry<IN, OUT>;
  readonly generation: number;
  /** False for the timeout hook's outcome. */
  readonly retryable: boolean;
  readonly outcome: Outcome<OUT>;
}

/** Name of the operator's list state. */
const STATE_NAME = "_async_wait_elements";

export class AsyncWaitOperator<IN, OUT> extends UdfOperator<IN, OUT, AsyncFunctionLike<IN, OUT>> {
  private readonly call: AsyncFunction<IN, OUT>;
  private readonly queue: AsyncResultQueue<IN, OUT>;
  /** Inputs that arrived while the queue was full (at most a batch), in order with watermarks: not requested yet. */
  private readonly backlog = new Fifo<QueuedElement<IN, OUT>>();
  /** Requests with a timeout, in request order (so in deadline order); completed ones are dropped lazily. */
  private byDeadline = new Fifo<AsyncRecordEntry<IN, OUT>>();
  private timerArmed = false;
  /** Outcomes waiting for the mail that settles them. */
  private completions: Completion<IN, OUT>[] = [];
  private closed = false;
  private state!: ListState<StoredElement<IN>>;
  /** @internal `operator 'Name' (uid 'uid')`, for errors. */
  description = "";
  private readonly queueOutput: QueueOutput<IN, OUT> = {
    record: (entry) => {
      this.ctx.element.timestamp = entry.timestamp;
      const results = entry.results!;
      for (let i = 0; i < results.length; i++) this.out.collect(results[i]!);
    },
    watermark: (timestamp) => this.out.emitWatermark(timestamp),
  };

  constructor(
    fn: AsyncFunctionLike<IN, OUT>,
    private readonly settings: AsyncWaitSettings<OUT>,
  ) {
    super(fn);
    this.call = asAsyncFunction(fn);
    this.queue = settings.outputMode === "ordered" ? new OrderedResultQueue() : new UnorderedResultQueue();
  }

  override async open(context: OperatorContext, output: Output<OUT>): Promise<void> {
    await super.open(context, output);
    this.description = `operator '${context.operatorName}' (uid '${context.operatorUid}')`;
    this.state = context.operatorState.getListState(new ListStateDescriptor<StoredElement<IN>>(STATE_NAME));
    const restored = this.state.get();
    if (restored.length === 0) return;
    for (const e of restored) this.enqueue("watermark" in e ? e.watermark : new AsyncRecordEntry(e.record, e.timestamp));
    // Watermarks (and nothing else yet) may be due: emitted on the task's turn, once every operator is open.
    context.mailbox.put(() => this.emitReady());
  }

  processElement(value: IN): void {
    this.enqueue(new AsyncRecordEntry(value, this.ctx.element.timestamp));
  }

  processWatermark(timestamp: number): void {
    this.enqueue(timestamp);
    this.emitReady();
  }

  acceptsInput(): boolean {
    return this.backlog.size === 0 && this.queue.records < this.settings.capacity;
  }

  hasPendingWork(): boolean {
    return !this.queue.isEmpty || this.backlog.size > 0;
  }

  override snapshotState(checkpointId: number): void {
    super.snapshotState(checkpointId);
    const stored: StoredElement<IN>[] = [];
    const store = (e: QueuedElement<IN, OUT>) => stored.push(typeof e === "number" ? { watermark: e } : { record: e.input, timestamp: e.timestamp });
    for (const e of this.queue.elements()) store(e);
    for (const e of this.backlog) store(e);
    this.state.update(stored);
  }

  override async close(): Promise<void> {
    this.closed = true;
    this.backlog.clear();
    this.byDeadline.clear();
    this.completions = [];
    await super.close();
  }

  /** @internal Called from any callback with the outcome of an attempt: settled in a mail (one per burst). */
  deliver(completion: Completion<IN, OUT>): void {
    if (this.closed) return;
    this.completions.push(completion);
    if (this.completions.length === 1) this.ctx.mailbox.put(this.settleAll);
  }

  private readonly settleAll = (): void => {
    const batch = this.completions;
    this.completions = [];
    for (const c of batch) this.settle(c);
    this.emitReady();
  };

  /** An input (or watermark) in order: requested at once if there is room, else into the backlog. */
  private enqueue(e: QueuedElement<IN, OUT>): void {
    if (this.backlog.size > 0) this.backlog.push(e);
    else if (typeof e === "number") this.queue.addWatermark(e);
    else if (this.queue.records < this.settings.capacity) this.request(e);
    else this.backlog.push(e);
  }

  /** Starts the request of `entry` (its first attempt) with its deadline. */
  private request(entry: AsyncRecordEntry<IN, OUT>): void {
    this.queue.addRecord(entry);
    const timeout = this.settings.timeoutMs;
    if (timeout > 0) {
      entry.deadline = this.ctx.processingTime.now() + timeout;
      this.dropCompletedDeadlines();
      this.byDeadline.push(entry);
      // Behind one slow request, the completed ones would pile up (unordered output): keep only those in flight.
      if (this.byDeadline.size > 2 * this.settings.capacity + 16) this.byDeadline = inFlightOnly(this.byDeadline);
      this.armTimeout();
    }
    this.attempt(entry);
  }

  private attempt(entry: AsyncRecordEntry<IN, OUT>): void {
    entry.attempts++;
    const future = new AttemptFuture(this, entry, entry.generation, true);
    const input = this.inputCopy(entry);
    try {
      catchRejection(this.call.asyncInvoke(input, future), future);
    } catch (e) {
      future.completeExceptionally(e);
    }
  }

  /** A fresh copy of the input for user code (each attempt may mutate its own). */
  private inputCopy(entry: AsyncRecordEntry<IN, OUT>): IN {
    try {
      return copyPlainData(entry.input);
    } catch (e) {
      throw e instanceof PlainDataError ? new AsyncPlainDataError(this.description, "input", e) : e;
    }
  }

  /** On the task's turn: completes the entry, schedules a retry, or fails the task. */
  private settle(c: Completion<IN, OUT>): void {
    const { entry, outcome } = c;
    if (entry.results !== null || c.generation !== entry.generation || this.closed) return; // stale: timed out meanwhile
    const retry = this.settings.retryStrategy;
    if ("error" in outcome) {
      if (outcome.fatal) throw outcome.error;
      if (c.retryable && retry.exceptionPredicate?.(outcome.error) && this.mayRetry(entry)) return this.retryLater(entry);
      throw new AsyncFunctionError(this.description, entry.attempts, outcome.error);
    }
    if (c.retryable && retry.resultPredicate?.(outcome.results) && this.mayRetry(entry)) return this.retryLater(entry);
    entry.results = outcome.results;
    this.queue.completed(entry);
  }

  private mayRetry(entry: AsyncRecordEntry<IN, OUT>): boolean {
    return this.settings.retryStrategy.canRetry(entry.attempts) && this.ctx.processingTime.now() < entry.deadline;
  }

  private retryLater(entry: AsyncRecordEntry<IN, OUT>): void {
    const generation = entry.generation;
    const time = this.ctx.processingTime;
    time.scheduleAt(time.now() + this.settings.retryStrategy.getBackoffTimeMillis(entry.attempts), () => {
      if (!this.closed && entry.results === null && entry.generation === generation) this.attempt(entry);
    });
  }

  /** Drops the requests at the head of the deadline queue that completed. */
  private dropCompletedDeadlines(): void {
    const q = this.byDeadline;
    for (let head = q.peek(); head !== undefined && head.results !== null; head = q.peek()) q.shift();
  }

  /** One timer, for the oldest request still in flight. */
  private armTimeout(): void {
    if (this.timerArmed) return;
    this.dropCompletedDeadlines();
    const head = this.byDeadline.peek();
    if (head === undefined) return;
    this.timerArmed = true;
    this.ctx.processingTime.scheduleAt(head.deadline, this.onTimeoutTimer);
  }

  private readonly onTimeoutTimer = (): void => {
    this.timerArmed = false;
    if (this.closed) return;
    const now = this.ctx.processingTime.now();
    for (let head = this.byDeadline.peek(); head !== undefined && (head.results !== null || head.deadline <= now); head = this.byDeadline.peek()) {
      this.byDeadline.shift();
      if (head.results === null) this.timeOut(head);
    }
    this.armTimeout();
  };

  /** The request of `entry` ran out of time: later outcomes of its attempts are ignored; the timeout hook decides. */
  private timeOut(entry: AsyncRecordEntry<IN, OUT>): void {
    entry.generation++;
    if (!this.call.timeout) throw new AsyncTimeoutError(this.description, this.settings.timeoutMs, entry.attempts, entry.input);
    const future = new AttemptFuture(this, entry, entry.generation, false);
    const input = this.inputCopy(entry);
    try {
      catchRejection(this.call.timeout(input, future), future);
    } catch (e) {
      future.completeExceptionally(e);
    }
  }

  /** Emits what is due, then moves backlog inputs into the freed room (repeated while a watermark may have become due). */
  private emitReady(): void {
    const element = this.ctx.element;
    const timestamp = element.timestamp;
    for (;;) {
      this.queue.emit(this.queueOutput);
      if (!this.drainBacklog()) break;
    }
    element.timestamp = timestamp;
  }

  /** Requests backlog inputs while there is room; true if a watermark reached the queue. */
  private drainBacklog(): boolean {
    let watermark = false;
    for (let head = this.backlog.peek(); head !== undefined; head = this.backlog.peek()) {
      if (typeof head === "number") {
        this.backlog.shift();
        this.queue.addWatermark(head);
        watermark = true;
      } else if (this.queue.records < this.settings.capacity) {
        this.backlog.shift();
        this.request(head);
      } else break;
    }
    return watermark;
  }
}

/** The entries still waiting for a result, in the same order. */
function inFlightOnly<IN, OUT>(entries: Fifo<AsyncRecordEntry<IN, OUT>>): Fifo<AsyncRecordEntry<IN, OUT>> {
  const kept = new Fifo<AsyncRecordEntry<IN, OUT>>();
  for (const e of entries) if (e.results === null) kept.push(e);
  return kept;
}

/** Turns a rejection of what a user hook returned into a failed attempt. */
function catchRejection(returned: void | Promise<void>, future: ResultFuture<unknown>): void {
  if (returned && typeof (returned as Promise<void>).then === "function") (returned as Promise<void>).then(undefined, (e: unknown) => future.completeExceptionally(e));
}

/** The result future of one attempt (or of the timeout hook): the first call counts, results are copied at once. */
class AttemptFuture<IN, OUT> implements ResultFuture<OUT> {
  private done = false;

  constructor(
    private readonly operator: AsyncWaitOperator<IN, OUT>,
    private readonly entry: AsyncRecordEntry<IN, OUT>,
    private readonly generation: number,
    private readonly retryable: boolean,
  ) {}

  complete(results: readonly OUT[]): void {
    if (this.done) return;
    this.done = true;
    this.deliver(copyResults(results, this.operator.description));
  }

  completeExceptionally(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.deliver({ error, fatal: false });
  }

  private deliver(outcome: Outcome<OUT>): void {
    this.operator.deliver({ entry: this.entry, generation: this.generation, retryable: this.retryable, outcome });
  }
}

/** The results as fresh plain data, or the misuse as a fatal outcome. */
function copyResults<OUT>(results: readonly OUT[], operator: string): Outcome<OUT> {
  if (!Array.isArray(results)) return { error: new TypeError(`ResultFuture.complete() takes an array of results, got ${typeof results}`), fatal: true };
  try {
    return { results: copyPlainData(results as OUT[]) };
  } catch (e) {
    return { error: e instanceof PlainDataError ? new AsyncPlainDataError(operator, "result", e) : e, fatal: true };
  }
}
