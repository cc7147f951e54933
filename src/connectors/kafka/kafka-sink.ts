/**
 * Flink's `KafkaSink`: writes a stream to Kafka topics with a delivery guarantee: `NONE` (the default),
 * `AT_LEAST_ONCE`, or `EXACTLY_ONCE` through Kafka transactions committed when checkpoints complete.
 */
import type { Sink, SinkContext, SinkWriter } from "../../core/sink.ts";
import { DeliveryGuarantee } from "./delivery-guarantee.ts";
import type { KafkaRecordSerializationSchema } from "./kafka-record-serialization-schema.ts";
import { resolveKafkaSinkSettings, type KafkaSinkBuilderState, type KafkaSinkSettings } from "./kafka-sink-settings.ts";
import { KafkaTransactionalSink } from "./kafka-transactional-sink.ts";
import { KafkaWriter } from "./kafka-writer.ts";

/**
 * A sink writing records to Kafka. Build it with `KafkaSink.builder()`.
 *
 * @example
 * ```ts
 * stream.sinkTo(
 *   KafkaSink.builder<string>()
 *     .setBootstrapServers("localhost:9092")
 *     .setRecordSerializer(KafkaRecordSerializationSchema.builder<string>().setTopic("out").setValueSerializationSchema(new SimpleStringSchema()).build())
 *     .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
 *     .setTransactionalIdPrefix("orders-job")
 *     .build(),
 * );
 * ```
 */
export class KafkaSink<T> implements Sink<T> {
  private readonly transactional: KafkaTransactionalSink<T> | undefined;

  /** Use `KafkaSink.builder()`. */
  constructor(readonly settings: KafkaSinkSettings<T>) {
    this.transactional = settings.deliveryGuarantee === DeliveryGuarantee.EXACTLY_ONCE ? new KafkaTransactionalSink(settings) : undefined;
  }

  /** Flink's entry point. */
  static builder<T>(): KafkaSinkBuilder<T> {
    return new KafkaSinkBuilder<T>();
  }

  createWriter(context: SinkContext): SinkWriter<T> {
    return this.transactional?.createWriter(context) ?? new KafkaWriter(this.settings, context);
  }
}

/** Collects a Kafka sink's settings; `build()` checks them (a `KafkaConfigError` names the one that is wrong). */
export class KafkaSinkBuilder<T> {
  private readonly state: KafkaSinkBuilderState<T> = { deliveryGuarantee: DeliveryGuarantee.NONE, properties: {} };

  /** `host:port[,host:port…]` of brokers to start from. */
  setBootstrapServers(servers: string): this {
    this.state.bootstrapServers = servers;
    return this;
  }

  /** Turns each value into a Kafka record (`KafkaRecordSerializationSchema.builder()`). */
  setRecordSerializer(serializer: KafkaRecordSerializationSchema<T>): this {
    this.state.serializer = serializer;
    return this;
  }

  /** `NONE` (default), `AT_LEAST_ONCE` or `EXACTLY_ONCE`. */
  setDeliveryGuarantee(guarantee: DeliveryGuarantee): this {
    this.state.deliveryGuarantee = guarantee;
    return this;
  }

  /**
   * The prefix of this sink's transactional ids (`${prefix}-${subtask}-${n}`), required for EXACTLY_ONCE.
   * Unique per job: at start the sink aborts the open transactions of its prefix.
   */
  setTransactionalIdPrefix(prefix: string): this {
    this.state.transactionalIdPrefix = prefix;
    return this;
  }

  /**
   * A producer property by Kafka's name: `transaction.timeout.ms` (default 900000), `acks` (all),
   * `enable.idempotence` (true unless acks is lowered), `buffer.memory`
   * (33554432), `max.request.size` (1048576), `delivery.timeout.ms` (120000), `retry.backoff.ms` (250),
   * `request.timeout.ms` (30000), `client.id`. Unknown names are refused at `build()`.
   */
  setProperty(key: string, value: string): this {
    this.state.properties[key] = value;
    return this;
  }

  /** Several producer properties (see {@link setProperty}). */
  setProperties(properties: Record<string, string>): this {
    for (const [k, v] of Object.entries(properties)) this.setProperty(k, v);
    return this;
  }

  build(): KafkaSink<T> {
    return new KafkaSink(resolveKafkaSinkSettings({ ...this.state, properties: { ...this.state.properties } }));
  }
}
