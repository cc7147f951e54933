/**
 * `env.getCheckpointConfig()`: how often and how checkpoints are taken, and
 * where they are kept (Flink's CheckpointConfig).
 */
import type { CheckpointSettings, CheckpointStorageConfig, CheckpointingMode } from "../checkpoint/types.ts";
import { checkpointDirectoryOf } from "../checkpoint/storage/checkpoint-location.ts";

/** Default checkpoint settings: disabled, exactly-once, 10 min timeout, 1 concurrent, no failure tolerated, 1 retained. */
export const DEFAULT_CHECKPOINT_SETTINGS: Readonly<CheckpointSettings> = Object.freeze<CheckpointSettings>({
  intervalMs: 0,
  mode: "exactly-once",
  timeoutMs: 600_000,
  minPauseMs: 0,
  maxConcurrent: 1,
  tolerableFailures: 0,
  retained: 1,
  storage: { type: "jobmanager" },
  stateBackend: { type: "heap", incremental: false },
});

/**
 * Checkpoint settings of a job.
 *
 * @example
 * ```ts
 * env.enableCheckpointing(1_000, "exactly-once");
 * env.getCheckpointConfig()
 *   .setCheckpointTimeout(60_000)
 *   .setMinPauseBetweenCheckpoints(500)
 *   .setTolerableCheckpointFailureNumber(3)
 *   .setCheckpointStorage("file:///var/weir/checkpoints/orders");
 * ```
 */
export class CheckpointConfig {
  /** @internal */
  readonly settings: CheckpointSettings = { ...DEFAULT_CHECKPOINT_SETTINGS };
  /** @internal True once the storage was set explicitly. */
  storageSet = false;
  /** @internal Set by `enableIncrementalCheckpointing`; undefined: the state backend's default. */
  incremental: boolean | undefined = undefined;

  setCheckpointInterval(ms: number): this {
    this.settings.intervalMs = positive("checkpoint interval", ms, true);
    return this;
  }
  getCheckpointInterval(): number {
    return this.settings.intervalMs;
  }
  isCheckpointingEnabled(): boolean {
    return this.settings.intervalMs > 0;
  }
  setCheckpointingMode(mode: CheckpointingMode): this {
    if (!["exactly-once", "at-least-once", "at-most-once"].includes(mode))
      throw new RangeError(`checkpointing mode '${mode}' is not one of exactly-once, at-least-once, at-most-once`);
    this.settings.mode = mode;
    return this;
  }
  getCheckpointingMode(): CheckpointingMode {
    return this.settings.mode;
  }
  /** A checkpoint not complete after `ms` is aborted. */
  setCheckpointTimeout(ms: number): this {
    this.settings.timeoutMs = positive("checkpoint timeout", ms);
    return this;
  }
  /**
   * At least `ms` between the end (completion or abort) of one checkpoint and the start of the next periodic one.
   * Savepoints and the final checkpoint of a bounded job do not wait for it.
   */
  setMinPauseBetweenCheckpoints(ms: number): this {
    this.settings.minPauseMs = positive("min pause", ms, true);
    return this;
  }
  /** Periodic checkpoints in flight at once (default 1). Savepoints and the final checkpoint of a bounded job are not counted against it. */
  setMaxConcurrentCheckpoints(n: number): this {
    this.settings.maxConcurrent = positive("max concurrent checkpoints", n);
    return this;
  }
  /** Consecutive failed checkpoints tolerated before the job fails over (default 0). */
  setTolerableCheckpointFailureNumber(n: number): this {
    this.settings.tolerableFailures = positive("tolerable checkpoint failures", n, true);
    return this;
  }
  /** Completed checkpoints kept (default 1). */
  setNumRetainedCheckpoints(n: number): this {
    this.settings.retained = positive("retained checkpoints", n);
    return this;
  }
  /**
   * Where checkpoints go: `"jobmanager"` (in memory, lost with the process, 5 MiB per operator state),
   * a `file://` URI or path (durable directory), or a storage config. Any other URI scheme (`s3://`, …)
   * throws `UnsupportedCheckpointLocationError`: object storage is not available yet.
   */
  setCheckpointStorage(storage: "jobmanager" | string | CheckpointStorageConfig): this {
    if (typeof storage !== "string") this.settings.storage = storage;
    else if (storage === "jobmanager") this.settings.storage = { type: "jobmanager" };
    else this.settings.storage = { type: "filesystem", directory: checkpointDirectoryOf(storage) };
    this.storageSet = true;
    return this;
  }
  getCheckpointStorage(): CheckpointStorageConfig {
    return this.settings.storage;
  }
  /**
   * Incremental checkpoints: each checkpoint writes only the state that
   * changed since the previous one, plus references to files of earlier
   * checkpoints (needs a filesystem checkpoint storage). Default: on for the
   * `"disk"` state backend, off for `"heap"`. Savepoints are always full.
   *
   * @example
   * ```ts
   * env.setStateBackend("heap");
   * env.getCheckpointConfig().enableIncrementalCheckpointing(true);
   * ```
   */
  enableIncrementalCheckpointing(enabled: boolean): this {
    this.incremental = enabled;
    return this;
  }
  /** True when checkpoints are incremental (explicitly, or by the state backend's default). */
  isIncrementalCheckpointingEnabled(): boolean {
    return this.incremental ?? this.settings.stateBackend?.type === "disk";
  }
}

function positive(what: string, n: number, zeroOk = false): number {
  if (!Number.isFinite(n) || n < 0 || (!zeroOk && n === 0)) throw new RangeError(`${what} must be ${zeroOk ? "≥ 0" : "> 0"}, got ${n}`);
  return n;
}
