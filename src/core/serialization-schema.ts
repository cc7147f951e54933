/**
 * How a connector turns one message's bytes into a value and back (Flink's
 * `DeserializationSchema` / `SerializationSchema`), with the built-ins for
 * text and JSON. Connectors that carry opaque messages (Kafka) take these.
 */

/** Turns the bytes of one message into a value; throws for bytes it refuses (the connector names the place). */
export interface DeserializationSchema<T> {
  deserialize(message: Uint8Array): T;
}

/** Turns a value into the bytes of one message. */
export interface SerializationSchema<T> {
  serialize(element: T): Uint8Array;
}

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/**
 * A message is UTF-8 text (both directions).
 *
 * @example
 * ```ts
 * KafkaSource.builder<string>().setValueOnlyDeserializer(new SimpleStringSchema());
 * ```
 */
export class SimpleStringSchema implements DeserializationSchema<string>, SerializationSchema<string> {
  deserialize(message: Uint8Array): string {
    return decoder.decode(message);
  }
  serialize(element: string): Uint8Array {
    return encoder.encode(element);
  }
}

/**
 * A message is one JSON document (UTF-8), parsed into a plain value.
 *
 * @example
 * ```ts
 * KafkaSource.builder<{ user: string; amount: number }>().setValueOnlyDeserializer(new JsonDeserializationSchema());
 * ```
 */
export class JsonDeserializationSchema<T = unknown> implements DeserializationSchema<T> {
  deserialize(message: Uint8Array): T {
    return JSON.parse(decoder.decode(message)) as T;
  }
}

/**
 * A value is written as one JSON document (UTF-8).
 *
 * @example
 * ```ts
 * KafkaRecordSerializationSchema.builder<Total>().setTopic("totals").setValueSerializationSchema(new JsonSerializationSchema()).build();
 * ```
 */
export class JsonSerializationSchema<T = unknown> implements SerializationSchema<T> {
  serialize(element: T): Uint8Array {
    return encoder.encode(JSON.stringify(element));
  }
}
