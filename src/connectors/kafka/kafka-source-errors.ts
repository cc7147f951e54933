/**
 * Errors of the Kafka source that a user can cause, each naming the place: a topic that does not exist,
 * brokers that cannot be reached, a record the deserializer refuses, an offset that cannot be resolved
 * or is out of range with reset strategy `none`.
 */

/** Any error of the Kafka source raised while the job runs (settings are checked earlier: `KafkaConfigError`). */
export class KafkaSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`KafkaSource: ${message}`, options);
    this.name = "KafkaSourceError";
  }
}

/**
 * A topic given with `setTopics` does not exist (Flink fails at start too; with `setTopicPattern` a
 * missing topic is just not matched yet).
 *
 * @example
 * ```ts
 * // KafkaSource: topic 'ordrs' does not exist on 127.0.0.1:9092
 * err instanceof KafkaTopicNotFoundError && console.error(err.topic);
 * ```
 */
export class KafkaTopicNotFoundError extends KafkaSourceError {
  constructor(readonly topic: string, bootstrap: string) {
    super(`topic '${topic}' does not exist on ${bootstrap}`);
    this.name = "KafkaTopicNotFoundError";
  }
}

/** No broker answered within the connection deadline (a wrong bootstrap address, a broker down at start). */
export class KafkaConnectionError extends KafkaSourceError {
  constructor(readonly bootstrap: string, problem: string, options?: { cause?: unknown }) {
    super(`cannot reach the Kafka brokers at ${bootstrap}: ${problem}`, options);
    this.name = "KafkaConnectionError";
  }
}

/**
 * The deserializer threw for a record: the job fails with the record's place and the deserializer's message.
 *
 * @example
 * ```ts
 * // KafkaSource: cannot deserialize the record at orders-2 offset 17: Unexpected token } in JSON at position 15
 * ```
 */
export class KafkaDeserializationError extends KafkaSourceError {
  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly offset: number,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot deserialize the record at ${topic}-${partition} offset ${offset}: ${reason}`, options);
    this.name = "KafkaDeserializationError";
  }
}

/** A starting or stopping offset cannot be resolved, or an offset is out of range with reset strategy `none`. */
export class KafkaSourceOffsetError extends KafkaSourceError {
  constructor(message: string) {
    super(message);
    this.name = "KafkaSourceOffsetError";
  }
}
