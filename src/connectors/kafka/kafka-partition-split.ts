/**
 * The state of a Kafka source, as plain-data splits the engine checkpoints (operator split-list state,
 * redistributed across readers on rescale):
 *
 * - a {@link KafkaPartitionSplit} is one topic-partition with the offset of its next record (and, for a
 *   bounded source, the offset where it stops);
 * - a {@link KafkaDiscoverySplit} is one bucket of partitions: the reader holding it asks the broker for the
 *   partitions of the source's topics and takes those whose owner is its bucket (Flink's assignment: a topic's
 *   partitions round-robin from a start given by the topic's hash), remembering each in `known`.
 *
 * As in the file source, buckets are splits because there is no central enumerator: `createSplits` does no
 * I/O, and the set of partitions already taken travels with the state, so after a rescale each bucket still
 * has exactly one owner and every partition is read exactly once. The number of buckets is fixed at the
 * parallelism of the job's first run.
 */
import { partitionKey, type TopicPartition } from "./offsets-initializer.ts";

/** One topic-partition being read. */
export interface KafkaPartitionSplit {
  readonly kind: "partition";
  readonly topic: string;
  readonly partition: number;
  /** Offset of the next record to read. */
  offset: number;
  /** Bounded: reading stops before this offset. */
  readonly stopOffset?: number;
}

/** One bucket of partitions and the partitions it has taken. */
export interface KafkaDiscoverySplit {
  readonly kind: "discovery";
  /** This bucket's number, `0 <= bucket < buckets`. */
  readonly bucket: number;
  /** Number of buckets (the source parallelism when the job first ran). */
  readonly buckets: number;
  /** `"topic-partition"` of every partition this bucket has taken. */
  known: string[];
  /** Whether it discovered once: partitions found later start at the earliest offset (as Flink). */
  discovered: boolean;
}

/** Any split of a Kafka source. */
export type KafkaSourceSplit = KafkaPartitionSplit | KafkaDiscoverySplit;

/** One discovery bucket per reader. */
export function initialKafkaSplits(parallelism: number): KafkaDiscoverySplit[] {
  return Array.from({ length: parallelism }, (_, bucket) => ({ kind: "discovery" as const, bucket, buckets: parallelism, known: [], discovered: false }));
}

/** Java's `String.hashCode`, so partitions land where Flink would put them. */
function javaHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * The bucket that owns a partition (Flink's `KafkaSourceEnumerator.getSplitOwner`): the partitions of a topic
 * go round-robin over the buckets, starting at one given by the topic's name.
 *
 * @example
 * ```ts
 * ownerBucket({ topic: "orders", partition: 1 }, 2); // (start + 1) % 2
 * ```
 */
export function ownerBucket(tp: TopicPartition, buckets: number): number {
  const start = (Math.imul(javaHashCode(tp.topic), 31) & 0x7fffffff) % buckets;
  return (start + tp.partition) % buckets;
}

/** The id of a split: `"topic-partition"`, or the bucket's. */
export function kafkaSplitId(s: KafkaSourceSplit): string {
  return s.kind === "partition" ? partitionKey(s) : `discovery ${s.bucket}/${s.buckets}`;
}

/** A copy, so the engine never sees a reader's live objects. */
export function copyKafkaSplit(s: KafkaSourceSplit): KafkaSourceSplit {
  return s.kind === "partition" ? { ...s } : { ...s, known: [...s.known] };
}

/** Which newly listed partitions a reader takes. */
export interface KafkaDiscoveryPlan {
  /** Partitions to start with the starting-offsets initializer (first discovery of a bucket). */
  readonly initial: TopicPartition[];
  /** Partitions found by a later discovery: they start at the earliest offset. */
  readonly later: TopicPartition[];
  /** The buckets with `known` and `discovered` updated. */
  readonly buckets: KafkaDiscoverySplit[];
}

/**
 * Takes, from `listed`, the partitions that fall into one of the reader's `buckets` and that the bucket has
 * not taken before. Pure: the listing in, the decision out. A partition is never forgotten (Kafka does not
 * remove partitions; a topic missing from one answer must not be read again from the start).
 *
 * @example
 * ```ts
 * const plan = planKafkaDiscovery([{ topic: "t", partition: 0 }], initialKafkaSplits(1));
 * plan.initial; // [{ topic: "t", partition: 0 }]
 * ```
 */
export function planKafkaDiscovery(listed: readonly TopicPartition[], buckets: readonly KafkaDiscoverySplit[]): KafkaDiscoveryPlan {
  const initial: TopicPartition[] = [];
  const later: TopicPartition[] = [];
  const next = buckets.map((b) => ({ split: b, known: new Set(b.known) }));
  for (const tp of listed) {
    const key = partitionKey(tp);
    for (const n of next) {
      if (ownerBucket(tp, n.split.buckets) !== n.split.bucket) continue;
      if (!n.known.has(key)) {
        n.known.add(key);
        (n.split.discovered ? later : initial).push({ topic: tp.topic, partition: tp.partition });
      }
      break;
    }
  }
  return { initial, later, buckets: next.map((n) => ({ ...n.split, known: [...n.known].sort(), discovered: true })) };
}
