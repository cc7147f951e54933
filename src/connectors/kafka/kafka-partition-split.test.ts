import { describe, expect, it } from "vitest";
import { initialKafkaSplits, ownerBucket, planKafkaDiscovery, type KafkaDiscoverySplit } from "./kafka-partition-split.ts";

const partitions = (topic: string, n: number) => Array.from({ length: n }, (_, partition) => ({ topic, partition }));

describe("Kafka partition discovery", () => {
  it("spreads a topic's partitions round-robin over the buckets, from a start given by the topic (Flink's owner)", () => {
    // Flink: ((topic.hashCode() * 31) & 0x7FFFFFFF) % n; "orders".hashCode() = -1008770331 in Java
    const start = (Math.imul(-1008770331, 31) & 0x7fffffff) % 3;
    expect(partitions("orders", 6).map((tp) => ownerBucket(tp, 3))).toEqual([0, 1, 2, 3, 4, 5].map((p) => (start + p) % 3));
  });

  it("each partition is taken by exactly one bucket, first as initial, later ones as later; known partitions are not taken again", () => {
    const buckets = initialKafkaSplits(3);
    const first = planKafkaDiscovery(partitions("t", 5), buckets);
    expect(first.later).toEqual([]);
    expect(first.initial.map((tp) => tp.partition).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(first.buckets.every((b) => b.discovered)).toBe(true);
    const again = planKafkaDiscovery([...partitions("t", 7), ...partitions("u", 1)], first.buckets);
    expect(again.initial).toEqual([]);
    expect(again.later).toEqual([{ topic: "t", partition: 5 }, { topic: "t", partition: 6 }, { topic: "u", partition: 0 }]);
  });

  it("buckets split over readers after a rescale still take each partition once", () => {
    const all = planKafkaDiscovery(partitions("t", 8), initialKafkaSplits(2)).buckets;
    // p2 -> p3: old buckets dealt round-robin; reader 2 gets none
    const readers: KafkaDiscoverySplit[][] = [[all[0]!], [all[1]!], []];
    const taken = readers.flatMap((r) => {
      const p = planKafkaDiscovery(partitions("t", 10), r);
      return [...p.initial, ...p.later].map((tp) => tp.partition);
    });
    expect(taken.sort()).toEqual([8, 9]);
  });
});
