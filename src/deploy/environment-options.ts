/**
 * Settings of an execution environment given in code:
 * `StreamExecutionEnvironment.create(options)`. The engine settings among them
 * are shorthands of configuration keys ({@link configurationOfOptions}); the
 * rest (clock, job module, log, seed) are not configuration.
 */
import type { CheckpointingMode } from "../checkpoint/types.ts";
import type { ConfigOption, OptionValue } from "../config/config-option.ts";
import { Configuration } from "../config/configuration.ts";
import { CHECKPOINTING_INTERVAL, CHECKPOINTING_MODE } from "../config/options/checkpointing-options.ts";
import { AUTO_WATERMARK_INTERVAL, MAX_PARALLELISM, PARALLELISM } from "../config/options/pipeline-options.ts";
import { EXPONENTIAL_ATTEMPTS, RESTART_STRATEGY } from "../config/options/restart-options.ts";
import { CHECKPOINT_STORAGE, CHECKPOINTS_DIRECTORY, IGNORE_UNCLAIMED_STATE, SAVEPOINT_PATH, STATE_BACKEND } from "../config/options/state-options.ts";
import { BATCH_SIZE, FRESH, WORKERS } from "../config/options/weir-options.ts";
import type { StateBackendName } from "../state/state-backend-settings.ts";
import type { Clock } from "../util/clock.ts";

export interface EnvironmentOptions {
  /** Configuration keys (docs/configuration.md); the shorthands below win over the same keys in it. */
  configuration?: Configuration;
  /** `parallelism.default`: default parallelism of operators (default 1). */
  parallelism?: number;
  /** `pipeline.max-parallelism`: key groups, the upper bound of rescaling (default 128). */
  maxParallelism?: number;
  /** `weir.workers`: worker threads; 0 runs every task in the calling thread (default 0 for `create`, 1 for `weir run`). */
  workers?: number;
  /** `execution.checkpointing.interval` in ms; 0 disables checkpointing. */
  checkpointInterval?: number;
  /** `execution.checkpointing.mode`. */
  mode?: CheckpointingMode;
  /** `state.backend.type`: the keyed state backend. */
  stateBackend?: StateBackendName;
  /** `state.checkpoints.dir`: directory of filesystem checkpoints; `<job>` is replaced by the job name. */
  checkpointDir?: string;
  /** Directory of filesystem checkpoints when no checkpoint storage is configured (`weir run`: `.weir/checkpoints/<job>`). */
  defaultCheckpointDir?: string;
  /** `weir.fresh`: ignore existing checkpoints and start over. */
  fresh?: boolean;
  /** `execution.savepoint.path`: start from this savepoint (a directory written by stopWithSavepoint/triggerSavepoint). */
  fromSavepoint?: string;
  /** `execution.savepoint.ignore-unclaimed-state`: with `fromSavepoint`, drop state of operators the job no longer has instead of failing. */
  allowNonRestoredState?: boolean;
  /**
   * Restarts allowed after failures in a row, with exponential back-off (1 s, 2 s, 4 s …); 0: none
   * (`restart-strategy.type` = `exponential-delay` with `…attempts-before-reset-backoff`, or `none`).
   * Default: the job's strategy, else 3 with checkpointing and none without.
   */
  restartAttempts?: number;
  /** `weir.batch-size`: records per batch on channels (default 512). */
  batchSize?: number;
  /** `pipeline.auto-watermark-interval` in ms (default 200; 0 disables). */
  autoWatermarkInterval?: number;
  /** Time source (tests). */
  clock?: Clock;
  /** Module that worker threads import to rebuild the job (`import.meta.url` of the job file) when `workers` > 0 outside `weir run`. */
  jobModule?: string;
  /** Seed of the restart jitter (tests). */
  random?: () => number;
  /**
   * Receives the job's log lines as text (`restored from checkpoint 3 …`, `warning: …`)
   * instead of the thread's logger (`getLogger()`, standard error), at the logger's
   * level; e.g. to collect them in a test. Sinks and worker threads still log through `getLogger()`.
   */
  log?: (line: string) => void;
}

/** `exactly-once` as the key's `EXACTLY_ONCE`. */
export function checkpointingModeKey(mode: CheckpointingMode): "EXACTLY_ONCE" | "AT_LEAST_ONCE" | "AT_MOST_ONCE" {
  return mode.toUpperCase().replaceAll("-", "_") as "EXACTLY_ONCE" | "AT_LEAST_ONCE" | "AT_MOST_ONCE";
}

/**
 * The configuration `o` stands for: its `configuration` with the shorthands set on top.
 *
 * @example
 * ```ts
 * configurationOfOptions({ parallelism: 2, checkpointInterval: 500 }).toMap();
 * // { "execution.checkpointing.interval": "500 ms", "parallelism.default": "2" }
 * ```
 */
export function configurationOfOptions(o: EnvironmentOptions, where = "StreamExecutionEnvironment.create"): Configuration {
  const c = o.configuration?.clone() ?? new Configuration();
  const set = <T extends OptionValue>(option: ConfigOption<T>, value: T | undefined, name: string) => {
    if (value !== undefined) c.set(option, value, `${where}({ ${name} })`);
  };
  set(PARALLELISM, o.parallelism, "parallelism");
  set(MAX_PARALLELISM, o.maxParallelism, "maxParallelism");
  set(WORKERS, o.workers, "workers");
  set(CHECKPOINTING_INTERVAL, o.checkpointInterval, "checkpointInterval");
  set(CHECKPOINTING_MODE, o.mode === undefined ? undefined : checkpointingModeKey(o.mode), "mode");
  set(STATE_BACKEND, o.stateBackend, "stateBackend");
  if (o.checkpointDir !== undefined) c.set(CHECKPOINT_STORAGE, "filesystem");
  set(CHECKPOINTS_DIRECTORY, o.checkpointDir, "checkpointDir");
  set(FRESH, o.fresh, "fresh");
  set(SAVEPOINT_PATH, o.fromSavepoint, "fromSavepoint");
  set(IGNORE_UNCLAIMED_STATE, o.allowNonRestoredState, "allowNonRestoredState");
  if (o.restartAttempts !== undefined) {
    set(RESTART_STRATEGY, o.restartAttempts > 0 ? "exponential-delay" : "none", "restartAttempts");
    if (o.restartAttempts > 0) set(EXPONENTIAL_ATTEMPTS, o.restartAttempts, "restartAttempts");
  }
  set(BATCH_SIZE, o.batchSize, "batchSize");
  set(AUTO_WATERMARK_INTERVAL, o.autoWatermarkInterval, "autoWatermarkInterval");
  return c;
}
