/**
 * The `upsert-kafka` connector (Flink's): a topic of upserts as a table with
 * a PRIMARY KEY, the message key. As a source it reads the topic from the
 * earliest offset as an upsert changelog — a value is the key's new row, a
 * tombstone (no value) deletes the key — made a full changelog per key by
 * {@link changelogNormalize} (Flink's `ChangelogNormalize`: the last row of
 * each key in keyed state, so an update is `-U[old]` `+U[new]` and a delete
 * `-D[old]`). As a sink it writes `+I`/`+U` rows as key and value, `-D` as
 * the key with a tombstone, and drops `-U`; rows are distributed by key so
 * the changes of one key stay in order.
 *
 * @example
 * ```sql
 * CREATE TABLE pageviews_per_region (
 *   region STRING, views BIGINT, PRIMARY KEY (region) NOT ENFORCED
 * ) WITH ('connector' = 'upsert-kafka', 'topic' = 'pageviews_per_region',
 *         'properties.bootstrap.servers' = 'localhost:9092', 'key.format' = 'json', 'value.format' = 'json');
 * INSERT INTO pageviews_per_region SELECT region, COUNT(*) FROM pageviews GROUP BY region;
 * ```
 */
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { changelogNormalize } from "../runtime/changelog-normalize.ts";
import { rowKeySelector } from "../runtime/row-key.ts";
import { option } from "../../config/config-option.ts";
import type { DynamicTableContext, DynamicTableFactory, TableFactoryOptions, TableSink, TableSource } from "./dynamic-table-factory.ts";
import { KAFKA_READABLE_METADATA, KAFKA_WRITABLE_METADATA, recordReader, recordWriter } from "./kafka-record-rows.ts";
import { KAFKA_COMMON_OPTIONS, kafkaTableConfig } from "./kafka-table-options.ts";
import { kafkaRowSink, kafkaRowStream } from "./kafka-table-streams.ts";
import { WATERMARK_ALIGNMENT_OPTIONS, watermarkAlignmentOf } from "./watermark-alignment-options.ts";

function createSource(ctx: DynamicTableContext): TableSource {
  const config = kafkaTableConfig(ctx, "source", true);
  const read = recordReader(config, ctx.physicalType.names.length, ctx.metadataKeys ?? [], true);
  const key = ctx.primaryKey!;
  return {
    changelogMode: ChangelogMode.RETRACT,
    supportsWatermarkPushDown: true,
    watermarkAlignment: watermarkAlignmentOf(ctx),
    unbounded: config.bounded === undefined,
    produce(watermarks) {
      const upserts = kafkaRowStream(ctx, config, read, `Source: ${config.table} (upsert-kafka, ${config.value.identifier})`, watermarks);
      const names = key.map((p) => ctx.physicalType.names[p]).join(", ");
      return changelogNormalize(upserts, key, { uid: `${ctx.uid}-normalize`, name: `ChangelogNormalize(key=[${names}])` });
    },
  };
}

function createSink(ctx: DynamicTableContext): TableSink {
  const config = kafkaTableConfig(ctx, "sink", true);
  const write = recordWriter(config, ctx.physicalType.names.length, ctx.metadataKeys ?? [], true);
  return {
    acceptedMode: ChangelogMode.RETRACT,
    consume: (stream) =>
      kafkaRowSink(stream.keyBy(rowKeySelector(ctx.primaryKey!)) as unknown as typeof stream, ctx, config, write, `Sink: ${config.table} (upsert-kafka, ${config.value.identifier})`),
  };
}

/** The options of `upsert-kafka`, with Flink's keys and defaults. */
const OPTIONS: TableFactoryOptions = {
  formatKeys: ["key.format", "value.format"],
  requiredOptions: [option("properties.bootstrap.servers", { kind: "string" }, "The Kafka brokers, 'host:port,…'.")],
  optionalOptions: [...WATERMARK_ALIGNMENT_OPTIONS, ...KAFKA_COMMON_OPTIONS, option("scan.parallelism", { kind: "int" }, "The parallelism of the source; the job's when unset.")],
};

/** The `upsert-kafka` connector's factory. */
export const UPSERT_KAFKA_TABLE_FACTORY: DynamicTableFactory = {
  identifier: "upsert-kafka",
  ...OPTIONS,
  readableMetadata: KAFKA_READABLE_METADATA,
  writableMetadata: KAFKA_WRITABLE_METADATA,
  createSource,
  createSink,
};
