/**
 * Async I/O (Flink's `AsyncDataStream`): calls an external system (a
 * database, an HTTP service) once per record without blocking the task and
 * without losing exactly-once: the requests in flight are part of every
 * checkpoint and are sent again after a restore.
 */
import type { AsyncFunctionLike } from "../core/async-function.ts";
import { AsyncRetryStrategies, type AsyncRetryStrategy } from "../core/async-retry-strategy.ts";
import { AsyncWaitOperator } from "../runtime/operators/async-wait-operator.ts";
import { cloneFunction, SingleOutputStreamOperator, type DataStream } from "./data-stream.ts";

/** Records in the operator at most when no capacity is given (Flink's default). */
export const DEFAULT_ASYNC_CAPACITY = 100;

/**
 * Adds async I/O to a stream: `orderedWait` emits the results in the order of
 * the inputs, `unorderedWait` as the requests complete (lower latency), but
 * never across a watermark. One shape for both, with Flink's argument order:
 * `(stream, asyncFunction, timeoutMs, capacity?, retryStrategy?)` (there are
 * no separate `...WithRetry` methods: give the strategy as the last argument).
 *
 * The async function is a lambda returning a Promise of one result or of an
 * array of results, an object with `asyncInvoke(input, resultFuture)` (and an
 * optional `timeout` hook), or a class extending `RichAsyncFunction`.
 *
 * @example
 * ```ts
 * import { AsyncDataStream, AsyncRetryStrategies, RetryPredicates, StreamExecutionEnvironment } from "weirjs";
 *
 * const env = StreamExecutionEnvironment.getExecutionEnvironment();
 * env.enableCheckpointing(1_000, "exactly-once");
 * const orders = env.fromElements({ id: 1, customer: "c-7" }, { id: 2, customer: "c-9" });
 * const retry = new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<{ id: number; name: string }>(3, 100)
 *   .ifException(RetryPredicates.HAS_EXCEPTION_PREDICATE)
 *   .build();
 * AsyncDataStream.orderedWait(
 *   orders,
 *   async (order) => {
 *     const res = await fetch(`http://crm.internal/customers/${order.customer}`);
 *     return { id: order.id, name: ((await res.json()) as { name: string }).name };
 *   },
 *   2_000, // ms for all attempts of one order
 *   50, // requests in flight at most
 *   retry,
 * ).print();
 * await env.execute("enrich-orders");
 * ```
 */
export class AsyncDataStream {
  private constructor() {}

  /**
   * Async I/O whose results leave in the order of the inputs.
   *
   * @param stream - the input records
   * @param asyncFunction - the request per record (lambda, object or `RichAsyncFunction`)
   * @param timeoutMs - time for all attempts of one input; 0: no timeout
   * @param capacity - inputs in the operator at most (in flight or waiting for their turn); at capacity the operator takes no input (backpressure)
   * @param retryStrategy - when to try a request again (default: never)
   */
  static orderedWait<IN, OUT>(
    stream: DataStream<IN>,
    asyncFunction: AsyncFunctionLike<IN, OUT>,
    timeoutMs: number,
    capacity: number = DEFAULT_ASYNC_CAPACITY,
    retryStrategy: AsyncRetryStrategy<OUT> = AsyncRetryStrategies.NO_RETRY_STRATEGY,
  ): SingleOutputStreamOperator<OUT> {
    return addAsyncWait(stream, asyncFunction, "ordered", timeoutMs, capacity, retryStrategy);
  }

  /**
   * Async I/O whose results leave as the requests complete. Watermarks keep their
   * place: the results of the inputs before a watermark are emitted before it,
   * those of the inputs after it, after it.
   *
   * @param stream - the input records
   * @param asyncFunction - the request per record (lambda, object or `RichAsyncFunction`)
   * @param timeoutMs - time for all attempts of one input; 0: no timeout
   * @param capacity - inputs in the operator at most (in flight or completed and not emitted yet); at capacity the operator takes no input (backpressure)
   * @param retryStrategy - when to try a request again (default: never)
   */
  static unorderedWait<IN, OUT>(
    stream: DataStream<IN>,
    asyncFunction: AsyncFunctionLike<IN, OUT>,
    timeoutMs: number,
    capacity: number = DEFAULT_ASYNC_CAPACITY,
    retryStrategy: AsyncRetryStrategy<OUT> = AsyncRetryStrategies.NO_RETRY_STRATEGY,
  ): SingleOutputStreamOperator<OUT> {
    return addAsyncWait(stream, asyncFunction, "unordered", timeoutMs, capacity, retryStrategy);
  }
}

function addAsyncWait<IN, OUT>(
  stream: DataStream<IN>,
  fn: AsyncFunctionLike<IN, OUT>,
  outputMode: "ordered" | "unordered",
  timeoutMs: number,
  capacity: number,
  retryStrategy: AsyncRetryStrategy<OUT>,
): SingleOutputStreamOperator<OUT> {
  const where = `AsyncDataStream.${outputMode}Wait`;
  if (typeof fn !== "function" && typeof (fn as { asyncInvoke?: unknown } | null)?.asyncInvoke !== "function")
    throw new TypeError(`${where}: the async function must be a function returning a Promise, or an object with asyncInvoke(input, resultFuture)`);
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) throw new RangeError(`${where}: timeoutMs must be a finite number of milliseconds >= 0 (0: no timeout), got ${timeoutMs}`);
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`${where}: capacity must be a whole number >= 1, got ${capacity}`);
  const env = stream.getExecutionEnvironment();
  const node = env.addNode({
    type: "async-wait",
    name: `AsyncWait(${outputMode})`,
    inputs: stream.upstreams.map((u) => ({ from: u.node, partitioning: u.partitioning ?? "forward", keySelector: u.keySelector, sideTag: u.sideTag })),
    createOperator: () => new AsyncWaitOperator<IN, OUT>(cloneFunction(fn), { outputMode, timeoutMs, capacity, retryStrategy }),
  });
  return new SingleOutputStreamOperator<OUT>(env, node);
}
