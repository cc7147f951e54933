/**
 * Where a Kafka source starts reading each partition, or where a bounded one stops (Flink's
 * `OffsetsInitializer`). An initializer is a description; the reader resolves it against the broker
 * (ListOffsets, or the group's committed offsets) when it finds a partition.
 */
import { KafkaConfigError } from "./kafka-config.ts";

/** What to do for a partition that has no committed offset (or no offset in `offsets(...)`). */
export type OffsetResetStrategy = "earliest" | "latest" | "none";

/** The description an initializer holds. */
export type OffsetsSpec =
  | { readonly kind: "earliest" }
  | { readonly kind: "latest" }
  | { readonly kind: "committed"; readonly reset: OffsetResetStrategy }
  | { readonly kind: "timestamp"; readonly timestamp: number }
  | { readonly kind: "offsets"; readonly offsets: ReadonlyMap<string, number>; readonly reset: OffsetResetStrategy };

/** A topic and partition, the key of an offset. */
export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

/** `"topic-partition"`, Kafka's own spelling of a partition (the key in `offsets({...})`). */
export function partitionKey(tp: TopicPartition): string {
  return `${tp.topic}-${tp.partition}`;
}

const RESETS: readonly OffsetResetStrategy[] = ["earliest", "latest", "none"];

function checkReset(reset: string): OffsetResetStrategy {
  if (!(RESETS as readonly string[]).includes(reset)) {
    throw new KafkaConfigError("OffsetsInitializer", `unknown offset reset strategy '${reset}'; use one of ${RESETS.join(", ")}`);
  }
  return reset as OffsetResetStrategy;
}

function checkOffset(where: string, offset: number): number {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new KafkaConfigError("OffsetsInitializer", `offset of ${where} must be an integer >= 0, got ${offset}`);
  return offset;
}

/**
 * Starting (or stopping) offsets of a Kafka source.
 *
 * @example
 * ```ts
 * KafkaSource.builder<string>()
 *   .setStartingOffsets(OffsetsInitializer.committedOffsets("earliest"))
 *   .setBounded(OffsetsInitializer.latest());
 * ```
 */
export class OffsetsInitializer {
  private constructor(readonly spec: OffsetsSpec) {}

  /** The first offset still in each partition (its log start). */
  static earliest(): OffsetsInitializer {
    return new OffsetsInitializer({ kind: "earliest" });
  }

  /** The end of each partition when it is found (with read_committed: its last stable offset). */
  static latest(): OffsetsInitializer {
    return new OffsetsInitializer({ kind: "latest" });
  }

  /**
   * The offsets committed to the source's group (`setGroupId`); a partition without one follows
   * `resetStrategy` (default `"none"`: the source fails, naming the partition).
   */
  static committedOffsets(resetStrategy: OffsetResetStrategy = "none"): OffsetsInitializer {
    return new OffsetsInitializer({ kind: "committed", reset: checkReset(resetStrategy) });
  }

  /** The first record whose timestamp is at or after `ms` (the partition's end if none is). */
  static timestamp(ms: number): OffsetsInitializer {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new KafkaConfigError("OffsetsInitializer", `timestamp must be milliseconds >= 0, got ${ms}`);
    return new OffsetsInitializer({ kind: "timestamp", timestamp: ms });
  }

  /**
   * Given offsets per partition (`{ "orders-0": 42 }` or a `Map` keyed by `{ topic, partition }`); a
   * partition not listed follows `resetStrategy` (default `"earliest"`, as Flink).
   */
  static offsets(offsets: Readonly<Record<string, number>> | ReadonlyMap<TopicPartition, number>, resetStrategy: OffsetResetStrategy = "earliest"): OffsetsInitializer {
    const map = new Map<string, number>();
    if (offsets instanceof Map) {
      for (const [tp, offset] of offsets) map.set(partitionKey(tp), checkOffset(partitionKey(tp), offset));
    } else {
      for (const [key, offset] of Object.entries(offsets)) {
        if (!/^.+-\d+$/.test(key)) throw new KafkaConfigError("OffsetsInitializer", `'${key}' is not "topic-partition" (e.g. "orders-0")`);
        map.set(key, checkOffset(key, offset));
      }
    }
    return new OffsetsInitializer({ kind: "offsets", offsets: map, reset: checkReset(resetStrategy) });
  }

  /** The strategy for an offset that is out of range (Flink derives `auto.offset.reset` from the starting offsets). */
  autoOffsetResetStrategy(): OffsetResetStrategy {
    const spec = this.spec;
    if (spec.kind === "latest" || spec.kind === "timestamp") return "latest";
    if (spec.kind === "committed" || spec.kind === "offsets") return spec.reset === "none" ? "none" : spec.reset;
    return "earliest";
  }
}
