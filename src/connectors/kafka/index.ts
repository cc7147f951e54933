/**
 * Kafka connectors (on @platformatic/kafka, loaded lazily).
 */
// --- source ---
export { KafkaSource, KafkaSourceBuilder } from "./kafka-source.ts";
export { OffsetsInitializer, type OffsetResetStrategy, type TopicPartition } from "./offsets-initializer.ts";
export { KafkaRecordDeserializationSchema, type KafkaConsumerRecord } from "./kafka-record-deserialization-schema.ts";
export type { KafkaDiscoverySplit, KafkaPartitionSplit, KafkaSourceSplit } from "./kafka-partition-split.ts";
export { KafkaConnectionError, KafkaDeserializationError, KafkaSourceError, KafkaSourceOffsetError, KafkaTopicNotFoundError } from "./kafka-source-errors.ts";
// --- shared ---
export { KafkaConfigError } from "./kafka-client.ts";
