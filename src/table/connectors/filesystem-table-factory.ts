/**
 * The `filesystem` connector (Flink's): a table stored as files under
 * `path` in a format (`json`, `csv`, `debezium-json`, `canal-json`, `raw`;
 * see `src/table/formats/`).
 *
 * As a source it reads the files under `path` (a directory, read
 * recursively without hidden files such as in-progress part files, or one
 * file) with the DataStream `FileSource`: bounded by default (the files present
 * when the job starts), or continuous with `source.monitor-interval`, listing
 * the path at that interval and reading new files as they appear. Exactly-once:
 * checkpoints hold each file's byte offset of the next record and the files
 * taken. A malformed record fails the job with a `FileSourceParseError`
 * naming the file, the line and the problem (field or column), unless the
 * format's `ignore-parse-errors` is set.
 *
 * As a sink it writes part files under `path` with the DataStream `FileSink`
 * (two-phase commit: files appear, complete, when a checkpoint completes, every
 * row exactly once; enable checkpointing). Parts roll at every checkpoint and
 * by `sink.rolling-policy.file-size`, `.rollover-interval` and
 * `.inactivity-interval` (checked at `.check-interval` as rows arrive).
 * `json`, `csv` and `raw` accept inserts only; `debezium-json` and
 * `canal-json` every row kind. With `sink.parallelism` an updating stream is
 * distributed by the table's primary key, which it needs.
 *
 * A table `PARTITIONED BY (k1, k2)` is stored in `k1=v1/k2=v2/` directories
 * without the partition columns in the files (`partitioned-files.ts`); the
 * sink distributes rows by partition and, with
 * `sink.partition-commit.policy.kind` = `success-file`, writes a success file
 * into each partition it commits (`partition-commit.ts`).
 *
 * A lookup join (`FOR SYSTEM_TIME AS OF` a processing-time attribute) reads
 * the table's files whole when each of its tasks opens.
 *
 * The source reads the files of each listing oldest first (by modification
 * time): the order in which the sink finished its part files, also across
 * restarts of the writing job. So a changelog written by this connector and
 * read back with one reader (parallelism 1) folds to the table written.
 *
 * @example
 * ```sql
 * CREATE TABLE clicks (`user` STRING, url STRING, cTime TIMESTAMP(3))
 * WITH ('connector' = 'filesystem', 'path' = 'clicks/', 'format' = 'json', 'source.monitor-interval' = '1 s');
 * CREATE TABLE counts (`user` STRING, cnt BIGINT)
 * WITH ('connector' = 'filesystem', 'path' = 'out/', 'format' = 'debezium-json');
 * INSERT INTO counts SELECT `user`, COUNT(url) FROM clicks GROUP BY `user`;
 * ```
 */
import { option } from "../../config/config-option.ts";
import type { DataStreamSink } from "../../api/data-stream.ts";
import { FileSink } from "../../connectors/file/file-sink.ts";
import { FileSource } from "../../connectors/file/file-source.ts";
import { WatermarkStrategy } from "../../time/watermark-strategy.ts";
import { sourceWatermarkStrategy } from "./source-watermarks.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import type { Row } from "../data/row.ts";
import { createTableFormat } from "../formats/builtin-formats.ts";
import { FormatValueError } from "../formats/format-value-error.ts";
import type { TableFormat } from "../formats/table-format.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { rowKeySelector } from "../runtime/row-key.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { DynamicTableContext, DynamicTableFactory, TableFactoryOptions, TableSink, TableSource } from "./dynamic-table-factory.ts";
import { TableSinkError } from "./table-sink-error.ts";
import { readTableFiles } from "./read-table-files.ts";
import { bucketCommitOf } from "./partition-commit.ts";
import { partitionPath } from "./partition-path.ts";
import { layoutOf, partitionCodecs, withPartitionValues, type Layout } from "./partitioned-files.ts";
import { WATERMARK_ALIGNMENT_OPTIONS, watermarkAlignmentOf } from "./watermark-alignment-options.ts";

/** The format of the files: of the data columns; with `projection` (physical positions) it may leave the others NULL. */
function formatOf(ctx: DynamicTableContext, layout: Layout, projection?: readonly number[]): TableFormat {
  const f = ctx.options.format;
  if (f === undefined) throw new SqlValidationError("The 'filesystem' connector needs the option 'format'.");
  const rowType = { names: layout.dataPositions.map((i) => ctx.physicalType.names[i]!), types: layout.dataPositions.map((i) => ctx.physicalType.types[i]!) };
  const dataProjection = projection?.flatMap((p) => (layout.dataPositions.includes(p) ? [layout.dataPositions.indexOf(p)] : []));
  return createTableFormat(f.identifier, rowType, f.options, dataProjection);
}

