/**
 * Checkpoint storages: where operator state and completed-checkpoint metadata
 * are kept (`jobmanager`: in memory; `filesystem`: a durable directory).
 */
export type { CheckpointStorage, DamagedCheckpoint, LatestCompleted } from "./checkpoint-storage.ts";
export { createCheckpointStorage, type CheckpointStorageOptions } from "./create-checkpoint-storage.ts";
export { checkpointDirectoryOf } from "./checkpoint-location.ts";
export {
  CheckpointDirectoryError,
  CheckpointVersionError,
  CorruptCheckpointError,
  SavepointNotFoundError,
  StateSizeLimitExceededError,
  UnsupportedCheckpointLocationError,
} from "./errors.ts";
export { FileSystemCheckpointStorage, type FileSystemCheckpointStorageOptions } from "./filesystem-storage.ts";
export { DEFAULT_MAX_STATE_SIZE, JobManagerCheckpointStorage } from "./jobmanager-storage.ts";
export { METADATA_VERSION } from "./metadata-format.ts";
