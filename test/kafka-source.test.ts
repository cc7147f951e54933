/**
 * `KafkaSource` against a real broker (one per file):
 *
 * - a bounded read of a 4-partition topic at parallelism 1 and 2 sees exactly the stored records, with their
 *   partition, offset, timestamp, key and headers;
 * - starting offsets: earliest, specific offsets, a timestamp, latest, and the group's committed offsets (which a
 *   first job committed when its checkpoints completed);
 * - read_committed with interleaved committed and aborted transactions and a tiny fetch size (abort markers land
 *   in later responses) sees what an independent whole-log decision says, read_uncommitted sees everything;
 * - a failure after a checkpoint restarts the job in process: every record is counted exactly once;
 * - stop-with-savepoint at parallelism 2, resume at 3, then at 1: every partition's records exactly once;
 * - per-partition watermarks: event-time windows fire with every record counted, one partition never having
 *   data (withIdleness) and another partition far ahead in event time;
 * - a partition added while the job runs is found and read from its start.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Admin, Producer } from "@platformatic/kafka";
import {
  RestartStrategies, RichFunction, SimpleStringSchema, StreamExecutionEnvironment, TumblingEventTimeWindows, ValueStateDescriptor, WatermarkStrategy,
  type CheckpointListener, type Collector, type Sink,
} from "../src/index.ts";
import { KafkaSource, OffsetsInitializer, type KafkaConsumerRecord } from "../src/connectors/kafka/index.ts";
import { waitFor } from "./support/cli-process.ts";
import { startKafkaBroker, type KafkaBroker } from "./support/kafka-broker.ts";
import { createTopic, produceRecords, readTopic, type RecordToProduce } from "./support/kafka-topics.ts";
import { tempDirs } from "./support/temp-dirs.ts";

let broker: KafkaBroker;
beforeAll(async () => {
  broker = await startKafkaBroker();
}, 60_000);
afterAll(() => broker?.stop());

const newDir = tempDirs("weir-kafka-source-");

/** A sink into `list` (the job runs in this process). */
function into<T>(list: T[]): Sink<T> {
  return { createWriter: () => ({ write: (v: T) => void list.push(v) }) };
}

/** `n` records spread over `partitions`, value `v<i>`, key `k<i>`, timestamp `1000 + i`. */
function records(n: number, partitions: number, from = 0): RecordToProduce[] {
  return Array.from({ length: n }, (_, j) => {
    const i = from + j;
    return { key: `k${i}`, value: `v${i}`, partition: i % partitions, timestamp: 1000 + i, headers: { h: `x${i}` } };
  });
}

const text = new TextDecoder();
/** `partition:offset:timestamp:key:value:header` of a record. */
function describeRecord(r: KafkaConsumerRecord): string {
  const h = r.headers.find(([k]) => k === "h")?.[1];
  return `${r.partition}:${r.offset}:${r.timestamp}:${r.key ? text.decode(r.key) : ""}:${r.value ? text.decode(r.value) : ""}:${h ? text.decode(h) : ""}`;
}

function source(topic: string) {
  return KafkaSource.builder<string>().setBootstrapServers(broker.bootstrap).setTopics(topic).setValueOnlyDeserializer(new SimpleStringSchema());
}

async function readBounded(build: KafkaSource<string>, parallelism = 1): Promise<string[]> {
  const env = StreamExecutionEnvironment.create({ parallelism });
  const out: string[] = [];
  env.fromSource(build, WatermarkStrategy.noWatermarks(), "kafka").sinkTo(into(out));
  await env.execute("bounded");
  return out.sort();
}

