/**
 * `env.getCheckpointConfig()`: how often and how checkpoints are taken, and
 * where they are kept (Flink's CheckpointConfig). Its setters write the
 * `execution.checkpointing.*` and `state.*` keys of the environment's
 * configuration (docs/configuration.md).
 */
import type { CheckpointSettings, CheckpointStorageConfig, CheckpointingMode, S3Settings } from "../checkpoint/types.ts";
import { checkpointDirectoryOf } from "../checkpoint/storage/checkpoint-location.ts";
import type { Configuration } from "../config/configuration.ts";
import {
  CHECKPOINTING_INTERVAL,
  CHECKPOINTING_MIN_PAUSE,
  CHECKPOINTING_MODE,
  CHECKPOINTING_TIMEOUT,
  MAX_CONCURRENT_CHECKPOINTS,
  NUM_RETAINED_CHECKPOINTS,
  TOLERABLE_FAILED_CHECKPOINTS,
} from "../config/options/checkpointing-options.ts";
import { S3_ACCESS_KEY, S3_ENDPOINT, S3_PATH_STYLE_ACCESS, S3_REGION, S3_SECRET_KEY } from "../config/options/s3-options.ts";
import { CHECKPOINT_STORAGE, CHECKPOINTS_DIRECTORY, INCREMENTAL_CHECKPOINTS, STATE_BACKEND } from "../config/options/state-options.ts";
import { checkpointingModeKey } from "../deploy/environment-options.ts";
import { parseStateBackendName } from "../state/state-backend-settings.ts";

/**
 * Default checkpoint settings (the defaults of the `execution.checkpointing.*` keys): disabled,
 * exactly-once, 10 min timeout, 1 concurrent, no failure tolerated, 1 retained.
 */
