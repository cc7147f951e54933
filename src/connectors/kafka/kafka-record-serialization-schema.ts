/**
 * How the Kafka sink turns a value into a Kafka record (Flink's `KafkaRecordSerializationSchema`), and its
 * builder: topic (fixed or per value), key and value bytes, partition.
 */
import type { SerializationSchema } from "../../core/serialization-schema.ts";
import { KafkaConfigError } from "./kafka-config.ts";

/** A record for the Kafka sink to write. */
export interface KafkaProducerRecord {
  readonly topic: string;
  /** The partition; undefined lets the client choose (murmur2 of the key as Java's client, else round robin). */
  readonly partition?: number;
  readonly key?: Uint8Array | null;
  /** null writes a tombstone. */
  readonly value: Uint8Array | null;
  /** ms; undefined lets the broker's clock decide (CreateTime at send). */
  readonly timestamp?: number;
  readonly headers?: readonly (readonly [string, Uint8Array])[];
}

/** What a serialization schema knows of the value besides the value itself. */
export interface KafkaSinkContext {
  /** The value's timestamp when known. */
  readonly timestamp?: number;
}

/**
 * Turns one value into a Kafka record; null skips the value.
 *
 * @example
 * ```ts
 * const schema: KafkaRecordSerializationSchema<string> = {
 *   serialize: (s) => ({ topic: "lines", value: new TextEncoder().encode(s) }),
 * };
 * ```
 */
export interface KafkaRecordSerializationSchema<T> {
  serialize(element: T, context: KafkaSinkContext): KafkaProducerRecord | null;
  /**
   * The partition of a record this schema made without one, given its topic's partition count (set by
   * the builder's `setPartitioner`). The sink calls it once the count is known.
   */
  readonly partitioner?: KafkaPartitioner<T>;
}

/** Chooses the partition of a value (`partitionCount` partitions in `topic`); the result is taken modulo the count. */
export type KafkaPartitioner<T> = (element: T, key: Uint8Array | null, value: Uint8Array | null, topic: string, partitionCount: number) => number;

const CONNECTOR = "KafkaRecordSerializationSchema";

/** Builds a {@link KafkaRecordSerializationSchema}: a topic, a value serializer, optionally a key serializer and a partitioner. */
export class KafkaRecordSerializationSchemaBuilder<T> {
  private topic: string | undefined;
  private topicSelector: ((element: T) => string) | undefined;
  private keySchema: SerializationSchema<T> | undefined;
  private valueSchema: SerializationSchema<T> | undefined;
  private partitioner: KafkaPartitioner<T> | undefined;

  /** Every value goes to `topic`. */
  setTopic(topic: string): this {
    if (typeof topic !== "string" || topic.trim() === "") throw new KafkaConfigError(CONNECTOR, "setTopic: the topic is empty");
    this.topic = topic;
    return this;
  }

  /** Each value goes to the topic `selector` names for it. */
  setTopicSelector(selector: (element: T) => string): this {
    this.topicSelector = selector;
    return this;
  }

  /** The record's key bytes (no key when not set). */
  setKeySerializationSchema(schema: SerializationSchema<T>): this {
    this.keySchema = schema;
    return this;
  }

  /** The record's value bytes. */
  setValueSerializationSchema(schema: SerializationSchema<T>): this {
    this.valueSchema = schema;
    return this;
  }

  /** Chooses each record's partition (default: the client's, murmur2 of the key like Java's, round robin without key). */
  setPartitioner(partitioner: KafkaPartitioner<T>): this {
    this.partitioner = partitioner;
    return this;
  }

  build(): KafkaRecordSerializationSchema<T> {
    if (this.topic !== undefined && this.topicSelector !== undefined)
      throw new KafkaConfigError(CONNECTOR, "both setTopic and setTopicSelector are set: choose one");
    const fixed = this.topic;
    const selector = this.topicSelector;
    if (fixed === undefined && selector === undefined) throw new KafkaConfigError(CONNECTOR, "no topic: call setTopic(\"name\") or setTopicSelector(value => name)");
    const valueSchema = this.valueSchema;
    if (valueSchema === undefined) throw new KafkaConfigError(CONNECTOR, "no value serializer: call setValueSerializationSchema(schema)");
    const keySchema = this.keySchema;
    return {
      serialize(element: T): KafkaProducerRecord {
        const topic = fixed ?? selector!(element);
        if (typeof topic !== "string" || topic === "") throw new KafkaConfigError(CONNECTOR, `the topic selector returned ${JSON.stringify(topic)} for a value`);
        return { topic, key: keySchema?.serialize(element) ?? null, value: valueSchema.serialize(element) };
      },
      ...(this.partitioner === undefined ? {} : { partitioner: this.partitioner }),
    };
  }
}

/**
 * Flink's entry point: `KafkaRecordSerializationSchema.builder<T>()`.
 *
 * @example
 * ```ts
 * const schema = KafkaRecordSerializationSchema.builder<string>()
 *   .setTopic("lines")
 *   .setValueSerializationSchema(new SimpleStringSchema())
 *   .build();
 * ```
 */
export const KafkaRecordSerializationSchema = {
  builder<T>(): KafkaRecordSerializationSchemaBuilder<T> {
    return new KafkaRecordSerializationSchemaBuilder<T>();
  },
};
