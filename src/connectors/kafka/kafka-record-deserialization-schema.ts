/**
 * What a Kafka source hands its deserializer: the whole consumer record (topic, partition, offset,
 * timestamp, key, value, headers), and Flink's `KafkaRecordDeserializationSchema`, which turns one
 * record into zero or more values.
 */
import type { Collector } from "../../core/collector.ts";
import type { DeserializationSchema } from "../../core/serialization-schema.ts";

/** One record as a Kafka source reads it (Flink's `ConsumerRecord`). */
export interface KafkaConsumerRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  /** Milliseconds since the epoch: the producer's (CreateTime) or the broker's (LogAppendTime). */
  readonly timestamp: number;
  readonly timestampType: "CreateTime" | "LogAppendTime";
  readonly key: Uint8Array | null;
  /** Null for a tombstone. */
  readonly value: Uint8Array | null;
  readonly headers: readonly (readonly [string, Uint8Array | null])[];
}

/**
 * Turns a consumer record into values: emit none to skip it, one or several; throw to refuse it (the
 * source fails with a `KafkaDeserializationError` naming the topic, partition and offset).
 *
 * @example
 * ```ts
 * const withKey: KafkaRecordDeserializationSchema<{ key: string; value: string }> = {
 *   deserialize(record, out) {
 *     out.collect({ key: new TextDecoder().decode(record.key ?? new Uint8Array()), value: new TextDecoder().decode(record.value ?? new Uint8Array()) });
 *   },
 * };
 * KafkaSource.builder<{ key: string; value: string }>().setDeserializer(withKey);
 * ```
 */
export interface KafkaRecordDeserializationSchema<T> {
  deserialize(record: KafkaConsumerRecord, out: Collector<T>): void;
}

/** Builders of record deserializers (Flink's static methods of the interface). */
export const KafkaRecordDeserializationSchema = {
  /**
   * Deserializes the value alone with `schema`; a tombstone (a record without value) is skipped, as a
   * value-only schema has nothing to read.
   *
   * @example
   * ```ts
   * KafkaSource.builder<string>().setDeserializer(KafkaRecordDeserializationSchema.valueOnly(new SimpleStringSchema()));
   * ```
   */
  valueOnly<T>(schema: DeserializationSchema<T>): KafkaRecordDeserializationSchema<T> {
    return {
      deserialize(record, out) {
        if (record.value !== null) out.collect(schema.deserialize(record.value));
      },
    };
  },
};
