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
 * by `sink.rolling-policy.file-size` and `sink.rolling-policy.inactivity-interval`
 * (`rollover-interval` and `check-interval` are accepted; rolling at every
 * checkpoint bounds how long a part stays open). `json` and `csv` accept
 * inserts only; `debezium-json` every row kind. With `sink.parallelism` an
 * updating stream is distributed by the table's primary key, which it needs.
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
import type { DynamicTableContext, DynamicTableFactory, TableSink, TableSource } from "./dynamic-table-factory.ts";
import { TableSinkError } from "./table-sink-error.ts";
import { readTableFiles } from "./read-table-files.ts";

function formatOf(ctx: DynamicTableContext, projection?: readonly number[]): TableFormat {
  const f = ctx.options.format;
  if (f === undefined) throw new SqlValidationError("The 'filesystem' connector needs the option 'format'.");
  return createTableFormat(f.identifier, ctx.physicalType, f.options, projection);
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
  const format = formatOf(ctx);
  const monitorIntervalMs = positiveOption(ctx, "source.monitor-interval");
  const path = pathOf(ctx);
  const table = identifierString(ctx.table.identifier);
  return {
    changelogMode: format.changelogMode,
    unbounded: monitorIntervalMs !== undefined,
    produce(watermarks, projection) {
      const read = projection === undefined ? format : formatOf(ctx, projection);
      const order = { fileOrder: "modification-time" } as const;
      const source = FileSource.forFormat<Row[]>(path, read.records, monitorIntervalMs === undefined ? order : { ...order, monitorIntervalMs });
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
    readAll: () => readTableFiles(path, format),
  };
}

/** Writes rows as exactly-once part files. */
function createSink(ctx: DynamicTableContext): TableSink {
  const format = formatOf(ctx);
  if (format.identifier === "debezium-json" && ctx.options.format?.options.get("schema-include") === true) {
    throw new SqlValidationError("'debezium-json.schema-include' = 'true' is supported for reading only.");
  }
  if (format.identifier === "raw") {
    const charset = String(ctx.options.format?.options.get("charset"));
    if (new TextDecoder(charset).encoding !== "utf-8") throw new SqlValidationError(`The 'filesystem' sink writes the 'raw' format in UTF-8 only; 'raw.charset' is '${charset}'.`);
    if (["binary", "varbinary"].includes(ctx.physicalType.types[0]!.kind)) {
      throw new SqlValidationError("The 'filesystem' sink writes text: the 'raw' format's BYTES column can be read but not written; declare it STRING.");
    }
  }
  const path = pathOf(ctx);
  const parallelism = positiveOption(ctx, "sink.parallelism");
  const maxPartSizeBytes = positiveOption(ctx, "sink.rolling-policy.file-size");
  const inactivityIntervalMs = positiveOption(ctx, "sink.rolling-policy.inactivity-interval");
  const table = identifierString(ctx.table.identifier);
  const updating = !ChangelogMode.isInsertOnly(format.changelogMode);
  if (parallelism !== undefined && updating && ctx.primaryKey === undefined) {
    throw new SqlValidationError(
      `Table '${table}': 'sink.parallelism' with the changelog format '${format.identifier}' needs a PRIMARY KEY, to keep the changes of each key in order.`,
    );
  }
  return {
    acceptedMode: format.changelogMode,
    consume(stream) {
      const input = parallelism !== undefined && updating ? stream.keyBy(rowKeySelector(ctx.primaryKey!)) : stream;
      const lines = input
        .map((row: Row): string => {
          try {
            return format.encode(row);
          } catch (e) {
            if (e instanceof FormatValueError) throw new TableSinkError(table, e.message);
            throw e;
          }
        })
        .uid(`${ctx.uid}-encode`)
        .name(`Encode: ${table} (${format.identifier})`);
      const rollingPolicy = {
        ...(maxPartSizeBytes === undefined ? {} : { maxPartSizeBytes }),
        ...(inactivityIntervalMs === undefined ? {} : { inactivityIntervalMs }),
      };
      const sink = lines.sinkTo(FileSink.forLines<string>(path, { rollingPolicy })).uid(ctx.uid).name(`Sink: ${table} (filesystem, ${format.identifier})`);
      if (parallelism !== undefined) {
        lines.setParallelism(parallelism);
        sink.setParallelism(parallelism);
      }
      return sink;
    },
  };
}

/**
 * The `filesystem` connector's factory.
 *
 * @example
 * ```ts
 * const sink = FILESYSTEM_TABLE_FACTORY.createSink!(ctx); // ctx.options: 'path', 'format', …
 * sink.consume(rows);
 * ```
 */
export const FILESYSTEM_TABLE_FACTORY: DynamicTableFactory = { identifier: "filesystem", createSource, createSink };
