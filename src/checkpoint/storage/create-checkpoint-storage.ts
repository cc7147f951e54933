/**
 * Builds the checkpoint storage a `CheckpointStorageConfig` describes.
 */
import type { CheckpointStorageConfig, S3Settings } from "../types.ts";
import type { CheckpointStorage } from "./checkpoint-storage.ts";
import { getLogger } from "../../util/logger.ts";
import { checkpointDirectoryOf } from "./checkpoint-location.ts";
import { fileSystemsFor } from "./file-systems.ts";
import { FileSystemCheckpointStorage } from "./filesystem-storage.ts";
import { DEFAULT_MAX_STATE_SIZE, JobManagerCheckpointStorage } from "./jobmanager-storage.ts";

/** Options of `createCheckpointStorage`. */
export interface CheckpointStorageOptions {
  /**
   * Completed checkpoints to keep (at least 1); older ones are deleted when a checkpoint completes. Null: the
   * storage deletes no checkpoint by itself, the caller decides with `retainOnly` (a high-availability store,
   * where a checkpoint is complete only once committed there).
   */
  readonly retained: number | null;
  /** Receives warnings of the filesystem storage (a failed deletion, a corrupt checkpoint left out of a listing). Default: the thread's logger at warn. */
  readonly log?: (warning: string) => void;
  /** The object store of `s3://` locations (the job's `s3.*` keys); default: the AWS SDK's defaults. */
  readonly s3?: S3Settings;
}

/**
 * Creates the storage for `config`. The coordinator and every task worker
 * call this with the same config; the instances share nothing in memory.
 * A filesystem directory may be a `file://` URI or an `s3://bucket/path`
 * in an S3-compatible object store; any other URI scheme (`hdfs://`, …)
 * throws `UnsupportedCheckpointLocationError`.
 *
 * @example
 * ```ts
 * const storage = createCheckpointStorage({ type: "filesystem", directory: ".weir/checkpoints/word-count" }, { retained: 1 });
 * const handle = await storage.writeState(1, "counts", 0, bytes);       // task side
 * await storage.addCompleted({ ...checkpoint, states: [{ ...state, handle }] }); // coordinator side
 * const { checkpoint } = await storage.latestCompleted();              // on restart
 * ```
 */
export function createCheckpointStorage(config: CheckpointStorageConfig, options: CheckpointStorageOptions): CheckpointStorage {
  const { retained, log = (warning: string) => getLogger().warn(warning), s3 } = options;
  if (retained !== null && (!Number.isSafeInteger(retained) || retained < 1)) {
    throw new RangeError(`checkpoint storage: retained must be an integer of at least 1, got ${retained}`);
  }
  switch (config.type) {
    case "jobmanager": {
      const maxStateSize = config.maxStateSize ?? DEFAULT_MAX_STATE_SIZE;
      if (!Number.isSafeInteger(maxStateSize) || maxStateSize < 0) {
        throw new RangeError(`jobmanager checkpoint storage: maxStateSize must be a non-negative integer of bytes, got ${maxStateSize}`);
      }
      return new JobManagerCheckpointStorage({ maxStateSize, retained });
    }
    case "filesystem":
      if (typeof config.directory !== "string" || config.directory === "") {
        throw new RangeError("filesystem checkpoint storage: directory must be a non-empty path");
      }
      return new FileSystemCheckpointStorage({ directory: checkpointDirectoryOf(config.directory), retained, log, fileSystems: fileSystemsFor(s3) });
  }
}
