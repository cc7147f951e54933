/**
 * The function of async I/O (Flink's `AsyncFunction`): one request to an
 * external system per record, its results delivered later. Given as a
 * lambda returning a Promise, as an object with `asyncInvoke` (and
 * optionally `timeout`), or as a class extending `RichAsyncFunction` for
 * `open`/`close` and the runtime context.
 */
import { RichFunction } from "./rich-function.ts";

/**
 * Where one request delivers its outcome (Flink's `ResultFuture`). Only the
 * first call counts; later calls are ignored. It may be called from any
 * callback (a Promise's, a client library's): the operator hands the
 * outcome to its task, which emits the results at a safe point.
 */
export interface ResultFuture<OUT> {
  /** The request succeeded with these results (none, one or several records). They are copied at once: mutate them afterwards freely. */
  complete(results: readonly OUT[]): void;
  /** The request failed: retried if the retry strategy says so, else the job fails with this error. */
  completeExceptionally(error: unknown): void;
}

/**
 * An async function as an object: `asyncInvoke` starts the request for one
 * input and completes the result future when it ends; `timeout` decides what
 * happens when the request did not complete in time (by default the job
 * fails with an `AsyncTimeoutError`).
 *
 * @example
 * ```ts
 * import { AsyncDataStream, type DataStream, type ResultFuture } from "weirjs";
 *
 * declare const ids: DataStream<number>;
 * declare function lookUpName(id: number): Promise<string>;
 *
 * const named = AsyncDataStream.orderedWait(ids, {
 *   asyncInvoke(id, result: ResultFuture<string>) {
 *     lookUpName(id).then((name) => result.complete([name]), (e) => result.completeExceptionally(e));
 *   },
 *   timeout(id, result) {
 *     result.complete([`unknown-${id}`]); // a default instead of a failure
 *   },
 * }, 1_000);
 * ```
 */
export interface AsyncFunction<IN, OUT> {
  /**
   * Starts the request for `input` (a copy of the record: each attempt gets its own).
   * A thrown error or a rejected returned Promise fails the attempt as `completeExceptionally` does.
   */
  asyncInvoke(input: IN, resultFuture: ResultFuture<OUT>): void | Promise<void>;
  /** Called once when the request (all its attempts) exceeded the timeout; complete the future here (with results or an error). */
  timeout?(input: IN, resultFuture: ResultFuture<OUT>): void | Promise<void>;
}

/**
 * The shortest async function: the request as a function returning a
 * Promise of one result, or of an array of results (several records, or
 * none). To emit one record that is itself an array, wrap it: `[[a, b]]`.
 */
export type AsyncLambda<IN, OUT> = (input: IN) => PromiseLike<OUT | readonly OUT[]>;

/**
 * An async function with the lifecycle of a rich function: `open` (after
 * state was restored, before the first request), `close`, and
 * `getRuntimeContext()` (subtask index, attempt number).
 *
 * @example
 * ```ts
 * import { RichAsyncFunction, type ResultFuture } from "weirjs";
 *
 * interface Order { id: number; customerId: string }
 * interface EnrichedOrder extends Order { customerName: string }
 * declare class CustomerClient { get(id: string): Promise<{ name: string }>; end(): void }
 *
 * class Enrich extends RichAsyncFunction<Order, EnrichedOrder> {
 *   private client!: CustomerClient;
 *   open() { this.client = new CustomerClient(); }
 *   async asyncInvoke(order: Order, result: ResultFuture<EnrichedOrder>) {
 *     const customer = await this.client.get(order.customerId);
 *     result.complete([{ ...order, customerName: customer.name }]);
 *   }
 *   close() { this.client.end(); }
 * }
 * ```
 */
export abstract class RichAsyncFunction<IN, OUT> extends RichFunction implements AsyncFunction<IN, OUT> {
  abstract asyncInvoke(input: IN, resultFuture: ResultFuture<OUT>): void | Promise<void>;
  timeout?(input: IN, resultFuture: ResultFuture<OUT>): void | Promise<void>;
}

/** Where to turn when a synchronous function got (or returned) a Promise: appended to those errors. */
export const ASYNC_IO_HINT =
  "call asynchronous code (a database, an HTTP service) with AsyncDataStream.orderedWait(stream, fn, timeoutMs) or AsyncDataStream.unorderedWait(...), " +
  "which run the requests concurrently, emit their results and keep exactly-once (see docs/async-io.md)";

/** What `AsyncDataStream` accepts: a lambda, an object literal or a class instance. */
export type AsyncFunctionLike<IN, OUT> = AsyncLambda<IN, OUT> | AsyncFunction<IN, OUT>;

/** Normalizes an async function to the object form (a lambda completes the future with its Promise's value). */
export function asAsyncFunction<IN, OUT>(f: AsyncFunctionLike<IN, OUT>): AsyncFunction<IN, OUT> {
  if (typeof f !== "function") return f;
  return {
    asyncInvoke: (input, resultFuture) =>
      Promise.resolve(f(input)).then(
        (r) => resultFuture.complete(Array.isArray(r) ? (r as readonly OUT[]) : [r as OUT]),
        (e: unknown) => resultFuture.completeExceptionally(e),
      ),
  };
}
