/**
 * When a partition of a `filesystem` sink is committed (Flink's partition
 * commit trigger), from the table's `sink.partition-commit.*` options:
 *
 * - `process-time` (default): once the processing time passes the time the
 *   partition was created (its first row) plus `sink.partition-commit.delay`;
 * - `partition-time`: once the watermark passes the partition's time plus the
 *   delay. The partition's time is extracted from its values with
 *   `partition.time-extractor.timestamp-pattern` (`$dt $hr:00:00`; default:
 *   the first partition value), read with
 *   `partition.time-extractor.timestamp-formatter` (a Java date pattern such
 *   as `yyyyMMdd HH`; default `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-dd`), in
 *   `sink.partition-commit.watermark-time-zone` (UTC).
 *
 * At the end of a bounded input every partition is committed.
 */
import type { BucketCommitOptions } from "../../connectors/file/file-sink.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import { DatePatternError, formatWithPattern, parseWithPattern } from "../expr/functions/date-format.ts";
import { readDateText, readTimestampText, TemporalTextError } from "../formats/temporal-text.ts";
import { instantOfWallClock } from "../types/time-zone.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { DynamicTableContext } from "./dynamic-table-factory.ts";
import type { Layout } from "./partitioned-files.ts";
import { partitionValuesOf } from "./partition-path.ts";

/** The trigger options of a table. */
export interface PartitionCommitTrigger {
  kind: "process-time" | "partition-time";
  delayMs: number;
  /** `partition.time-extractor.timestamp-pattern`; the first partition value when undefined. */
  timestampPattern?: string;
  /** `partition.time-extractor.timestamp-formatter`; `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-dd` when undefined. */
  timestampFormatter?: string;
  watermarkTimeZone: string;
  /** The partition columns, in order (for errors and the default pattern). */
  keys: readonly string[];
  /** The table, for errors. */
  table: string;
}

/**
 * The time (epoch ms) of the partition at relative directory `bucket`.
 *
 * @throws {SqlValidationError} when the extracted text is not a timestamp or date
 * @example
 * ```ts
 * partitionTime("dt=2020-05-01/hr=09", { kind: "partition-time", delayMs: 0, timestampPattern: "$dt $hr:00:00", watermarkTimeZone: "UTC", keys: ["dt", "hr"], table: "t" });
 * // 1588323600000
 * ```
 */
export function partitionTime(bucket: string, t: PartitionCommitTrigger): number {
  const values = partitionValuesOf(`${bucket}/file`);
  const text =
    t.timestampPattern === undefined
      ? (values.get(t.keys[0]!) ?? "")
      : t.timestampPattern.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, key: string) => values.get(key) ?? m);
  let wall: number | null;
  if (t.timestampFormatter !== undefined) wall = parseWithPattern(text.trim(), t.timestampFormatter);
  else {
    try {
      wall = /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? readDateText(text.trim()) * 86_400_000 : readTimestampText(text.trim(), "SQL");
    } catch (e) {
      if (!(e instanceof TemporalTextError)) throw e;
      wall = null;
    }
  }
  if (wall === null) {
    const expected = t.timestampFormatter === undefined ? "a timestamp 'yyyy-MM-dd HH:mm:ss' or a date 'yyyy-MM-dd'" : `of the form '${t.timestampFormatter}'`;
    throw new SqlValidationError(
      `Table '${t.table}': cannot extract the time of partition '${bucket}': '${text}' is not ${expected} (see 'partition.time-extractor.timestamp-pattern' and 'partition.time-extractor.timestamp-formatter').`,
    );
  }
  return instantOfWallClock(wall, t.watermarkTimeZone);
}

/**
 * Whether a partition is committed now, as `FileSink`'s bucket commit asks.
 *
 * @example
 * ```ts
 * const sink = FileSink.forLines(path, { bucketCommit: { successFileName: "_SUCCESS", isComplete: partitionCommitCondition(trigger) } });
 * ```
 */
export function partitionCommitCondition(t: PartitionCommitTrigger): (bucket: string, createdAt: number, watermark: number, now: number) => boolean {
  if (t.kind === "process-time") return (_bucket, createdAt, _watermark, now) => now >= createdAt + t.delayMs;
  return (bucket, _createdAt, watermark) => watermark >= partitionTime(bucket, t) + t.delayMs;
}

/**
 * The partition commit of a partitioned sink from its `sink.partition-commit.*`
 * options, as `FileSink`'s bucket commit; undefined without a policy.
 *
 * @throws {SqlValidationError} naming the table and the option for a policy other than `success-file`, a policy on an
 * unpartitioned table, an unknown time zone or a pattern naming a column that is not a partition column
 * @example
 * ```ts
 * FileSink.forLines(path, { bucketCommit: bucketCommitOf(ctx, layoutOf(ctx)) });
 * ```
 */
export function bucketCommitOf(ctx: DynamicTableContext, layout: Layout): BucketCommitOptions | undefined {
  const o = ctx.options.options;
  const table = identifierString(ctx.table.identifier);
  const kinds = (o.get("sink.partition-commit.policy.kind") as string | undefined)?.split(",").map((k) => k.trim().toLowerCase());
  if (kinds === undefined) return undefined;
  if (layout.keys.length === 0) {
    throw new SqlValidationError(`Table '${table}': 'sink.partition-commit.policy.kind' needs a partitioned table (PARTITIONED BY).`);
  }
  for (const kind of kinds) {
    if (kind === "metastore") {
      throw new SqlValidationError(`Table '${table}': the partition commit policy 'metastore' needs a Hive metastore, which Weir does not have; use 'success-file'.`);
    }
    if (kind !== "success-file") {
      throw new SqlValidationError(`Table '${table}': unknown partition commit policy '${kind}' in 'sink.partition-commit.policy.kind'; Weir supports 'success-file'.`);
    }
  }
  const zone = o.get("sink.partition-commit.watermark-time-zone") as string;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
  } catch {
    throw new SqlValidationError(`Table '${table}': invalid value for option 'sink.partition-commit.watermark-time-zone': '${zone}' is not a time zone id such as 'UTC' or 'Asia/Shanghai'.`);
  }
  const pattern = o.get("partition.time-extractor.timestamp-pattern") as string | undefined;
  const formatter = o.get("partition.time-extractor.timestamp-formatter") as string | undefined;
  if (formatter !== undefined) {
    try {
      formatWithPattern(0, formatter);
    } catch (e) {
      if (!(e instanceof DatePatternError)) throw e;
      throw new SqlValidationError(`Table '${table}': invalid value for option 'partition.time-extractor.timestamp-formatter': ${e.message}`);
    }
  }
  const trigger: PartitionCommitTrigger = {
    kind: o.get("sink.partition-commit.trigger") as PartitionCommitTrigger["kind"],
    delayMs: o.get("sink.partition-commit.delay") as number,
    ...(pattern === undefined ? {} : { timestampPattern: pattern }),
    ...(formatter === undefined ? {} : { timestampFormatter: formatter }),
    watermarkTimeZone: zone,
    keys: layout.keys,
    table,
  };
  if (pattern !== undefined) {
    for (const [, key] of pattern.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)) {
      if (!layout.keys.includes(key!)) {
        throw new SqlValidationError(
          `Table '${table}': 'partition.time-extractor.timestamp-pattern' names '$${key}', which is not a partition column (${layout.keys.join(", ")}).`,
        );
      }
    }
  }
  return { successFileName: o.get("sink.partition-commit.success-file.name") as string, isComplete: partitionCommitCondition(trigger) };
}
