/**
 * Weir's own options, without a Flink counterpart: they start with `weir.`
 * (the task cancellation timeout keeps Flink's key, `task.cancellation.timeout`).
 */
import { ConfigOptions } from "../config-option.ts";

/** `weir.workers`: worker threads; 0 runs every task in the calling thread. */
export const WORKERS = ConfigOptions.int(
  "weir.workers",
  "Worker threads for the tasks (0: all in the calling thread; at most 2 per CPU core); weir run defaults to 1, StreamExecutionEnvironment.create to 0.",
  undefined,
  { check: (n) => (n >= 0 ? undefined : "a whole number ≥ 0") },
);

/** `weir.batch-size`: records per batch on channels. */
export const BATCH_SIZE = ConfigOptions.int("weir.batch-size", "Records per batch on the channels between tasks.", 512, {
  check: (n) => (n > 0 ? undefined : "a whole number > 0"),
});

/** `weir.fresh`: ignore existing checkpoints. */
export const FRESH = ConfigOptions.boolean("weir.fresh", "Whether the run ignores the checkpoints in its directory and starts over.", false);

/** `task.cancellation.timeout`: Flink's key, Weir's default. */
export const TASK_CANCELLATION_TIMEOUT = ConfigOptions.duration(
  "task.cancellation.timeout",
  "After a stop request, how long a task stuck in user code may take before weir names it and exits 1.",
  30_000,
  { check: (ms) => (ms > 0 ? undefined : "a duration > 0") },
);

export const WEIR_OPTIONS = [WORKERS, BATCH_SIZE, FRESH, TASK_CANCELLATION_TIMEOUT] as const;
