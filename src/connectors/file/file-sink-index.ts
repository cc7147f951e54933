/**
 * Public exports of the file sink (the lead wires them into the file connector's index).
 */
export { FileSink, type FilePartRef, type FileSinkOptions, type FileSinkUserContext, type FileTransaction } from "./file-sink.ts";
export { BucketAssigners, formatDateTime, type BucketAssigner, type BucketAssignerLike, type DateTimeBucketOptions } from "./bucket-assigner.ts";
export { DEFAULT_ROLLING_POLICY, type RollingPolicy } from "./rolling-policy.ts";
export { csvField, type CsvOptions, type RowFormat } from "./file-sink-encoder.ts";
export { FileSinkOptionError, InvalidBucketPathError } from "./file-sink-errors.ts";
