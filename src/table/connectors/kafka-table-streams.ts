/**
 * The DataStream side of the `kafka` and `upsert-kafka` tables: a
 * `KafkaSource` whose record deserializer yields the table's rows, and a
 * `KafkaSink` whose record serializer writes them.
 */
import type { DataStream, DataStreamSink } from "../../api/data-stream.ts";
import { KafkaSink } from "../../connectors/kafka/kafka-sink.ts";
import type { KafkaRecordSerializationSchema } from "../../connectors/kafka/kafka-record-serialization-schema.ts";
import { KafkaSource } from "../../connectors/kafka/kafka-source.ts";
import { OffsetsInitializer } from "../../connectors/kafka/offsets-initializer.ts";
import { WatermarkStrategy } from "../../time/watermark-strategy.ts";
import type { Row } from "../data/row.ts";
import type { DynamicTableContext } from "./dynamic-table-factory.ts";
import type { KafkaConsumerRecord } from "../../connectors/kafka/kafka-record-deserialization-schema.ts";
import type { KafkaProducerRecord } from "../../connectors/kafka/kafka-record-serialization-schema.ts";
import type { KafkaOffsets, KafkaTableConfig } from "./kafka-table-options.ts";
import { sourceWatermarkStrategy, type SourceWatermarks } from "./source-watermarks.ts";

function initializer(o: KafkaOffsets): OffsetsInitializer {
  switch (o.mode) {
    case "earliest-offset":
      return OffsetsInitializer.earliest();
    case "latest-offset":
      return OffsetsInitializer.latest();
    case "group-offsets":
      return OffsetsInitializer.committedOffsets(o.reset);
    case "timestamp":
      return OffsetsInitializer.timestamp(o.timestampMs);
    case "specific-offsets":
      return OffsetsInitializer.offsets(o.offsets);
  }
}

/** The client properties of a table: `properties.*` without the ones the builders take. */
function clientProperties(config: KafkaTableConfig): Record<string, string> {
  const { ["bootstrap.servers"]: _servers, ["group.id"]: _group, ...rest } = config.properties;
  return rest;
}

/**
 * The rows of the table's topics, read by a `KafkaSource` from its start to
 * its stop offsets, with the table's watermarks generated per partition.
 */
export function kafkaRowStream(ctx: DynamicTableContext, config: KafkaTableConfig, read: (r: KafkaConsumerRecord) => Row[], name: string, watermarks?: SourceWatermarks): DataStream<Row> {
  const builder = KafkaSource.builder<Row>()
    .setBootstrapServers(config.bootstrapServers)
    .setStartingOffsets(initializer(config.startup))
    .setClientIdPrefix(ctx.uid)
    .setProperties(clientProperties(config))
    .setProperty("partition.discovery.interval.ms", String(config.discoveryIntervalMs))
    .setDeserializer({
      deserialize(record, out) {
        for (const row of read(record)) out.collect(row);
      },
    });
  if (config.topicPattern !== undefined) builder.setTopicPattern(config.topicPattern);
  else builder.setTopics([...config.topics!]);
  builder.setGroupId(config.groupId ?? `KafkaSource-${config.table}`);
  if (config.bounded !== undefined) builder.setBounded(initializer(config.bounded));
  const strategy = watermarks === undefined ? WatermarkStrategy.noWatermarks<Row>() : sourceWatermarkStrategy(watermarks);
  const stream = ctx.env.fromSource(builder.build(), strategy, name).uid(ctx.uid).name(name);
  if (config.scanParallelism !== undefined) stream.setParallelism(config.scanParallelism);
  return stream;
}

/** Writes `stream` with a `KafkaSink` under the table's delivery guarantee and partitioner. */
export function kafkaRowSink(stream: DataStream<Row>, ctx: DynamicTableContext, config: KafkaTableConfig, write: (row: Row) => KafkaProducerRecord | null, name: string): DataStreamSink {
  let next = 0;
  const serializer: KafkaRecordSerializationSchema<Row> = {
    serialize: (row) => write(row),
    ...(config.partitioner === "round-robin" ? { partitioner: (_row: Row, _key: unknown, _value: unknown, _topic: string, count: number) => next++ % count } : {}),
  };
  const builder = KafkaSink.builder<Row>()
    .setBootstrapServers(config.bootstrapServers)
    .setRecordSerializer(serializer)
    .setDeliveryGuarantee(config.deliveryGuarantee)
    .setProperties(clientProperties(config));
  if (config.transactionalIdPrefix !== undefined) builder.setTransactionalIdPrefix(config.transactionalIdPrefix);
  const sink = stream.sinkTo(builder.build()).uid(ctx.uid).name(name);
  if (config.sinkParallelism !== undefined) sink.setParallelism(config.sinkParallelism);
  return sink;
}
