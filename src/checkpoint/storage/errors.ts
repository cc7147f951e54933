/**
 * Errors of the checkpoint storages that a user can cause or meet: oversize
 * state for the in-memory storage, corrupt files, and checkpoints written by a
 * newer Weir.
 */
import { formatSizeAgainstLimit } from "./format-size.ts";

/**
 * One operator subtask's serialized state is larger than the jobmanager
 * storage accepts (`maxStateSize`, 5 MiB by default).
 */
export class StateSizeLimitExceededError extends Error {
  override readonly name = "StateSizeLimitExceededError";

  constructor(
    /** Uid of the operator whose state is too large. */
    readonly operatorUid: string,
    /** Parallel instance of the operator. */
    readonly subtaskIndex: number,
    /** Serialized size in bytes. */
    readonly size: number,
    /** Configured limit in bytes. */
    readonly limit: number,
  ) {
    const [s, l] = formatSizeAgainstLimit(size, limit);
    super(
      `state of operator '${operatorUid}' (subtask ${subtaskIndex}) is ${s}, over the jobmanager storage limit ` +
        `of ${l} per operator state; use filesystem checkpoint storage or raise maxStateSize`,
    );
  }
}

/**
 * A checkpoint file (metadata or state) does not verify: missing, truncated,
 * wrong checksum, or malformed. Restoring from it would restore wrong state.
 */
export class CorruptCheckpointError extends Error {
  override readonly name = "CorruptCheckpointError";

  constructor(
    /** Absolute path of the bad file, or for in-memory state a description such as "inline state of operator 'x' (subtask 0) of checkpoint 3". */
    readonly path: string,
    /** What is wrong with it. */
    readonly reason: string,
  ) {
    super(`corrupt checkpoint file ${path}: ${reason}`);
  }
}

/**
 * A checkpoint's `_metadata` uses a format version newer than this Weir
 * reads. Weir refuses to fall back to an older checkpoint in this case (that
 * would silently rewind the job past output already committed by the newer
 * version): upgrade Weir, or move the checkpoint directory away.
 */
export class CheckpointVersionError extends Error {
  override readonly name = "CheckpointVersionError";

  constructor(
    /** Absolute path of the `_metadata` file. */
    readonly path: string,
    /** Format version found in the file. */
    readonly version: number,
    /** Newest format version this Weir reads. */
    readonly supported: number,
  ) {
    super(
      `checkpoint metadata ${path} was written by a newer Weir (format version ${version}; ` +
        `this Weir reads up to version ${supported}); upgrade Weir or move the checkpoint directory away`,
    );
  }
}

/**
 * A checkpoint location with a URI scheme the storage cannot write to (such
 * as `hdfs://` or `gs://`), or a malformed `s3://` URI: checkpoints go to
 * local directories (paths or `file://` URIs) and S3-compatible object
 * storage (`s3://bucket/path`).
 */
export class UnsupportedCheckpointLocationError extends Error {
  override readonly name = "UnsupportedCheckpointLocationError";

  constructor(
    /** The location as given. */
    readonly location: string,
    /** Its URI scheme, lower case (`hdfs`). */
    readonly scheme: string,
    /** What is wrong with an `s3://` URI; absent for an unsupported scheme. */
    readonly problem?: string,
  ) {
    super(
      problem === undefined
        ? `checkpoint location '${location}': the '${scheme}://' scheme is not supported; ` +
            "give a local directory (a path or a file:// URI) or an S3 location (s3://bucket/path)"
        : `checkpoint location '${location}': ${problem}; an S3 location is s3://bucket/path`,
    );
  }
}

/**
 * The checkpoint directory cannot be used: it is a file, or Weir may not
 * write in it. Found by a probe write when the job starts, before any task runs.
 */
export class CheckpointDirectoryError extends Error {
  override readonly name = "CheckpointDirectoryError";

  constructor(
    /** Absolute path of the checkpoint directory. */
    readonly directory: string,
    /** What is wrong with it. */
    readonly reason: string,
  ) {
    super(`checkpoint directory ${directory} ${reason}`);
  }
}

/**
 * Nothing to restore at a savepoint path (`--from-savepoint`,
 * `execution.savepoint.path`): it does not exist, is a file, or is a directory
 * without `_metadata`. Unlike {@link CorruptCheckpointError}, nothing is damaged.
 */
export class SavepointNotFoundError extends Error {
  override readonly name = "SavepointNotFoundError";

  constructor(
    /** Absolute path of the savepoint directory. */
    readonly path: string,
    /** What is there instead. */
    readonly reason: string,
  ) {
    super(`savepoint ${path} ${reason}`);
  }
}
