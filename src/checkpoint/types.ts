/**
 * Types shared by the checkpoint coordinator, the barrier handlers, the
 * checkpoint storages and the tasks. Pure data: everything here can cross a
 * thread boundary (structured clone or msgpack).
 */
import type { StateBackendSettings } from "../state/state-backend-settings.ts";

/** The processing guarantee of a job. See docs/guarantees.md. */
export type CheckpointingMode = "exactly-once" | "at-least-once" | "at-most-once";

/** A checkpoint barrier as it travels through the channels. */
export interface CheckpointBarrier {
  readonly kind: "barrier";
  /** Monotonically increasing checkpoint id, starting at 1 for a fresh job. */
  readonly id: number;
  /** Coordinator time when the checkpoint was triggered. */
  readonly timestamp: number;
  /** True for a savepoint (a user-triggered, self-contained checkpoint). */
  readonly savepoint?: boolean;
  /**
   * Stop with savepoint `--drain`: each source stops reading and ends event time (the maximum watermark, so
   * every event-time timer and window fires) before it emits this barrier.
   */
  readonly drain?: boolean;
  /**
   * Stop with savepoint: each source stops reading when it emits this barrier, so nothing after the
   * savepoint reaches any operator or sink (Flink's synchronous savepoint); if the savepoint is aborted,
   * the sources read on. Implied by `drain`.
   */
  readonly stop?: boolean;
}

/** Sent downstream instead of a barrier when a task declined checkpoint `id`. */
export interface CancelCheckpointMarker {
  readonly kind: "cancel";
  readonly id: number;
}

/** Where one operator subtask's serialized state lives. */
export type StateHandle =
  | {
      readonly kind: "inline";
      readonly data: Uint8Array;
      readonly size: number;
      /** CRC-32 of `data`. */
      readonly crc: number;
    }
  | {
      readonly kind: "file";
      /** Path relative to the checkpoint's directory. */
      readonly path: string;
      readonly size: number;
      /** CRC-32 of the file's bytes. */
      readonly crc: number;
    };

/**
 * One immutable file of an incremental state chain (a full "base" snapshot or
 * a "delta" of the keys changed since the previous snapshot), written once by
 * `CheckpointStorage.writeSharedState` and referenced by every later
 * checkpoint whose chain includes it. The storage deletes it only when no
 * retained checkpoint references it any more (see docs/architecture.md,
 * "Shared state files").
 */
export interface SharedStateRef {
  /**
   * Where the file is, relative to the directory of the checkpoint that
   * references it: `../shared/<name>` for a checkpoint (the job directory's
   * `shared/` folder), `shared/<name>` for a self-contained savepoint. No
   * other form is accepted from metadata.
   */
  readonly path: string;
  readonly size: number;
  /** CRC-32 of the file's bytes. */
  readonly crc: number;
  /** The checkpoint that wrote the file (it may be referenced by later ones). */
  readonly checkpointId: number;
}

/** The state one parallel instance of one operator acknowledged for a checkpoint. */
export interface OperatorSubtaskState {
  readonly operatorUid: string;
  readonly subtaskIndex: number;
  readonly parallelism: number;
  readonly maxParallelism: number;
  /** Inclusive key-group range owned by the subtask, for keyed operators. */
  readonly keyGroupRange?: readonly [number, number];
  /** The per-checkpoint state (`{k?, o}`): with incremental checkpoints the keyed part lives in `shared` instead of `k`. */
  readonly handle: StateHandle;
  /** The incremental keyed-state chain of the subtask, base first then deltas in order; absent for full snapshots. */
  readonly shared?: readonly SharedStateRef[];
  /**
   * Disk state backend: the snapshot its local working store held right after
   * this checkpoint (a random token per snapshot). A restart on the same
   * machine whose store still holds exactly it keeps the store instead of
   * reading the checkpoint's files (local recovery).
   */
  readonly local?: { readonly checkpointId: number; readonly token: string };
}

