/**
 * The `kafka` connector (Flink's): a Kafka topic as a table. As a source it
 * reads the topics (`topic`, `topic-pattern`) from `scan.startup.mode`, until
 * `scan.bounded.mode` when bounded, with the DataStream `KafkaSource`
 * (exactly-once: offsets are in checkpoints). As a sink it writes with the
 * `KafkaSink` under `sink.delivery-guarantee` (`exactly-once`: Kafka
 * transactions committed when a checkpoint completes).
 *
 * A row is read from the message key (the `key.fields`, in `key.format`)
 * and value (`format`/`value.format`: every physical column, or all but the
 * key's with `value.fields-include` = `EXCEPT_KEY`), then the metadata
 * columns (`kafka-record-rows.ts`). With a changelog value format
 * (`debezium-json`, `canal-json`) the source emits every row kind and the
 * sink accepts them; otherwise both are insert-only. A record that does
 * not parse fails the job naming the table, topic, partition and offset,
 * unless the format's `ignore-parse-errors` is set. A tombstone (no value)
 * is no row.
 *
 * @example
 * ```sql
 * CREATE TABLE orders (
 *   id BIGINT, product STRING, price DOUBLE,
 *   ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
 *   WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
 * ) WITH ('connector' = 'kafka', 'topic' = 'orders', 'properties.bootstrap.servers' = 'localhost:9092',
 *         'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
 * ```
 */
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { rowKeySelector } from "../runtime/row-key.ts";
import { option } from "../../config/config-option.ts";
import type { DynamicTableContext, DynamicTableFactory, TableFactoryOptions, TableSink, TableSource } from "./dynamic-table-factory.ts";
import { KAFKA_READABLE_METADATA, KAFKA_WRITABLE_METADATA, messageFormats, recordReader, recordWriter } from "./kafka-record-rows.ts";
import { KAFKA_COMMON_OPTIONS, KAFKA_STARTUP_MODES, kafkaOptionError, kafkaTableConfig } from "./kafka-table-options.ts";
import { kafkaRowSink, kafkaRowStream } from "./kafka-table-streams.ts";
import { WATERMARK_ALIGNMENT_OPTIONS, watermarkAlignmentOf } from "./watermark-alignment-options.ts";

function createSource(ctx: DynamicTableContext): TableSource {
  const config = kafkaTableConfig(ctx, "source", false);
  const read = recordReader(config, ctx.physicalType.names.length, ctx.metadataKeys ?? [], false);
  const value = messageFormats(config).value;
  return {
    changelogMode: value.changelogMode,
    supportsWatermarkPushDown: true,
    watermarkAlignment: watermarkAlignmentOf(ctx),
    unbounded: config.bounded === undefined,
    produce: (watermarks) => kafkaRowStream(ctx, config, read, `Source: ${config.table} (kafka, ${value.identifier})`, watermarks),
  };
}

function createSink(ctx: DynamicTableContext): TableSink {
  const config = kafkaTableConfig(ctx, "sink", false);
  const write = recordWriter(config, ctx.physicalType.names.length, ctx.metadataKeys ?? [], false);
  const value = messageFormats(config).value;
  const updating = !ChangelogMode.isInsertOnly(value.changelogMode);
  if (updating && config.sinkParallelism !== undefined && ctx.primaryKey === undefined) {
    throw kafkaOptionError(config.table, `'sink.parallelism' with the changelog format '${value.identifier}' needs a PRIMARY KEY, to keep the changes of each key in order.`);
  }
  return {
    acceptedMode: value.changelogMode,
    consume(stream) {
      const input = updating && config.sinkParallelism !== undefined ? stream.keyBy(rowKeySelector(ctx.primaryKey!)) : stream;
      return kafkaRowSink(input as typeof stream, ctx, config, write, `Sink: ${config.table} (kafka, ${value.identifier})`);
    },
  };
}

/** The options of `kafka`, with Flink's keys and defaults. */
const OPTIONS: TableFactoryOptions = {
  formatKeys: ["format", "key.format", "value.format"],
  requiredOptions: [option("properties.bootstrap.servers", { kind: "string" }, "The Kafka brokers, 'host:port,…'.")],
  optionalOptions: [
    ...WATERMARK_ALIGNMENT_OPTIONS,
    ...KAFKA_COMMON_OPTIONS,
    option("topic-pattern", { kind: "string" }, "A regular expression of the topics to read."),
    option("format", { kind: "string" }, "The format of the message value (or 'value.format')."),
    option("key.fields", { kind: "string" }, "The physical columns in the message key, 'a;b'."),
    option("scan.startup.mode", { kind: "enum", values: KAFKA_STARTUP_MODES }, "Where the source starts.", "group-offsets"),
    option("scan.startup.timestamp-millis", { kind: "int" }, "The start timestamp of 'scan.startup.mode' = 'timestamp'."),
    option("scan.startup.specific-offsets", { kind: "string" }, "The start offsets of 'scan.startup.mode' = 'specific-offsets': 'partition:0,offset:42;…'."),
    option("scan.parallelism", { kind: "int" }, "The parallelism of the source; the job's when unset."),
    option("sink.partitioner", { kind: "string" }, "How rows are spread over partitions: 'default' (the key's hash) or 'round-robin'.", "default"),
  ],
};

/** The `kafka` connector's factory. */
export const KAFKA_TABLE_FACTORY: DynamicTableFactory = {
  identifier: "kafka",
  ...OPTIONS,
  readableMetadata: KAFKA_READABLE_METADATA,
  writableMetadata: KAFKA_WRITABLE_METADATA,
  createSource,
  createSink,
};
