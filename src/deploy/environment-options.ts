/**
 * Settings of an execution environment that can come from the command line
 * (`weir run` flags) or from `StreamExecutionEnvironment.create(options)`.
 */
import type { CheckpointingMode } from "../checkpoint/types.ts";
import type { StateBackendName } from "../state/state-backend-settings.ts";
import type { Clock } from "../util/clock.ts";

export interface EnvironmentOptions {
  /** Default parallelism of operators (default 1). */
  parallelism?: number;
  /** Key groups, the upper bound of rescaling (default 128). */
  maxParallelism?: number;
  /** Worker threads; 0 runs every task in the calling thread (default 0 for `create`, 1 for `weir run`). */
  workers?: number;
  /** Checkpoint interval in ms; 0 disables checkpointing. */
  checkpointInterval?: number;
  mode?: CheckpointingMode;
  /** The keyed state backend (wins over `env.setStateBackend`). */
  stateBackend?: StateBackendName;
  /** Directory of filesystem checkpoints (wins over the job's storage); `<job>` is replaced by the job name. */
  checkpointDir?: string;
  /** Directory of filesystem checkpoints when neither `checkpointDir` nor the job chose a storage (`weir run`: `.weir/checkpoints/<job>`). */
  defaultCheckpointDir?: string;
  /** Ignore existing checkpoints and start over. */
  fresh?: boolean;
  /** Start from this savepoint (a directory written by stopWithSavepoint/triggerSavepoint). */
  fromSavepoint?: string;
  /** With `fromSavepoint`: drop state of operators the job no longer has instead of failing. */
  allowNonRestoredState?: boolean;
  /**
   * Restarts allowed after failures in a row, with exponential back-off (1 s, 2 s, 4 s …);
   * 0: none. Wins over `setRestartStrategy` (`weir run --restart-attempts N`).
   * Default: the job's strategy, else 3 with checkpointing and none without.
   */
  restartAttempts?: number;
  /** Records per batch on channels (default 512). */
  batchSize?: number;
  /** Interval of periodic source watermarks in ms (default 200; 0 disables). */
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
