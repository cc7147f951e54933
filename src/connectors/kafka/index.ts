/**
 * Kafka connectors (on @platformatic/kafka, loaded lazily).
 */
// --- source ---
export { KafkaSource, KafkaSourceBuilder } from "./kafka-source.ts";
export { OffsetsInitializer, type OffsetResetStrategy, type TopicPartition } from "./offsets-initializer.ts";
export { KafkaRecordDeserializationSchema, type KafkaConsumerRecord } from "./kafka-record-deserialization-schema.ts";
export type { KafkaDiscoverySplit, KafkaPartitionSplit, KafkaSourceSplit } from "./kafka-partition-split.ts";
export { KafkaConnectionError, KafkaDeserializationError, KafkaSourceError, KafkaSourceOffsetError, KafkaTopicNotFoundError } from "./kafka-source-errors.ts";
// --- sink ---
export { KafkaSink, KafkaSinkBuilder } from "./kafka-sink.ts";
export { DeliveryGuarantee } from "./delivery-guarantee.ts";
export {
  KafkaRecordSerializationSchema,
  KafkaRecordSerializationSchemaBuilder,
  type KafkaPartitioner,
  type KafkaProducerRecord,
  type KafkaSinkContext,
} from "./kafka-record-serialization-schema.ts";
export { KafkaTransactionTimeoutError, type KafkaSinkUserContext, type KafkaTransaction } from "./kafka-transactional-sink.ts";
export { KafkaSendError, KafkaUnknownTopicError } from "./kafka-sink-errors.ts";
// --- shared ---
export { KafkaConfigError } from "./kafka-config.ts";