describe("KafkaSource reads", () => {
  it("a bounded read of a 4-partition topic at parallelism 1 and 2 equals the stored records", async () => {
    const topic = "bounded-4";
    await createTopic(broker.bootstrap, topic, 4);
    await produceRecords(broker.bootstrap, topic, records(400, 4));
    const stored = (await readTopic(broker.bootstrap, topic, { committed: true })).map((r) => `${r.partition}:${r.offset}:${r.timestamp}:${r.key}:${r.value}:${r.headers.h}`);
    expect(stored).toHaveLength(400);
    for (const parallelism of [1, 2]) {
      const env = StreamExecutionEnvironment.create({ parallelism });
      const out: string[] = [];
      const src = KafkaSource.builder<string>()
        .setBootstrapServers(broker.bootstrap)
        .setTopics(topic)
        .setBounded(OffsetsInitializer.latest())
        .setDeserializer({ deserialize: (r, c) => c.collect(describeRecord(r)) })
        .build();
      env.fromSource(src, WatermarkStrategy.noWatermarks(), "kafka").sinkTo(into(out));
      await env.execute(`bounded-p${parallelism}`);
      expect(out.sort(), `parallelism ${parallelism}`).toEqual([...stored].sort());
    }
  }, 30_000);

  it("starting offsets: earliest, given offsets, a timestamp, latest", async () => {
    const topic = "starting";
    await createTopic(broker.bootstrap, topic, 2);
    await produceRecords(broker.bootstrap, topic, records(20, 2)); // partition p holds v<2k+p> at offset k, timestamp 1000 + 2k + p
    const all = records(20, 2).map((r) => r.value!);
    const bounded = (init: OffsetsInitializer) => source(topic).setStartingOffsets(init).setBounded(OffsetsInitializer.latest()).build();
    expect(await readBounded(bounded(OffsetsInitializer.earliest()), 2)).toEqual([...all].sort());
    // partition 0 from offset 7 (v14, v16, v18), partition 1 from 9 (v19)
    expect(await readBounded(bounded(OffsetsInitializer.offsets({ [`${topic}-0`]: 7, [`${topic}-1`]: 9 })))).toEqual(["v14", "v16", "v18", "v19"]);
    // partition 1 not given: the reset strategy (earliest)
    expect(await readBounded(bounded(OffsetsInitializer.offsets(new Map([[{ topic, partition: 0 }, 9]]))))).toEqual(["v18", ...all.filter((_, i) => i % 2 === 1)].sort());
    expect(await readBounded(bounded(OffsetsInitializer.timestamp(1015)))).toEqual(["v15", "v16", "v17", "v18", "v19"]);
    expect(await readBounded(bounded(OffsetsInitializer.latest()))).toEqual([]);
    // stopping at given offsets
    expect(await readBounded(source(topic).setBounded(OffsetsInitializer.offsets({ [`${topic}-0`]: 2, [`${topic}-1`]: 1 })).build())).toEqual(["v0", "v1", "v2"]);
  }, 30_000);

  it("committed offsets: a job commits its checkpoints' offsets to the group; the next job starts there", async () => {
    const topic = "committed";
    const group = "weir-committed";
    await createTopic(broker.bootstrap, topic, 2);
    await produceRecords(broker.bootstrap, topic, records(10, 2));
    const first = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 3_600_000 });
    const seen: string[] = [];
    first.fromSource(source(topic).setGroupId(group).build(), WatermarkStrategy.noWatermarks(), "kafka").sinkTo(into(seen));
    const client = await first.executeAsync("commits");
    await waitFor("10 records read", () => seen.length === 10, 15_000);
    await client.triggerCheckpoint();
    // the commit follows the checkpoint's completion asynchronously
    const deadline = Date.now() + 10_000;
    while ((await readGroupOffsets(group, topic, 2)).join(",") !== "5,5") {
      if (Date.now() > deadline) throw new Error(`offsets not committed: ${(await readGroupOffsets(group, topic, 2)).join(",")}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await client.cancel();
    await produceRecords(broker.bootstrap, topic, records(4, 2, 10));
    const next = source(topic).setGroupId(group).setStartingOffsets(OffsetsInitializer.committedOffsets()).setBounded(OffsetsInitializer.latest()).build();
    expect(await readBounded(next, 2)).toEqual(["v10", "v11", "v12", "v13"]);
  }, 30_000);
});

/** The group's committed offsets of partitions 0..n-1 of `topic`, read with the test's own client. */
async function readGroupOffsets(group: string, topic: string, n: number): Promise<bigint[]> {
  const admin = new Admin({ clientId: "weir-test-offsets", bootstrapBrokers: [broker.bootstrap] });
  try {
    const offsets = await admin.listConsumerGroupOffsets({ groups: [group] });
    const partitions = offsets[0]?.topics.find((t) => t.name === topic)?.partitions ?? [];
    return Array.from({ length: n }, (_, i) => partitions.find((p) => p.partitionIndex === i)?.committedOffset ?? -1n);
  } finally {
    await admin.close();
  }
}
