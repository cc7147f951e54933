/**
 * The restart strategy as `restart-strategy.*` keys: `env.setRestartStrategy`
 * writes them, the launch reads them (so `-D restart-strategy.type=none` or
 * `--restart-attempts` on the command line wins over the job's call).
 */
import type { Configuration } from "../config/configuration.ts";
import {
  EXPONENTIAL_ATTEMPTS,
  EXPONENTIAL_INITIAL_BACKOFF,
  EXPONENTIAL_JITTER,
  EXPONENTIAL_MAX_BACKOFF,
  EXPONENTIAL_MULTIPLIER,
  EXPONENTIAL_RESET_THRESHOLD,
  FAILURE_RATE_DELAY,
  FAILURE_RATE_INTERVAL,
  FAILURE_RATE_MAX_FAILURES,
  FIXED_DELAY_ATTEMPTS,
  FIXED_DELAY_DELAY,
  RESTART_STRATEGY,
} from "../config/options/restart-options.ts";
import { defaultRestartStrategy, RestartStrategies, type RestartStrategyConfig } from "../runtime/execution/restart-strategy.ts";

/** Writes `strategy` into `c` as `restart-strategy.*` keys. */
export function writeRestartStrategy(c: Configuration, strategy: RestartStrategyConfig): void {
  c.set(RESTART_STRATEGY, strategy.type);
  switch (strategy.type) {
    case "none":
      return;
    case "fixed-delay":
      c.set(FIXED_DELAY_ATTEMPTS, strategy.attempts).set(FIXED_DELAY_DELAY, strategy.delayMs);
      return;
    case "exponential-delay":
      c.set(EXPONENTIAL_INITIAL_BACKOFF, strategy.initialBackoffMs)
        .set(EXPONENTIAL_MAX_BACKOFF, strategy.maxBackoffMs)
        .set(EXPONENTIAL_MULTIPLIER, strategy.backoffMultiplier)
        .set(EXPONENTIAL_RESET_THRESHOLD, strategy.resetBackoffThresholdMs)
        .set(EXPONENTIAL_JITTER, strategy.jitterFactor);
      if (strategy.attempts === undefined) c.remove(EXPONENTIAL_ATTEMPTS);
      else c.set(EXPONENTIAL_ATTEMPTS, strategy.attempts);
      return;
    case "failure-rate":
      c.set(FAILURE_RATE_MAX_FAILURES, strategy.maxFailuresPerInterval).set(FAILURE_RATE_INTERVAL, strategy.failureRateIntervalMs).set(FAILURE_RATE_DELAY, strategy.delayMs);
      return;
  }
}

/**
 * The restart strategy `c` configures; without `restart-strategy.type`, the default
 * (exponential delay for 3 attempts with checkpointing, none without).
 */
export function restartStrategyOf(c: Configuration, checkpointing: boolean): RestartStrategyConfig {
  switch (c.get(RESTART_STRATEGY)) {
    case undefined:
      return defaultRestartStrategy(checkpointing);
    case "none":
      return RestartStrategies.noRestart();
    case "fixed-delay":
      return RestartStrategies.fixedDelayRestart(c.get(FIXED_DELAY_ATTEMPTS), c.get(FIXED_DELAY_DELAY));
    case "exponential-delay":
      return RestartStrategies.exponentialDelayRestart({
        initialBackoffMs: c.get(EXPONENTIAL_INITIAL_BACKOFF),
        maxBackoffMs: c.get(EXPONENTIAL_MAX_BACKOFF),
        backoffMultiplier: c.get(EXPONENTIAL_MULTIPLIER),
        resetBackoffThresholdMs: c.get(EXPONENTIAL_RESET_THRESHOLD),
        jitterFactor: c.get(EXPONENTIAL_JITTER),
        attempts: c.get(EXPONENTIAL_ATTEMPTS),
      });
    case "failure-rate":
      return RestartStrategies.failureRateRestart(c.get(FAILURE_RATE_MAX_FAILURES), c.get(FAILURE_RATE_INTERVAL), c.get(FAILURE_RATE_DELAY));
  }
}
