/**
 * What a sink promises about the records it writes across failures (Flink's `DeliveryGuarantee`).
 */

/**
 * The delivery guarantees of the Kafka sink:
 * - `EXACTLY_ONCE`: records go into Kafka transactions committed when a checkpoint completes; a
 *   `read_committed` consumer sees each record once (needs checkpoints and a transactional id prefix);
 * - `AT_LEAST_ONCE`: every checkpoint waits until all records written before its barrier are acknowledged
 *   (acks=all); after a failure the records since the last checkpoint are written again;
 * - `NONE` (the default, as in Flink): records are sent without waiting; a failure may lose or duplicate them.
 *
 * @example
 * ```ts
 * KafkaSink.builder<string>().setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE);
 * ```
 */
export const DeliveryGuarantee = {
  EXACTLY_ONCE: "exactly-once",
  AT_LEAST_ONCE: "at-least-once",
  NONE: "none",
} as const;

/** One of {@link DeliveryGuarantee}'s values. */
export type DeliveryGuarantee = (typeof DeliveryGuarantee)[keyof typeof DeliveryGuarantee];