export const DEFAULT_CHECKPOINT_SETTINGS: Readonly<CheckpointSettings> = Object.freeze<CheckpointSettings>({
  intervalMs: 0,
  mode: CHECKPOINTING_MODE.defaultValue.toLowerCase().replaceAll("_", "-") as CheckpointingMode,
  timeoutMs: CHECKPOINTING_TIMEOUT.defaultValue,
  minPauseMs: CHECKPOINTING_MIN_PAUSE.defaultValue,
  maxConcurrent: MAX_CONCURRENT_CHECKPOINTS.defaultValue,
  tolerableFailures: TOLERABLE_FAILED_CHECKPOINTS.defaultValue,
  retained: NUM_RETAINED_CHECKPOINTS.defaultValue,
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
  /** The in-memory storage's size limit, when set with a storage config (not a key). */
  private maxStateSize: number | undefined;

  /** @internal A view of `configuration` (the environment's own). */
  constructor(private readonly configuration: Configuration) {}

  setCheckpointInterval(ms: number): this {
    this.configuration.set(CHECKPOINTING_INTERVAL, positive("checkpoint interval", ms, true));
    return this;
  }
  getCheckpointInterval(): number {
    return this.configuration.get(CHECKPOINTING_INTERVAL) ?? 0;
  }
  isCheckpointingEnabled(): boolean {
    return this.getCheckpointInterval() > 0;
  }
  setCheckpointingMode(mode: CheckpointingMode): this {
    if (!["exactly-once", "at-least-once", "at-most-once"].includes(mode))
      throw new RangeError(`checkpointing mode '${mode}' is not one of exactly-once, at-least-once, at-most-once`);
    this.configuration.set(CHECKPOINTING_MODE, checkpointingModeKey(mode));
    return this;
  }
  getCheckpointingMode(): CheckpointingMode {
    return checkpointingModeOf(this.configuration);
  }
  /** A checkpoint not complete after `ms` is aborted. */
  setCheckpointTimeout(ms: number): this {
    this.configuration.set(CHECKPOINTING_TIMEOUT, positive("checkpoint timeout", ms));
    return this;
  }
  /**
   * At least `ms` between the end (completion or abort) of one checkpoint and the start of the next periodic one.
   * Savepoints and the final checkpoint of a bounded job do not wait for it.
   */
  setMinPauseBetweenCheckpoints(ms: number): this {
    this.configuration.set(CHECKPOINTING_MIN_PAUSE, positive("min pause", ms, true));
    return this;
  }
  /** Periodic checkpoints in flight at once (default 1). Savepoints and the final checkpoint of a bounded job are not counted against it. */
  setMaxConcurrentCheckpoints(n: number): this {
    this.configuration.set(MAX_CONCURRENT_CHECKPOINTS, positive("max concurrent checkpoints", n));
    return this;
  }
  /** Consecutive failed checkpoints tolerated before the job fails over (default 0). */
  setTolerableCheckpointFailureNumber(n: number): this {
    this.configuration.set(TOLERABLE_FAILED_CHECKPOINTS, positive("tolerable checkpoint failures", n, true));
    return this;
  }
  /** Completed checkpoints kept (default 1). */
  setNumRetainedCheckpoints(n: number): this {
    this.configuration.set(NUM_RETAINED_CHECKPOINTS, positive("retained checkpoints", n));
    return this;
  }
  /**
   * Where checkpoints go: `"jobmanager"` (in memory, lost with the process, 5 MiB per operator state),
   * a `file://` URI or path (durable directory), an `s3://bucket/path` (S3-compatible object storage,
   * reached as the `s3.*` keys say), or a storage config. Any other URI scheme (`hdfs://`, …)
   * throws `UnsupportedCheckpointLocationError`.
   */
  setCheckpointStorage(storage: "jobmanager" | string | CheckpointStorageConfig): this {
    const c = this.configuration;
    if (typeof storage !== "string") {
      this.maxStateSize = storage.type === "jobmanager" ? storage.maxStateSize : undefined;
      return storage.type === "jobmanager" ? this.setCheckpointStorage("jobmanager") : this.setCheckpointStorage(storage.directory);
    }
    if (storage === "jobmanager") {
      c.set(CHECKPOINT_STORAGE, "jobmanager").remove(CHECKPOINTS_DIRECTORY);
    } else {
      checkpointDirectoryOf(storage);
      c.set(CHECKPOINT_STORAGE, "filesystem").set(CHECKPOINTS_DIRECTORY, storage);
    }
    return this;
  }
  getCheckpointStorage(): CheckpointStorageConfig {
    return checkpointStorageOf(this.configuration, undefined, undefined, this.maxStateSize);
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
    this.configuration.set(INCREMENTAL_CHECKPOINTS, enabled);
    return this;
  }
  /** True when checkpoints are incremental (explicitly, or by the state backend's default). */
  isIncrementalCheckpointingEnabled(): boolean {
    return incrementalOf(this.configuration);
  }

  /** @internal The in-memory storage's size limit set with a storage config. */
  jobManagerMaxStateSize(): number | undefined {
    return this.maxStateSize;
  }
}

/** `execution.checkpointing.mode` of `c` as the engine's mode. */
export function checkpointingModeOf(c: Configuration): CheckpointingMode {
  return c.get(CHECKPOINTING_MODE).toLowerCase().replaceAll("_", "-") as CheckpointingMode;
}

/** Whether checkpoints of `c` are incremental: `state.backend.incremental`, else on for the disk backend. */
export function incrementalOf(c: Configuration): boolean {
  return c.get(INCREMENTAL_CHECKPOINTS) ?? parseStateBackendName(c.get(STATE_BACKEND), "state.backend.type") === "disk";
}

/**
 * The checkpoint storage of `c`: in memory when `state.checkpoint-storage` says `jobmanager`; else the
 * directory of `state.checkpoints.dir`, else `defaultDirectory`, with `<job>` replaced by `jobName`; else in memory.
 */
export function checkpointStorageOf(c: Configuration, defaultDirectory?: string, jobName?: string, maxStateSize?: number): CheckpointStorageConfig {
  const dir = c.get(CHECKPOINT_STORAGE) === "jobmanager" ? undefined : (c.get(CHECKPOINTS_DIRECTORY) ?? defaultDirectory);
  if (dir === undefined) return maxStateSize === undefined ? { type: "jobmanager" } : { type: "jobmanager", maxStateSize };
  return { type: "filesystem", directory: checkpointDirectoryOf(jobName === undefined ? dir : dir.replaceAll("<job>", jobName)) };
}

/**
 * The object store of `s3://` locations as the `s3.*` keys of `c` describe it (unset keys left out: the
 * AWS SDK's defaults apply); undefined when no `s3.*` key is set.
 *
 * @example
 * ```ts
 * s3SettingsOf(new Configuration().setString("s3.endpoint", "http://127.0.0.1:9000")); // { endpoint: "http://127.0.0.1:9000", pathStyleAccess: false }
 * ```
 */
export function s3SettingsOf(c: Configuration): S3Settings | undefined {
  if (![S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY, S3_SECRET_KEY, S3_PATH_STYLE_ACCESS].some((o) => c.contains(o))) return undefined;
  const endpoint = c.get(S3_ENDPOINT);
  const region = c.get(S3_REGION);
  const accessKey = c.get(S3_ACCESS_KEY);
  const secretKey = c.get(S3_SECRET_KEY);
  if ((accessKey === undefined) !== (secretKey === undefined)) {
    throw new RangeError(`s3.access-key and s3.secret-key go together: only ${accessKey === undefined ? "s3.secret-key" : "s3.access-key"} is set`);
  }
  return {
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(region === undefined ? {} : { region }),
    pathStyleAccess: c.get(S3_PATH_STYLE_ACCESS),
    ...(accessKey === undefined ? {} : { accessKey, secretKey }),
  };
}

function positive(what: string, n: number, zeroOk = false): number {
  if (!Number.isFinite(n) || n < 0 || (!zeroOk && n === 0)) throw new RangeError(`${what} must be ${zeroOk ? "≥ 0" : "> 0"}, got ${n}`);
  return n;
}
