/**
 * Restart strategies (Flink's names and defaults): whether a failed job is
 * restarted, and after how long. Pure decisions over time and a random
 * source, both injected.
 */

/** How a job restarts after a failure. */
export type RestartStrategyConfig =
  | { readonly type: "none" }
  | { readonly type: "fixed-delay"; readonly attempts: number; readonly delayMs: number }
  | {
      readonly type: "exponential-delay";
      readonly initialBackoffMs: number;
      readonly maxBackoffMs: number;
      readonly backoffMultiplier: number;
      /** After this long without failure the backoff starts again from the initial value. */
      readonly resetBackoffThresholdMs: number;
      /** 0..1: the delay varies randomly by up to this fraction. */
      readonly jitterFactor: number;
      /**
       * Restarts allowed before the job fails (default unlimited); counted
       * again from 0 when the backoff resets (Flink's attempts-before-reset-backoff).
       */
      readonly attempts?: number;
    }
  | {
      readonly type: "failure-rate";
      readonly maxFailuresPerInterval: number;
      readonly failureRateIntervalMs: number;
      readonly delayMs: number;
    };

/**
 * Restarts of the default strategy when checkpointing is on: a failure that
 * comes back this many times in a row fails the job.
 */
export const DEFAULT_RESTART_ATTEMPTS = 3;

/**
 * Builders of restart strategies.
 *
 * @example
 * ```ts
 * env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 1_000));
 * ```
 */
export const RestartStrategies = {
  /** A failure fails the job. */
  noRestart: (): RestartStrategyConfig => ({ type: "none" }),
  /** Up to `attempts` restarts, `delayMs` apart. */
  fixedDelayRestart: (attempts: number, delayMs: number): RestartStrategyConfig => ({ type: "fixed-delay", attempts, delayMs }),
  /**
   * Delays growing from `initialBackoffMs` (default 1 s) by `backoffMultiplier` (2) up to
   * `maxBackoffMs` (1 min), ±`jitterFactor` (10 %); after `resetBackoffThresholdMs` (1 h)
   * without failure the delay and the count of `attempts` (default unlimited) start over.
   */
  exponentialDelayRestart: (
    options: Partial<Omit<Extract<RestartStrategyConfig, { type: "exponential-delay" }>, "type">> = {},
  ): RestartStrategyConfig => ({
    type: "exponential-delay",
    initialBackoffMs: options.initialBackoffMs ?? 1_000,
    maxBackoffMs: options.maxBackoffMs ?? 60_000,
    backoffMultiplier: options.backoffMultiplier ?? 2,
    resetBackoffThresholdMs: options.resetBackoffThresholdMs ?? 3_600_000,
    jitterFactor: options.jitterFactor ?? 0.1,
    attempts: options.attempts,
  }),
  /** Restart unless more than `maxFailuresPerInterval` failures happened within `failureRateIntervalMs`. */
  failureRateRestart: (maxFailuresPerInterval: number, failureRateIntervalMs: number, delayMs: number): RestartStrategyConfig => ({
    type: "failure-rate",
    maxFailuresPerInterval,
    failureRateIntervalMs,
    delayMs,
  }),
};

/**
 * The restart strategy of a job that sets none, or of `weir run --restart-attempts N`
 * (`attempts`, which wins over the job's own): exponential delay (1 s, 2 s, 4 s … ±10 %)
 * for at most `attempts` restarts in a row, counted again after an hour without
 * failure. Without `attempts`: {@link DEFAULT_RESTART_ATTEMPTS} with checkpointing,
 * no restart without (Flink's rule: a restart without a checkpoint replays everything).
 *
 * @example
 * ```ts
 * defaultRestartStrategy(true);     // exponential delay, 3 attempts
 * defaultRestartStrategy(false, 5); // exponential delay, 5 attempts
 * defaultRestartStrategy(true, 0);  // no restart
 * ```
 */
export function defaultRestartStrategy(checkpointing: boolean, attempts?: number): RestartStrategyConfig {
  const n = attempts ?? (checkpointing ? DEFAULT_RESTART_ATTEMPTS : 0);
  return n > 0 ? RestartStrategies.exponentialDelayRestart({ attempts: n }) : RestartStrategies.noRestart();
}

/** The decision after one failure. */
export interface RestartDecision {
  readonly restart: boolean;
  readonly delayMs: number;
  /** Why not, when `restart` is false. */
  readonly reason?: string;
}

/** Tracks failures of one job and decides on restarts. */
export class RestartBackoff {
  private failures: number[] = [];
  private restarts = 0;
  private backoff = 0;
  private lastFailure = -Infinity;

  constructor(
    private readonly config: RestartStrategyConfig,
    private readonly random: () => number = Math.random,
  ) {}

  /** Records a failure at time `now` and decides. */
  onFailure(now: number): RestartDecision {
    const c = this.config;
    switch (c.type) {
      case "none":
        return { restart: false, delayMs: 0, reason: "the restart strategy is 'none'" };
      case "fixed-delay":
        if (this.restarts >= c.attempts) return { restart: false, delayMs: 0, reason: `restarted ${this.restarts} times (limit ${c.attempts})` };
        this.restarts++;
        return { restart: true, delayMs: c.delayMs };
      case "failure-rate": {
        this.failures = this.failures.filter((t) => now - t < c.failureRateIntervalMs);
        this.failures.push(now);
        if (this.failures.length > c.maxFailuresPerInterval)
          return { restart: false, delayMs: 0, reason: `${this.failures.length} failures within ${c.failureRateIntervalMs} ms (limit ${c.maxFailuresPerInterval})` };
        return { restart: true, delayMs: c.delayMs };
      }
      case "exponential-delay": {
        const reset = now - this.lastFailure >= c.resetBackoffThresholdMs;
        if (reset) this.restarts = 0;
        if (c.attempts !== undefined && this.restarts >= c.attempts)
          return { restart: false, delayMs: 0, reason: `restarted ${this.restarts} times (limit ${c.attempts})` };
        if (reset) this.backoff = c.initialBackoffMs;
        else this.backoff = Math.min(c.maxBackoffMs, this.backoff * c.backoffMultiplier);
        this.lastFailure = now;
        this.restarts++;
        const jitter = 1 + c.jitterFactor * (2 * this.random() - 1);
        return { restart: true, delayMs: Math.max(0, Math.round(this.backoff * jitter)) };
      }
    }
  }
}