function pathOf(ctx: DynamicTableContext): string {
  return ctx.options.options.get("path") as string;
}

function positiveOption(ctx: DynamicTableContext, key: string): number | undefined {
  const v = ctx.options.options.get(key) as number | undefined;
  if (v !== undefined && !(v > 0)) throw new SqlValidationError(`Invalid value for option '${key}': it must be positive.`);
  return v;
}

/** Reads the files of a table as rows of its physical columns. */
function createSource(ctx: DynamicTableContext): TableSource {
  const layout = layoutOf(ctx);
  const format = formatOf(ctx, layout);
  const monitorIntervalMs = positiveOption(ctx, "source.monitor-interval");
  const path = pathOf(ctx);
  const table = identifierString(ctx.table.identifier);
  const records = withPartitionValues(ctx, layout, format);
  return {
    changelogMode: format.changelogMode,
    supportsWatermarkPushDown: true,
    watermarkAlignment: watermarkAlignmentOf(ctx),
    unbounded: monitorIntervalMs !== undefined,
    produce(watermarks, projection) {
      const read = projection === undefined ? records : withPartitionValues(ctx, layout, formatOf(ctx, layout, projection));
      const order = { fileOrder: "modification-time" } as const;
      const source = FileSource.forFormat<Row[]>(path, read, monitorIntervalMs === undefined ? order : { ...order, monitorIntervalMs });
      return ctx.env
        .fromSource(source, watermarks === undefined ? WatermarkStrategy.noWatermarks() : sourceWatermarkStrategy(watermarks, (rows: Row[]) => rows), `Source: ${table}`)
        .uid(ctx.uid)
        .name(`Source: ${table} (filesystem, ${format.identifier})`)
        .flatMap<Row>((rows: Row[], out) => {
          for (const r of rows) out.collect(r);
        })
        .uid(`${ctx.uid}-rows`)
        .name(`Rows: ${table}`);
    },
    readAll: () => readTableFiles(path, records),
  };
}

/** Writes rows as exactly-once part files. */
function createSink(ctx: DynamicTableContext): TableSink {
  const layout = layoutOf(ctx);
  const format = formatOf(ctx, layout);
  if (format.identifier === "debezium-json" && ctx.options.format?.options.get("schema-include") === true) {
    throw new SqlValidationError("'debezium-json.schema-include' = 'true' is supported for reading only.");
  }
  if (format.identifier === "raw") {
    const charset = String(ctx.options.format?.options.get("charset"));
    if (new TextDecoder(charset).encoding !== "utf-8") throw new SqlValidationError(`The 'filesystem' sink writes the 'raw' format in UTF-8 only; 'raw.charset' is '${charset}'.`);
    if (["binary", "varbinary"].includes(ctx.physicalType.types[layout.dataPositions[0]!]!.kind)) {
      throw new SqlValidationError("The 'filesystem' sink writes text: the 'raw' format's BYTES column can be read but not written; declare it STRING.");
    }
  }
  const path = pathOf(ctx);
  const parallelism = positiveOption(ctx, "sink.parallelism");
  const maxPartSizeBytes = positiveOption(ctx, "sink.rolling-policy.file-size");
  const inactivityIntervalMs = positiveOption(ctx, "sink.rolling-policy.inactivity-interval");
  const rolloverIntervalMs = positiveOption(ctx, "sink.rolling-policy.rollover-interval");
  const checkIntervalMs = positiveOption(ctx, "sink.rolling-policy.check-interval");
  const table = identifierString(ctx.table.identifier);
  const updating = !ChangelogMode.isInsertOnly(format.changelogMode);
  const partitioned = layout.keys.length > 0;
  if (parallelism !== undefined && updating && ctx.primaryKey === undefined && !partitioned) {
    throw new SqlValidationError(
      `Table '${table}': 'sink.parallelism' with the changelog format '${format.identifier}' needs a PRIMARY KEY, to keep the changes of each key in order.`,
    );
  }
  const bucketCommit = bucketCommitOf(ctx, layout);
  const defaultName = ctx.options.options.get("partition.default-name") as string;
  const codecs = partitioned ? partitionCodecs(ctx, layout) : undefined;
  const encode = (row: Row): string => {
    try {
      return format.encode(partitioned ? { kind: row.kind, fields: layout.dataPositions.map((i) => row.fields[i] ?? null) } : row);
    } catch (e) {
      if (e instanceof FormatValueError) throw new TableSinkError(table, e.message);
      throw e;
    }
  };
  const rollingPolicy = {
    ...(maxPartSizeBytes === undefined ? {} : { maxPartSizeBytes }),
    ...(inactivityIntervalMs === undefined ? {} : { inactivityIntervalMs }),
    ...(rolloverIntervalMs === undefined ? {} : { rolloverIntervalMs }),
    ...(checkIntervalMs === undefined ? {} : { checkIntervalMs }),
  };
  return {
    acceptedMode: format.changelogMode,
    consume(stream) {
      let sink: DataStreamSink;
      let encoded: { setParallelism(parallelism: number): unknown };
      if (codecs !== undefined) {
        // each partition is written by one subtask (Flink's sink.shuffle-by-partition), so its
        // files are committed together and its success file follows all of them
        const lines = stream
          .map((row: Row): [string, string] => {
            const values = layout.keyPositions.map((p, n) => {
              const v = row.fields[p] ?? null;
              return v === null ? null : codecs.write[n]!(v);
            });
            return [partitionPath(layout.keys, values, defaultName), encode(row)];
          })
          .uid(`${ctx.uid}-encode`)
          .name(`Encode: ${table} (${format.identifier}, partitioned)`);
        encoded = lines;
        sink = lines
          .keyBy((l: [string, string]) => l[0])
          .sinkTo(
            FileSink.forLines<[string, string]>(path, {
              rollingPolicy,
              lineOf: (l) => l[1],
              bucketAssigner: (l) => l[0],
              ...(bucketCommit === undefined ? {} : { bucketCommit }),
            }),
          );
      } else {
        const input = parallelism !== undefined && updating ? stream.keyBy(rowKeySelector(ctx.primaryKey!)) : stream;
        const lines = input.map(encode).uid(`${ctx.uid}-encode`).name(`Encode: ${table} (${format.identifier})`);
        encoded = lines;
        sink = lines.sinkTo(FileSink.forLines<string>(path, { rollingPolicy }));
      }
      sink.uid(ctx.uid).name(`Sink: ${table} (filesystem, ${format.identifier})`);
      if (parallelism !== undefined) {
        encoded.setParallelism(parallelism);
        sink.setParallelism(parallelism);
      }
      return sink;
    },
  };
}

