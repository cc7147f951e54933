/**
 * The Kafka sink of the sink suites (in-process and the `weir run` job file): string values `v-<n>` written
 * to `topic`, keyed by `<n>` (so a key always lands in one partition). Set the guarantee and prefix on it.
 */
import { SimpleStringSchema } from "../../src/index.ts";
import { KafkaRecordSerializationSchema, KafkaSink, type KafkaSinkBuilder } from "../../src/connectors/kafka/index.ts";

const text = new SimpleStringSchema();

/** A sink builder for `v-<n>` values keyed by `<n>`. */
export function valueSink(bootstrap: string, topic: string): KafkaSinkBuilder<string> {
  return KafkaSink.builder<string>()
    .setBootstrapServers(bootstrap)
    .setRecordSerializer(
      KafkaRecordSerializationSchema.builder<string>()
        .setTopic(topic)
        .setKeySerializationSchema({ serialize: (v) => text.serialize(v.slice(2)) })
        .setValueSerializationSchema(text)
        .build(),
    );
}
