/**
 * Options of checkpointing (Flink's `CheckpointingOptions`): interval,
 * guarantee, timeout, pauses, concurrency, tolerated failures, retention.
 */
import { ConfigOptions } from "../config-option.ts";

const atLeast = (min: number) => (n: number) => (n >= min ? undefined : `a whole number ≥ ${min}`);

/** `execution.checkpointing.interval`: unset or 0 disables checkpointing. */
export const CHECKPOINTING_INTERVAL = ConfigOptions.duration(
  "execution.checkpointing.interval",
  "How often a checkpoint is taken; unset or 0 disables checkpointing.",
);

/** `execution.checkpointing.mode`: the delivery guarantee. */
export const CHECKPOINTING_MODE = ConfigOptions.enumeration(
  "execution.checkpointing.mode",
  ["EXACTLY_ONCE", "AT_LEAST_ONCE", "AT_MOST_ONCE"],
  "The guarantee of checkpoints: EXACTLY_ONCE (aligned barriers), AT_LEAST_ONCE (no alignment) or AT_MOST_ONCE (Weir's: no replay after a failure).",
  "EXACTLY_ONCE",
);

/** `execution.checkpointing.timeout`. */
export const CHECKPOINTING_TIMEOUT = ConfigOptions.duration(
  "execution.checkpointing.timeout",
  "A checkpoint not complete after this long is aborted.",
  600_000,
  { check: (ms) => (ms > 0 ? undefined : "a duration > 0") },
);

/** `execution.checkpointing.min-pause`. */
export const CHECKPOINTING_MIN_PAUSE = ConfigOptions.duration(
  "execution.checkpointing.min-pause",
  "The least time between the end of one checkpoint and the start of the next periodic one.",
  0,
);

/** `execution.checkpointing.max-concurrent-checkpoints`. */
export const MAX_CONCURRENT_CHECKPOINTS = ConfigOptions.int(
  "execution.checkpointing.max-concurrent-checkpoints",
  "The periodic checkpoints in flight at once (savepoints and a bounded job's final checkpoint are not counted).",
  1,
  { check: atLeast(1) },
);

/** `execution.checkpointing.tolerable-failed-checkpoints`. */
export const TOLERABLE_FAILED_CHECKPOINTS = ConfigOptions.int(
  "execution.checkpointing.tolerable-failed-checkpoints",
  "Failed checkpoints in a row tolerated before the job fails over.",
  0,
  { check: atLeast(0) },
);

/** `execution.checkpointing.num-retained` (older `state.checkpoints.num-retained`). */
export const NUM_RETAINED_CHECKPOINTS = ConfigOptions.int(
  "execution.checkpointing.num-retained",
  "The completed checkpoints kept. Older ones are deleted after a newer one completed, in the background (the checkpoint does not wait for it; the job's end does).",
  1,
  { check: atLeast(1), aliases: ["state.checkpoints.num-retained"] },
);

export const CHECKPOINTING_OPTIONS = [
  CHECKPOINTING_INTERVAL,
  CHECKPOINTING_MODE,
  CHECKPOINTING_TIMEOUT,
  CHECKPOINTING_MIN_PAUSE,
  MAX_CONCURRENT_CHECKPOINTS,
  TOLERABLE_FAILED_CHECKPOINTS,
  NUM_RETAINED_CHECKPOINTS,
] as const;