/** The options of `filesystem`, with Flink's keys and defaults. */
const OPTIONS: TableFactoryOptions = {
  requiredOptions: [
    option("path", { kind: "string" }, "The directory (or file) to read or write."),
    option("format", { kind: "string" }, "The format of the files: 'json', 'csv', 'debezium-json', 'canal-json' or 'raw'."),
  ],
  optionalOptions: [
    ...WATERMARK_ALIGNMENT_OPTIONS,
    option("source.monitor-interval", { kind: "duration" }, "How often a continuous source looks for new files; unset for a bounded source."),
    option("sink.rolling-policy.file-size", { kind: "memory" }, "The maximum size of a part file before it rolls.", 128 * 1024 * 1024),
    option("sink.rolling-policy.rollover-interval", { kind: "duration" }, "The maximum time a part file stays open before it rolls.", 30 * 60_000),
    option("sink.rolling-policy.inactivity-interval", { kind: "duration" }, "A part file that received nothing for this long rolls.", 30 * 60_000),
    option("sink.rolling-policy.check-interval", { kind: "duration" }, "How often the time-based rolling conditions are checked.", 60_000),
    option("sink.parallelism", { kind: "int" }, "The parallelism of the sink; the input's parallelism when unset."),
    option("sink.shuffle-by-partition.enable", { kind: "boolean" }, "Distribute rows by partition; Weir always does.", false),
    option("partition.default-name", { kind: "string" }, "The directory name of a partition whose value is NULL or empty.", "__DEFAULT_PARTITION__"),
    option("sink.partition-commit.trigger", { kind: "enum", values: ["process-time", "partition-time"] }, "When a partition is committed.", "process-time"),
    option("sink.partition-commit.delay", { kind: "duration" }, "How long after its time (or creation) a partition is committed.", 0),
    option("sink.partition-commit.watermark-time-zone", { kind: "string" }, "The time zone of partition times compared with the watermark.", "UTC"),
    option("partition.time-extractor.timestamp-pattern", { kind: "string" }, "How a partition's time is made of its values, e.g. '$dt $hr:00:00'."),
    option("partition.time-extractor.timestamp-formatter", { kind: "string" }, "The Java date pattern of the extracted partition time, e.g. 'yyyyMMdd HH'."),
    option("sink.partition-commit.policy.kind", { kind: "string" }, "What committing a partition does: 'success-file'."),
    option("sink.partition-commit.success-file.name", { kind: "string" }, "The name of the success file of a committed partition.", "_SUCCESS"),
  ],
};

/**
 * The `filesystem` connector's factory.
 *
 * @example
 * ```ts
 * const sink = FILESYSTEM_TABLE_FACTORY.createSink!(ctx); // ctx.options: 'path', 'format', …
 * sink.consume(rows);
 * ```
 */
export const FILESYSTEM_TABLE_FACTORY: DynamicTableFactory = { identifier: "filesystem", ...OPTIONS, createSource, createSink };
