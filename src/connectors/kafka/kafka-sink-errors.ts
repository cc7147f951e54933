/**
 * The errors of the Kafka sink's sends (public: a job may catch them).
 */

/** A send that failed after the client's retries. */
export class KafkaSendError extends Error {
  constructor(what: string, topics: readonly string[], cause: unknown) {
    super(`${what}: sending records to topic(s) ${topics.map((t) => `'${t}'`).join(", ")} failed: ${describeKafkaError(cause)}`, { cause });
    this.name = "KafkaSendError";
  }
}

/**
 * A record for a topic that does not exist. Weir does not create topics; a send to a missing topic would
 * otherwise be retried until `delivery.timeout.ms` (2 minutes) while checkpoints cannot complete.
 */
export class KafkaUnknownTopicError extends Error {
  constructor(what: string, readonly topic: string) {
    super(`${what}: topic '${topic}' does not exist on the brokers (create it first, or let the brokers create topics with auto.create.topics.enable)`);
    this.name = "KafkaUnknownTopicError";
  }
}

/** A client error's message with the broker's error names it carries. */
export function describeKafkaError(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const inner = (e as { errors?: unknown[] }).errors;
  const details = Array.isArray(inner) ? inner.map((x) => describeKafkaError(x)).join("; ") : "";
  const id = (e as { apiId?: string }).apiId;
  return `${id === undefined ? "" : `${id}: `}${e.message}${details === "" ? "" : ` (${details})`}`;
}
