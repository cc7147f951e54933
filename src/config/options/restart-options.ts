/**
 * Options of the restart strategy (Flink's `RestartStrategyOptions`). Unset
 * `restart-strategy.type`: the job's own strategy, else exponential delay
 * for 3 restarts in a row with checkpointing and none without.
 */
import { ConfigOptions } from "../config-option.ts";

const atLeast = (min: number) => (n: number) => (n >= min ? undefined : `a number ≥ ${min}`);

/** `restart-strategy.type`. */
export const RESTART_STRATEGY = ConfigOptions.enumeration(
  "restart-strategy.type",
  ["none", "fixed-delay", "exponential-delay", "failure-rate"],
  "What happens after a failure: none, fixed-delay, exponential-delay or failure-rate; unset: the job's strategy, else exponential-delay (3 attempts) with checkpointing and none without.",
);

export const FIXED_DELAY_ATTEMPTS = ConfigOptions.int("restart-strategy.fixed-delay.attempts", "Restarts of the fixed-delay strategy before the job fails.", 1, { check: atLeast(0) });
export const FIXED_DELAY_DELAY = ConfigOptions.duration("restart-strategy.fixed-delay.delay", "The delay between two restarts of the fixed-delay strategy.", 1_000);

export const EXPONENTIAL_INITIAL_BACKOFF = ConfigOptions.duration("restart-strategy.exponential-delay.initial-backoff", "The first delay of the exponential-delay strategy.", 1_000);
export const EXPONENTIAL_MAX_BACKOFF = ConfigOptions.duration("restart-strategy.exponential-delay.max-backoff", "The largest delay of the exponential-delay strategy.", 60_000);
export const EXPONENTIAL_MULTIPLIER = ConfigOptions.double(
  "restart-strategy.exponential-delay.backoff-multiplier",
  "The factor by which the delay of the exponential-delay strategy grows after each failure.",
  2,
  { check: atLeast(1) },
);
export const EXPONENTIAL_RESET_THRESHOLD = ConfigOptions.duration(
  "restart-strategy.exponential-delay.reset-backoff-threshold",
  "After this long without failure the exponential delay and its count of attempts start over.",
  3_600_000,
);
export const EXPONENTIAL_JITTER = ConfigOptions.double(
  "restart-strategy.exponential-delay.jitter-factor",
  "The fraction (0 to 1) by which each exponential delay varies at random.",
  0.1,
  { check: (f) => (f >= 0 && f <= 1 ? undefined : "a number from 0 to 1") },
);
export const EXPONENTIAL_ATTEMPTS = ConfigOptions.int(
  "restart-strategy.exponential-delay.attempts-before-reset-backoff",
  "Restarts of the exponential-delay strategy before the job fails (counted again after a reset); unset: unlimited.",
  undefined,
  { check: atLeast(0) },
);

export const FAILURE_RATE_MAX_FAILURES = ConfigOptions.int(
  "restart-strategy.failure-rate.max-failures-per-interval",
  "Failures within the interval of the failure-rate strategy before the job fails.",
  1,
  { check: atLeast(1) },
);
export const FAILURE_RATE_INTERVAL = ConfigOptions.duration("restart-strategy.failure-rate.failure-rate-interval", "The interval in which the failure-rate strategy counts failures.", 60_000);
export const FAILURE_RATE_DELAY = ConfigOptions.duration("restart-strategy.failure-rate.delay", "The delay between two restarts of the failure-rate strategy.", 1_000);

export const RESTART_OPTIONS = [
  RESTART_STRATEGY,
  FIXED_DELAY_ATTEMPTS,
  FIXED_DELAY_DELAY,
  EXPONENTIAL_INITIAL_BACKOFF,
  EXPONENTIAL_MAX_BACKOFF,
  EXPONENTIAL_MULTIPLIER,
  EXPONENTIAL_RESET_THRESHOLD,
  EXPONENTIAL_JITTER,
  EXPONENTIAL_ATTEMPTS,
  FAILURE_RATE_MAX_FAILURES,
  FAILURE_RATE_INTERVAL,
  FAILURE_RATE_DELAY,
] as const;
