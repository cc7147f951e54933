/**
 * Bucket assigners of the file sink: which sub-directory of the base path a
 * record goes to (the base path itself, a date-time pattern in a time zone, or
 * any function).
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { DateTimeBucketAssigner, type DateTimeBucketOptions } from "./date-time-bucket-assigner.ts";
import { InvalidBucketPathError } from "./file-sink-errors.ts";

/** Chooses the bucket (a relative directory, `""` = the base path) of a record. */
export interface BucketAssigner<T> {
  /** `processingTime` is the sink's clock at the record. */
  bucketId(record: T, processingTime: number): string;
}

/** A bucket assigner, or a plain function of the record returning the relative bucket path. */
export type BucketAssignerLike<T> = BucketAssigner<T> | ((record: T) => string);

/**
 * The standard bucket assigners.
 *
 * @example
 * ```ts
 * FileSink.forRows("out", { format: "jsonl", bucketAssigner: BucketAssigners.dateTime("yyyy-MM-dd--HH", { timeZone: "Europe/Berlin" }) });
 * FileSink.forRows("out", { format: "jsonl", bucketAssigner: (r: { country: string }) => r.country });
 * ```
 */
export const BucketAssigners = {
  /** Every record in the base path (the default). */
  basePath<T>(): BucketAssigner<T> {
    return { bucketId: () => "" };
  },

  /**
   * A bucket per period formatted with `pattern` (default `"yyyy-MM-dd--HH"`,
   * Flink's default) in `timeZone` (an IANA id, default `"UTC"`) from the
   * processing time or from `timestampOf(record)`: a {@link DateTimeBucketAssigner}.
   */
  dateTime<T>(pattern = "yyyy-MM-dd--HH", options: DateTimeBucketOptions<T> & { timeZone?: string } = {}): BucketAssigner<T> {
    return new DateTimeBucketAssigner<T>(pattern, options.timeZone ?? "UTC", options);
  },
};

/** The assigner of an option value (default: base path). */
export function toBucketAssigner<T>(a: BucketAssignerLike<T> | undefined): BucketAssigner<T> {
  if (a === undefined) return BucketAssigners.basePath();
  if (typeof a === "function") return { bucketId: (record) => a(record) };
  return a;
}

/**
 * The absolute directory of bucket `bucketId` under `basePath` (absolute).
 *
 * @throws InvalidBucketPathError when the bucket is absolute or leaves the base path
 */
export function bucketDirectory(basePath: string, bucketId: string, operatorUid: string): string {
  const dir = resolve(basePath, bucketId);
  const rel = relative(basePath, dir);
  if (isAbsolute(bucketId) || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new InvalidBucketPathError(operatorUid, basePath, bucketId);
  }
  return dir;
}
