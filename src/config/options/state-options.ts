/**
 * Options of state, checkpoint storage and savepoints (Flink's
 * `StateBackendOptions`, `CheckpointingOptions`, `SavepointConfigOptions`).
 */
import { ConfigOptions } from "../config-option.ts";

/** A local directory (a path or a `file://` URI) or an S3 location (`s3://bucket/path`; Flink's `s3a://`, `s3p://` too). */
function checkpointLocation(text: string): string | undefined {
  if (text.trim() === "") return "a directory (a path, a file:// URI or s3://bucket/path)";
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(text)?.[1];
  return scheme === undefined || ["file", "s3", "s3a", "s3p"].includes(scheme.toLowerCase())
    ? undefined
    : `a local directory (a path or a file:// URI) or s3://bucket/path; the '${scheme}://' scheme is not supported`;
}

/** `state.backend.type`: heap or disk (Flink's hashmap and rocksdb name the same two). */
export const STATE_BACKEND = ConfigOptions.enumeration(
  "state.backend.type",
  ["heap", "disk", "hashmap", "rocksdb"],
  "The keyed state backend: heap (JavaScript maps) or disk (an embedded store on local disk, larger than memory); Flink's hashmap and rocksdb name the same two.",
  "heap",
  { aliases: ["state.backend"] },
);

/** `state.backend.incremental`: default on for the disk backend, off for heap. */
export const INCREMENTAL_CHECKPOINTS = ConfigOptions.boolean(
  "state.backend.incremental",
  "Whether checkpoints write only the state changed since the previous one; unset: on for the disk backend, off for heap.",
  undefined,
  { aliases: ["execution.checkpointing.incremental"] },
);

/** `state.checkpoint-storage`: in memory or a directory. */
export const CHECKPOINT_STORAGE = ConfigOptions.enumeration(
  "state.checkpoint-storage",
  ["jobmanager", "filesystem"],
  "Where checkpoints go: jobmanager (in memory, lost with the process) or filesystem (state.checkpoints.dir); unset: filesystem when a directory is known.",
  undefined,
  { aliases: ["execution.checkpointing.storage"] },
);

/** `state.checkpoints.dir`: `<job>` is replaced by the job name. */
export const CHECKPOINTS_DIRECTORY = ConfigOptions.string(
  "state.checkpoints.dir",
  "The directory of filesystem checkpoints: a path, a file:// URI or s3://bucket/path (S3-compatible object storage, see the s3.* keys); '<job>' is replaced by the job's name; weir run defaults to .weir/checkpoints/<job>.",
  undefined,
  { check: checkpointLocation, aliases: ["execution.checkpointing.dir"] },
);

/** `state.savepoints.dir`: where a stop writes its savepoint. */
export const SAVEPOINT_DIRECTORY = ConfigOptions.string(
  "state.savepoints.dir",
  "The directory where savepoints go when none is given (a stop by Ctrl-C or SIGTERM, weir stop, weir savepoint): a path, a file:// URI or s3://bucket/path.",
  ".weir/savepoints",
  { check: checkpointLocation, aliases: ["execution.checkpointing.savepoint-dir"] },
);

/** `execution.savepoint.path`: start from this savepoint. */
export const SAVEPOINT_PATH = ConfigOptions.string("execution.savepoint.path", "The savepoint the job starts from (a directory written by a stop or a savepoint, local or s3://).");

/** `execution.savepoint.ignore-unclaimed-state`. */
export const IGNORE_UNCLAIMED_STATE = ConfigOptions.boolean(
  "execution.savepoint.ignore-unclaimed-state",
  "Whether a start from a savepoint drops the state of operators the job no longer has instead of failing.",
  false,
);

export const STATE_OPTIONS = [
  STATE_BACKEND,
  INCREMENTAL_CHECKPOINTS,
  CHECKPOINT_STORAGE,
  CHECKPOINTS_DIRECTORY,
  SAVEPOINT_DIRECTORY,
  SAVEPOINT_PATH,
  IGNORE_UNCLAIMED_STATE,
] as const;
