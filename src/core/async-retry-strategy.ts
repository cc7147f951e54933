/**
 * When and how often async I/O tries a request again (Flink's
 * `AsyncRetryStrategy` and `AsyncRetryStrategies`): on an error and/or on
 * results that match a predicate, up to a number of attempts, after a fixed
 * or exponentially growing delay. The operator's timeout covers all attempts
 * of an input together.
 */

/** Decides the retries of one input's request. */
export interface AsyncRetryStrategy<OUT> {
  /** Whether another attempt may follow after `attempts` attempts (the first included) ended. */
  canRetry(attempts: number): boolean;
  /** Delay in ms before the attempt that follows `attempts` attempts. */
  getBackoffTimeMillis(attempts: number): number;
  /** Retry when an attempt completed with results for which this returns true (e.g. none found yet). */
  readonly resultPredicate?: (results: readonly OUT[]) => boolean;
  /** Retry when an attempt failed with an error for which this returns true. */
  readonly exceptionPredicate?: (error: unknown) => boolean;
}

/** The predicates Flink ships (`RetryPredicates`). */
export const RetryPredicates = {
  /** Retries an attempt that completed without results. */
  EMPTY_RESULT_PREDICATE: (results: readonly unknown[]): boolean => results.length === 0,
  /** Retries every failed attempt. */
  HAS_EXCEPTION_PREDICATE: (): boolean => true,
} as const;

/** The settings a strategy builder collects. */
interface RetrySettings<OUT> {
  readonly maxAttempts: number;
  readonly backoff: (attempts: number) => number;
  readonly resultPredicate?: (results: readonly OUT[]) => boolean;
  readonly exceptionPredicate?: (error: unknown) => boolean;
}

function strategyOf<OUT>(s: RetrySettings<OUT>): AsyncRetryStrategy<OUT> {
  return {
    canRetry: (attempts) => attempts < s.maxAttempts,
    getBackoffTimeMillis: s.backoff,
    resultPredicate: s.resultPredicate,
    exceptionPredicate: s.exceptionPredicate,
  };
}

function checkAttempts(maxAttempts: number): void {
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`maxAttempts must be an integer of at least 1, got ${maxAttempts}`);
}

function checkDelay(name: string, ms: number): void {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`${name} must be a finite number of milliseconds >= 0, got ${ms}`);
}

/** Collects the predicates of a strategy; `build()` makes it. */
abstract class RetryStrategyBuilder<OUT> {
  protected resultPredicate?: (results: readonly OUT[]) => boolean;
  protected exceptionPredicate?: (error: unknown) => boolean;

  /** Retry when an attempt's results match (e.g. `RetryPredicates.EMPTY_RESULT_PREDICATE`). */
  ifResult(predicate: (results: readonly OUT[]) => boolean): this {
    this.resultPredicate = predicate;
    return this;
  }

  /** Retry when an attempt fails with a matching error (e.g. `RetryPredicates.HAS_EXCEPTION_PREDICATE`). */
  ifException(predicate: (error: unknown) => boolean): this {
    this.exceptionPredicate = predicate;
    return this;
  }

  abstract build(): AsyncRetryStrategy<OUT>;
}

/** Retries after the same delay every time. */
class FixedDelayRetryStrategyBuilder<OUT> extends RetryStrategyBuilder<OUT> {
  /**
   * @param maxAttempts - attempts of one input at most, the first included (3: the first and up to 2 retries)
   * @param backoffTimeMillis - delay before each retry
   */
  constructor(
    private readonly maxAttempts: number,
    private readonly backoffTimeMillis: number,
  ) {
    super();
    checkAttempts(maxAttempts);
    checkDelay("backoffTimeMillis", backoffTimeMillis);
  }

  build(): AsyncRetryStrategy<OUT> {
    const delay = this.backoffTimeMillis;
    return strategyOf({ maxAttempts: this.maxAttempts, backoff: () => delay, resultPredicate: this.resultPredicate, exceptionPredicate: this.exceptionPredicate });
  }
}

/** Retries after `initialDelay`, then each delay `multiplier` times the last, at most `maxRetryDelay`. */
class ExponentialBackoffDelayRetryStrategyBuilder<OUT> extends RetryStrategyBuilder<OUT> {
  /**
   * @param maxAttempts - attempts of one input at most, the first included
   * @param initialDelay - delay before the first retry (ms)
   * @param maxRetryDelay - longest delay (ms)
   * @param multiplier - growth of the delay from one retry to the next (>= 1)
   */
  constructor(
    private readonly maxAttempts: number,
    private readonly initialDelay: number,
    private readonly maxRetryDelay: number,
    private readonly multiplier: number,
  ) {
    super();
    checkAttempts(maxAttempts);
    checkDelay("initialDelay", initialDelay);
    checkDelay("maxRetryDelay", maxRetryDelay);
    if (!(multiplier >= 1) || !Number.isFinite(multiplier)) throw new RangeError(`multiplier must be a finite number >= 1, got ${multiplier}`);
  }

  build(): AsyncRetryStrategy<OUT> {
    const { initialDelay, maxRetryDelay, multiplier } = this;
    return strategyOf({
      maxAttempts: this.maxAttempts,
      // A pure function of the attempt number: inputs in flight together do not share a delay.
      backoff: (attempts) => Math.min(maxRetryDelay, initialDelay * multiplier ** (attempts - 1)),
      resultPredicate: this.resultPredicate,
      exceptionPredicate: this.exceptionPredicate,
    });
  }
}

/**
 * The built-in retry strategies.
 *
 * @example
 * ```ts
 * import { AsyncDataStream, AsyncRetryStrategies, RetryPredicates, type DataStream } from "weirjs";
 *
 * interface Price { symbol: string; price: number }
 * declare const symbols: DataStream<string>;
 * declare function quote(symbol: string): Promise<Price>;
 *
 * const retry = new AsyncRetryStrategies.ExponentialBackoffDelayRetryStrategyBuilder<Price>(5, 10, 1_000, 2)
 *   .ifException(RetryPredicates.HAS_EXCEPTION_PREDICATE)
 *   .ifResult(RetryPredicates.EMPTY_RESULT_PREDICATE)
 *   .build();
 * const prices = AsyncDataStream.unorderedWait(symbols, (s) => quote(s), 5_000, 100, retry);
 * ```
 */
export const AsyncRetryStrategies = {
  /** Never retries (the default). */
  NO_RETRY_STRATEGY: strategyOf<unknown>({ maxAttempts: 1, backoff: () => 0 }),
  FixedDelayRetryStrategyBuilder,
  ExponentialBackoffDelayRetryStrategyBuilder,
} as const;
