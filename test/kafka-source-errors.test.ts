/**
 * `KafkaSource` errors and broker trouble against a real broker (one per file): a missing topic, a wrong
 * bootstrap address (fails within `default.api.timeout.ms`), a record the deserializer refuses, an offset out of
 * range (reset by auto.offset.reset, or a clear failure with `none`), committed offsets missing with reset
 * `none`; and a broker restart mid-job, which the reader survives, going on from its offsets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonDeserializationSchema, SimpleStringSchema, StreamExecutionEnvironment, WatermarkStrategy, type Sink } from "../src/index.ts";
import { KafkaSource, OffsetsInitializer } from "../src/connectors/kafka/index.ts";
import { waitFor } from "./support/cli-process.ts";
import { freePort, startKafkaBroker, type KafkaBroker } from "./support/kafka-broker.ts";
import { createTopic, produceRecords, readTopic } from "./support/kafka-topics.ts";

let broker: KafkaBroker;
beforeAll(async () => {
  broker = await startKafkaBroker();
}, 60_000);
afterAll(() => broker?.stop());

function into<T>(list: T[]): Sink<T> {
  return { createWriter: () => ({ write: (v: T) => void list.push(v) }) };
}

async function run<T>(src: KafkaSource<T>): Promise<T[]> {
  const env = StreamExecutionEnvironment.create({ parallelism: 1 });
  const out: T[] = [];
  env.fromSource(src, WatermarkStrategy.noWatermarks(), "kafka").sinkTo(into(out));
  await env.execute("errors");
  return out;
}

const strings = () => KafkaSource.builder<string>().setValueOnlyDeserializer(new SimpleStringSchema());

describe("KafkaSource errors", () => {
  it("a topic that does not exist fails the job naming it", async () => {
    await createTopic(broker.bootstrap, "present", 1);
    const src = strings().setBootstrapServers(broker.bootstrap).setTopics("present", "absent").setBounded(OffsetsInitializer.latest()).build();
    await expect(run(src)).rejects.toThrow(/topic 'absent' does not exist on 127\.0\.0\.1:\d+/);
  });

  it("a wrong bootstrap address fails within default.api.timeout.ms, naming the address", async () => {
    const port = await freePort();
    const src = strings().setBootstrapServers(`127.0.0.1:${port}`).setTopics("t").setProperty("default.api.timeout.ms", "1500").build();
    const started = Date.now();
    await expect(run(src)).rejects.toThrow(new RegExp(`cannot reach the Kafka brokers at 127\\.0\\.0\\.1:${port}: no answer within 1500 ms \\(default\\.api\\.timeout\\.ms\\)`));
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it("a record the deserializer refuses fails the job with topic, partition, offset and the deserializer's message", async () => {
    await createTopic(broker.bootstrap, "bad-json", 2);
    await produceRecords(broker.bootstrap, "bad-json", [{ value: "{}", partition: 1 }, { value: '{"a":1}', partition: 1 }, { value: "{oops", partition: 1 }]);
    const src = KafkaSource.builder<unknown>().setBootstrapServers(broker.bootstrap).setTopics("bad-json").setValueOnlyDeserializer(new JsonDeserializationSchema()).setBounded(OffsetsInitializer.latest()).build();
    await expect(run(src)).rejects.toThrow(/cannot deserialize the record at bad-json-1 offset 2: .*JSON/);
  });

  it("an offset out of range resets by auto.offset.reset (earliest by default) or fails with 'none', naming the partition", async () => {
    await createTopic(broker.bootstrap, "short", 1);
    await produceRecords(broker.bootstrap, "short", ["a", "b", "c"].map((value) => ({ value })));
    const from = (reset?: string) => {
      const b = strings().setBootstrapServers(broker.bootstrap).setTopics("short").setStartingOffsets(OffsetsInitializer.offsets({ "short-0": 1000 }));
      return reset ? b.setProperty("auto.offset.reset", reset) : b;
    };
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    const seen: string[] = [];
    env.fromSource(from().build(), WatermarkStrategy.noWatermarks(), "kafka").sinkTo(into(seen));
    const client = await env.executeAsync("reset");
    try {
      await waitFor("the records from the earliest offset", () => seen.length === 3, 15_000);
    } finally {
      await client.cancel();
    }
    expect(seen).toEqual(["a", "b", "c"]);
    await expect(run(from("none").build())).rejects.toThrow(/offset 1000 of short-0 is out of range \(short-0 holds offsets 0 to 3\) and auto\.offset\.reset is 'none'/);
  }, 30_000);

  it("committed offsets without a committed offset and reset 'none' fail naming the group and partition", async () => {
    await createTopic(broker.bootstrap, "uncommitted", 1);
    const src = strings().setBootstrapServers(broker.bootstrap).setTopics("uncommitted").setGroupId("never").setStartingOffsets(OffsetsInitializer.committedOffsets()).setBounded(OffsetsInitializer.latest()).build();
    await expect(run(src)).rejects.toThrow(/group 'never' has no committed offset for uncommitted-0 and the reset strategy is 'none'/);
  });
});

describe("KafkaSource and a broker restart", () => {
  it("a broker restarted mid-job: the reader reconnects and goes on from its offsets (no record lost or twice)", async () => {
    const topic = "restart";
    await createTopic(broker.bootstrap, topic, 2);
    const values = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ value: `v${from + i}`, partition: (from + i) % 2 }));
    await produceRecords(broker.bootstrap, topic, values(0, 200));
    const env = StreamExecutionEnvironment.create({ parallelism: 1, checkpointInterval: 100 });
    const seen: string[] = [];
    env.fromSource(strings().setBootstrapServers(broker.bootstrap).setTopics(topic).build(), WatermarkStrategy.noWatermarks(), "kafka").sinkTo(into(seen));
    const client = await env.executeAsync("restart");
    try {
      await waitFor("the first 200 records", () => seen.length >= 200, 15_000);
      await broker.restart();
      await produceRecords(broker.bootstrap, topic, values(200, 200));
      await waitFor("the 200 records produced after the restart", () => seen.length >= 400, 30_000);
      expect(client.getRestartCount()).toBe(0);
    } finally {
      await client.cancel();
    }
    // the log itself is the oracle (a retried produce of the test's producer could store a record twice)
    const stored = (await readTopic(broker.bootstrap, topic, { committed: true })).map((r) => r.value!);
    expect(new Set(stored)).toEqual(new Set(values(0, 400).map((r) => r.value)));
    expect(seen.sort()).toEqual(stored.sort());
  }, 60_000);
});
