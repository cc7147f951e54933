/**
 * Resolves an `OffsetsInitializer` into numbers for the partitions a reader has just found, through the
 * few broker requests it needs (ListOffsets with a special or real timestamp, OffsetFetch of the group).
 * The broker is behind the `OffsetsLookup` interface, so the decisions are tested without one.
 */
import { partitionKey, type OffsetsInitializer, type OffsetResetStrategy, type TopicPartition } from "./offsets-initializer.ts";
import { KafkaSourceOffsetError } from "./kafka-source-errors.ts";

/** ListOffsets' special timestamps. */
export const EARLIEST_TIMESTAMP = -2;
export const LATEST_TIMESTAMP = -1;

/** The broker requests offsets resolution needs. */
export interface OffsetsLookup {
  /**
   * Per partition key, the offset ListOffsets answers for `timestamp` (`EARLIEST_TIMESTAMP`,
   * `LATEST_TIMESTAMP`, or ms: the first record at or after it, -1 if there is none).
   */
  listOffsets(partitions: readonly TopicPartition[], timestamp: number): Promise<Map<string, number>>;
  /** Per partition key, the group's committed offset, or -1 if it has none. */
  committedOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>>;
  /** The group the committed offsets belong to (for messages), or undefined without one. */
  readonly groupId: string | undefined;
}

/**
 * The offset of each partition (by `partitionKey`) that `initializer` designates.
 *
 * @example
 * ```ts
 * const offsets = await resolveOffsets(OffsetsInitializer.earliest(), [{ topic: "orders", partition: 0 }], lookup);
 * offsets.get("orders-0"); // 0 for a fresh topic
 * ```
 */
export async function resolveOffsets(initializer: OffsetsInitializer, partitions: readonly TopicPartition[], lookup: OffsetsLookup): Promise<Map<string, number>> {
  if (partitions.length === 0) return new Map();
  const spec = initializer.spec;
  switch (spec.kind) {
    case "earliest":
      return lookup.listOffsets(partitions, EARLIEST_TIMESTAMP);
    case "latest":
      return lookup.listOffsets(partitions, LATEST_TIMESTAMP);
    case "timestamp": {
      const found = await lookup.listOffsets(partitions, spec.timestamp);
      const missing = partitions.filter((tp) => (found.get(partitionKey(tp)) ?? -1) < 0);
      // no record at or after the timestamp: the partition's end (as Flink)
      const ends = await lookup.listOffsets(missing, LATEST_TIMESTAMP);
      for (const [key, offset] of ends) found.set(key, offset);
      return found;
    }
    case "committed": {
      if (lookup.groupId === undefined) throw new KafkaSourceOffsetError("committed offsets need a group id (setGroupId)");
      const committed = await lookup.committedOffsets(partitions);
      return fillMissing(committed, partitions, spec.reset, lookup, (tp) => `group '${lookup.groupId}' has no committed offset for ${partitionKey(tp)} and the reset strategy is 'none'`);
    }
    case "offsets": {
      const given = new Map<string, number>();
      for (const tp of partitions) {
        const offset = spec.offsets.get(partitionKey(tp));
        if (offset !== undefined) given.set(partitionKey(tp), offset);
      }
      return fillMissing(given, partitions, spec.reset, lookup, (tp) => `no offset is given for ${partitionKey(tp)} and the reset strategy is 'none'`);
    }
  }
}

/** Offsets for the partitions `known` lacks (or has as -1), by `reset`. */
async function fillMissing(
  known: Map<string, number>,
  partitions: readonly TopicPartition[],
  reset: OffsetResetStrategy,
  lookup: OffsetsLookup,
  noneMessage: (tp: TopicPartition) => string,
): Promise<Map<string, number>> {
  const missing = partitions.filter((tp) => (known.get(partitionKey(tp)) ?? -1) < 0);
  if (missing.length === 0) return known;
  if (reset === "none") throw new KafkaSourceOffsetError(noneMessage(missing[0]!));
  const filled = await lookup.listOffsets(missing, reset === "earliest" ? EARLIEST_TIMESTAMP : LATEST_TIMESTAMP);
  for (const [key, offset] of filled) known.set(key, offset);
  return known;
}
