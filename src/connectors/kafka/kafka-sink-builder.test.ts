import { describe, expect, it } from "vitest";
import { SimpleStringSchema } from "../../core/serialization-schema.ts";
import { DeliveryGuarantee } from "./delivery-guarantee.ts";
import { KafkaConfigError } from "./kafka-config.ts";
import { KafkaRecordSerializationSchema } from "./kafka-record-serialization-schema.ts";
import { KafkaSink } from "./kafka-sink.ts";
import { DEFAULT_TRANSACTION_TIMEOUT_MS } from "./kafka-sink-settings.ts";

const schema = KafkaRecordSerializationSchema.builder<string>().setTopic("t").setValueSerializationSchema(new SimpleStringSchema()).build();
const base = () => KafkaSink.builder<string>().setBootstrapServers("127.0.0.1:9092").setRecordSerializer(schema);

describe("KafkaSink.builder", () => {
  it("defaults as Flink: NONE; EXACTLY_ONCE keeps its prefix and a 15 min transaction timeout", () => {
    expect(base().build().settings.deliveryGuarantee).toBe(DeliveryGuarantee.NONE);
    const s = base().setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).setTransactionalIdPrefix("job").build().settings;
    expect(s.transactionalIdPrefix).toBe("job");
    expect(s.transactionTimeoutMs).toBe(DEFAULT_TRANSACTION_TIMEOUT_MS);
    expect(base().setProperty("transaction.timeout.ms", "60000").build().settings.transactionTimeoutMs).toBe(60_000);
  });

  it("refuses at build(): no bootstrap servers, no serializer, EXACTLY_ONCE without a prefix, bad properties", () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(KafkaConfigError);
        return (e as Error).message;
      }
      throw new Error("no error");
    };
    expect(err(() => KafkaSink.builder<string>().setRecordSerializer(schema).build())).toMatch(/bootstrap servers are not set/);
    expect(err(() => KafkaSink.builder<string>().setBootstrapServers("127.0.0.1:9092").build())).toMatch(/no record serializer/);
    expect(err(() => base().setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).build())).toMatch(/EXACTLY_ONCE needs a transactional id prefix/);
    expect(err(() => base().setTransactionalIdPrefix("a b").build())).toMatch(/transactional id prefix 'a b'/);
    expect(err(() => base().setProperty("transaction.timeout.ms", "soon").build())).toMatch(/'transaction.timeout.ms' must be a positive integer, got 'soon'/);
    expect(err(() => base().setProperty("linger.ms", "5").build())).toMatch(/unknown property 'linger.ms'/);
    expect(err(() => base().setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE).setProperty("acks", "1").build())).toMatch(/acks'=1 cannot give at-least-once/);
    expect(err(() => base().setBootstrapServers("nohost").build())).toMatch(/'nohost' is not host:port/);
    expect(err(() => base().setProperty("acks", "1").setProperty("enable.idempotence", "true").build())).toMatch(/'enable.idempotence'=true needs acks=all/);
  });

  it("the producer is idempotent as Kafka's since 3.0: unless acks is lowered or it is turned off", () => {
    expect(base().build().settings.idempotence).toBe(true);
    expect(base().setProperty("acks", "1").build().settings.idempotence).toBe(false);
    expect(base().setProperty("enable.idempotence", "false").build().settings.idempotence).toBe(false);
  });

  it("the record serialization schema: topic or selector, key and value, partitioner, and its refusals", () => {
    const text = new SimpleStringSchema();
    const s = KafkaRecordSerializationSchema.builder<string>()
      .setTopicSelector((v) => `t-${v.length}`)
      .setKeySerializationSchema(text)
      .setValueSerializationSchema(text)
      .setPartitioner((v, _k, _v, _t, count) => v.length % count)
      .build();
    const r = s.serialize("abc", {})!;
    expect(r.topic).toBe("t-3");
    expect(new TextDecoder().decode(r.key!)).toBe("abc");
    expect(s.partitioner!("abc", null, null, "t-3", 2)).toBe(1);
    expect(() => KafkaRecordSerializationSchema.builder<string>().setValueSerializationSchema(text).build()).toThrow(/no topic/);
    expect(() => KafkaRecordSerializationSchema.builder<string>().setTopic("t").build()).toThrow(/no value serializer/);
    expect(() => KafkaRecordSerializationSchema.builder<string>().setTopic("t").setTopicSelector(() => "u").setValueSerializationSchema(text).build()).toThrow(/both setTopic and setTopicSelector/);
  });
});
