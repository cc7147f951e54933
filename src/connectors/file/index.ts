/**
 * File connectors: `FileSource` (files, directories, globs; bounded or
 * continuous; lines, JSON lines, CSV; restores mid-file) and `FileSink`
 * (exactly-once part files through two-phase commit).
 */
export { FileSink, type FilePartRef, type FileSinkOptions, type FileSinkUserContext, type FileTransaction } from "./file-sink.ts";
export { BucketAssigners, type BucketAssigner, type BucketAssignerLike } from "./bucket-assigner.ts";
export { DateTimeBucketAssigner, type DateTimeBucketOptions } from "./date-time-bucket-assigner.ts";
export { DEFAULT_ROLLING_POLICY, type RollingPolicy } from "./rolling-policy.ts";
export { csvField, type CsvOptions as CsvSinkOptions, type RowFormat } from "./file-sink-encoder.ts";
export { FileSinkOptionError, InvalidBucketPathError, PartFileExistsError, PendingPartFileMissingError } from "./file-sink-errors.ts";
export { FileSource, type FileRecordsOptions, type FileSourceOptions } from "./file-source.ts";
export type { CsvOptions as CsvSourceOptions } from "./csv-format.ts";
export type { DeadLetter } from "./file-source-reader.ts";
export { FileSourceParseError, FileSourcePathError } from "./file-source-errors.ts";
export { deadLetterCount, type DiscoverySplit, type FileSourceSplit, type FileSplit, type TallySplit } from "./file-source-split.ts";