/** What a subtask sends to the coordinator when it finished its part of checkpoint `checkpointId`. */
export interface TaskAcknowledgement {
  readonly checkpointId: number;
  /** `vertexId#subtaskIndex`. */
  readonly taskId: string;
  readonly states: readonly OperatorSubtaskState[];
  /** Time the task spent aligning barriers, in ms (0 for sources and single inputs). */
  readonly alignmentMs: number;
  /** Time from trigger/barrier to the end of the synchronous snapshot part, in ms. */
  readonly syncMs: number;
  /** Time of the asynchronous part (serialize + write), in ms. */
  readonly asyncMs: number;
}

/** The durable description of a completed checkpoint (the `_metadata` of the filesystem storage). */
export interface CompletedCheckpoint {
  readonly version: 1;
  readonly jobName: string;
  readonly checkpointId: number;
  /** Coordinator time of the trigger. */
  readonly timestamp: number;
  /** Coordinator time of completion. */
  readonly completedAt: number;
  readonly savepoint: boolean;
  /** Fingerprint of the job graph that wrote it. */
  readonly graphFingerprint: string;
  /** Every acknowledged operator subtask state. */
  readonly states: readonly OperatorSubtaskState[];
  /** Absolute directory of the checkpoint for file handles; absent for in-memory checkpoints. */
  readonly directory?: string;
}

/** Serializable configuration of where checkpoints go. */
export type CheckpointStorageConfig =
  | {
      readonly type: "jobmanager";
      /** Largest serialized state of one operator subtask, in bytes. Default 5 MiB. */
      readonly maxStateSize?: number;
    }
  | {
      readonly type: "filesystem";
      /** Directory of the job's checkpoints, e.g. `.weir/checkpoints/<job>` or `s3://bucket/checkpoints/<job>`. */
      readonly directory: string;
    };

/**
 * How to reach the S3-compatible object store of `s3://` checkpoint and
 * savepoint locations (Flink's `s3.*` keys). Unset fields: the AWS SDK's
 * defaults (AWS S3 itself; region and credentials from `AWS_REGION`,
 * `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, `~/.aws`, instance roles).
 */
export interface S3Settings {
  /** `s3.endpoint`: the server's URL, e.g. `http://minio:9000` (https:// is assumed without a scheme). */
  readonly endpoint?: string;
  /** `s3.region`: the signing region; `us-east-1` with an endpoint and no `AWS_REGION`. */
  readonly region?: string;
  /** `s3.path.style.access`: `http://host/bucket/key` instead of `http://bucket.host/key` (needed by most self-hosted servers). */
  readonly pathStyleAccess?: boolean;
  /** `s3.access-key` (with `secretKey`): static credentials instead of the SDK's credential chain. */
  readonly accessKey?: string;
  /** `s3.secret-key`. */
  readonly secretKey?: string;
}

/** The checkpoint settings of a job (`env.getCheckpointConfig()`), with the state backend that checkpoints go through. */
export interface CheckpointSettings {
  /** Interval between periodic checkpoints in ms; 0 or less disables checkpointing. */
  intervalMs: number;
  mode: CheckpointingMode;
  /** A checkpoint not complete after this many ms is aborted. Default 600 000. */
  timeoutMs: number;
  /** Minimum ms between the end (completion or abort) of one checkpoint and the trigger of the next periodic one. Default 0. */
  minPauseMs: number;
  /** Maximum checkpoints in flight at once for the periodic trigger (savepoints and final checkpoints go at once). Default 1. */
  maxConcurrent: number;
  /** Consecutive failed checkpoints tolerated before the job fails. Default 0 (Flink's default). */
  tolerableFailures: number;
  /** Completed checkpoints kept in storage. Default 1. */
  retained: number;
  storage: CheckpointStorageConfig;
  /** The keyed state backend and whether its checkpoints are incremental (default: heap, full checkpoints). */
  stateBackend?: StateBackendSettings;
  /** The object store of `s3://` checkpoint and savepoint locations (the `s3.*` keys). */
  s3?: S3Settings;
}
