/**
 * Bucket assigners of the file sink: which sub-directory of the base path a
 * record goes to (the base path itself, a date-time pattern, or any function).
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { InvalidBucketPathError } from "./file-sink-errors.ts";

/** Chooses the bucket (a relative directory, `""` = the base path) of a record. */
export interface BucketAssigner<T> {
  /** `processingTime` is the sink's clock at the record. */
  bucketId(record: T, processingTime: number): string;
}

/** A bucket assigner, or a plain function of the record returning the relative bucket path. */
export type BucketAssignerLike<T> = BucketAssigner<T> | ((record: T) => string);

/** Options of {@link BucketAssigners.dateTime}. */
export interface DateTimeBucketOptions<T> {
  /** Event time of a record in epoch ms; default: the processing time (sink clock). */
  timestampOf?: (record: T) => number;
  /** Zone of the formatted date (default "UTC"). */
  timeZone?: "UTC" | "local";
}

/**
 * The standard bucket assigners.
 *
 * @example
 * ```ts
 * FileSink.forRows("out", { format: "jsonl", bucketAssigner: BucketAssigners.dateTime("yyyy-MM-dd--HH") });
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
   * Flink's default) from the processing time or from `timestampOf(record)`.
   * Pattern letters: `yyyy yy MM dd HH mm ss SSS`; text in single quotes and
   * every other character is copied as is (`/` makes nested directories).
   */
  dateTime<T>(pattern = "yyyy-MM-dd--HH", options: DateTimeBucketOptions<T> = {}): BucketAssigner<T> {
    const utc = (options.timeZone ?? "UTC") === "UTC";
    const timestampOf = options.timestampOf;
    return {
      bucketId: (record, processingTime) => formatDateTime(pattern, timestampOf ? timestampOf(record) : processingTime, utc),
    };
  },
};

/** The assigner of an option value (default: base path). */
export function toBucketAssigner<T>(a: BucketAssignerLike<T> | undefined): BucketAssigner<T> {
  if (a === undefined) return BucketAssigners.basePath();
  if (typeof a === "function") return { bucketId: (record) => a(record) };
  return a;
}

const TOKENS = /yyyy|yy|MM|dd|HH|mm|ss|SSS|'[^']*'/g;

/**
 * Formats epoch ms `time` with a date pattern (`yyyy yy MM dd HH mm ss SSS`,
 * `'quoted text'`); other characters are copied.
 *
 * @example
 * ```ts
 * formatDateTime("yyyy-MM-dd--HH", Date.UTC(2024, 0, 5, 7), true); // "2024-01-05--07"
 * ```
 */
export function formatDateTime(pattern: string, time: number, utc: boolean): string {
  const d = new Date(time);
  const f = utc
    ? { y: d.getUTCFullYear(), M: d.getUTCMonth() + 1, d: d.getUTCDate(), H: d.getUTCHours(), m: d.getUTCMinutes(), s: d.getUTCSeconds(), S: d.getUTCMilliseconds() }
    : { y: d.getFullYear(), M: d.getMonth() + 1, d: d.getDate(), H: d.getHours(), m: d.getMinutes(), s: d.getSeconds(), S: d.getMilliseconds() };
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  return pattern.replace(TOKENS, (t) => {
    switch (t) {
      case "yyyy":
        return pad(f.y, 4);
      case "yy":
        return pad(f.y % 100, 2);
      case "MM":
        return pad(f.M, 2);
      case "dd":
        return pad(f.d, 2);
      case "HH":
        return pad(f.H, 2);
      case "mm":
        return pad(f.m, 2);
      case "ss":
        return pad(f.s, 2);
      case "SSS":
        return pad(f.S, 3);
      default:
        return t.slice(1, -1);
    }
  });
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
