/**
 * The Kafka client Weir's connectors use (@platformatic/kafka, pinned; chosen by measurement, see
 * docs/connectors.md), loaded on first use: importing it takes about half a second, which a job without
 * Kafka must not pay at start-up. Not part of the public types (the client's own types need @types/debug).
 */
import type * as Kafka from "@platformatic/kafka";

/** The client module. */
export type KafkaModule = typeof Kafka;

let loading: Promise<KafkaModule> | undefined;

/**
 * The client module, imported once per thread on first call.
 *
 * @example
 * ```ts
 * const { Producer } = await kafkaModule();
 * ```
 */
export function kafkaModule(): Promise<KafkaModule> {
  loading ??= import("@platformatic/kafka");
  return loading;
}
