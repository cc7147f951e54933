/**
 * `KafkaSource` against a real broker (the run's shared one, test/support/shared-kafka.ts):
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
import { beforeAll, describe, expect, it } from "vitest";
import { Admin, Producer } from "@platformatic/kafka";
import {
  RestartStrategies, RichFunction, SimpleStringSchema, StreamExecutionEnvironment, TumblingEventTimeWindows, WatermarkStrategy,
  type CheckpointListener, type Collector, type DataStream, type Sink,
} from "../src/index.ts";
import { KafkaSource, OffsetsInitializer, type KafkaConsumerRecord } from "../src/connectors/kafka/index.ts";
import { waitFor } from "./support/cli-process.ts";
import { sharedKafkaBroker, type SharedKafkaBroker } from "./support/shared-kafka.ts";
import { createTopic, produceRecords, readTopic, type RecordToProduce } from "./support/kafka-topics.ts";
import { committedRecords } from "./support/kafka-committed.ts";
import { tempDirs } from "./support/temp-dirs.ts";

let broker: SharedKafkaBroker;
beforeAll(async () => {
  broker = await sharedKafkaBroker();
}, 60_000);

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
    const topic = broker.name("bounded-4");
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
    const topic = broker.name("starting");
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
    const topic = broker.name("committed");
    const group = broker.name("weir-committed");
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

describe("KafkaSource read_committed", () => {
  it("skips aborted transactions interleaved with committed ones, markers in later fetch responses; read_uncommitted sees all", async () => {
    const topic = broker.name("transactions");
    await createTopic(broker.bootstrap, topic, 2);
    const producer = (id: string) => new Producer({ clientId: `weir-test-${id}`, bootstrapBrokers: [broker.bootstrap], transactionalId: id, idempotent: true, acks: -1 });
    const a = producer(broker.name("tx-a"));
    const b = producer(broker.name("tx-b"));
    const send = (t: { send: Producer["send"] }, tag: string, n: number) =>
      t.send({ messages: Array.from({ length: n }, (_, i) => ({ topic, partition: i % 2, value: Buffer.from(`${tag}-${i}`) })) });
    try {
      for (let round = 0; round < 3; round++) {
        const ta = await a.beginTransaction();
        const tb = await b.beginTransaction();
        await send(ta, `a${round}x`, 4);
        await send(tb, `b${round}x`, 4);
        await produceRecords(broker.bootstrap, topic, [{ value: `plain${round}`, partition: round % 2 }]);
        await send(ta, `a${round}y`, 4);
        await send(tb, `b${round}y`, 4);
        // a commits in even rounds and aborts in odd ones; b the other way round
        if (round % 2 === 0) {
          await tb.abort();
          await ta.commit();
        } else {
          await ta.abort();
          await tb.commit();
        }
      }
    } finally {
      await a.close();
      await b.close();
    }
    // the last commit's markers reach the partitions just after it returns: wait for them
    const committed = (await committedRecords(broker.bootstrap, topic, 3 * 8 + 3)).map((r) => r.value!).sort();
    const everything = (await readTopic(broker.bootstrap, topic, { committed: false })).map((r) => r.value!).sort();
    expect(committed).toHaveLength(3 * 8 + 3);
    expect(everything).toHaveLength(3 * 16 + 3);
    for (const isolation of ["read_committed", "read_uncommitted"]) {
      const src = source(topic)
        .setBounded(OffsetsInitializer.latest())
        .setProperties({ "isolation.level": isolation, "max.partition.fetch.bytes": "1", "fetch.max.bytes": "1" })
        .build();
      expect(await readBounded(src, 2), isolation).toEqual(isolation === "read_committed" ? committed : everything);
    }
  }, 30_000);
});

/** Per partition (value `v<i>` is in partition i % 4), the last running count: the count of records the state saw. */
function countPerPartition(stream: DataStream<string>, counts: Map<number, number>, first: FailAfterCheckpoint | ((v: string) => string) = (v) => v) {
  return stream
    .map(first)
    .uid("fail")
    .map((v: string) => ({ p: Number(v.slice(1)) % 4, n: 1 }))
    .keyBy((x) => x.p)
    .reduce((a, b) => ({ p: a.p, n: a.n + b.n }))
    .uid("counts")
    .sinkTo({ createWriter: () => ({ write: (x: { p: number; n: number }) => void counts.set(x.p, x.n) }) });
}

/** Throws once, in the first attempt, at the `failAt`-th record after a checkpoint completed. */
class FailAfterCheckpoint extends RichFunction implements CheckpointListener {
  static seen = 0;
  private completed = false;
  constructor(private readonly failAt: number) {
    super();
  }
  map(v: string): string {
    if (this.completed && ++FailAfterCheckpoint.seen >= this.failAt && this.getRuntimeContext().getAttemptNumber() === 0) throw new Error("injected failure");
    return v;
  }
  notifyCheckpointComplete(): void {
    this.completed = true;
  }
}

describe("KafkaSource exactly-once", () => {
  it("fails after a checkpoint, restarts in process: every record counted exactly once", async () => {
    const topic = broker.name("failover");
    await createTopic(broker.bootstrap, topic, 4);
    await produceRecords(broker.bootstrap, topic, records(8000, 4));
    const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 20, batchSize: 16 });
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    const counts = new Map<number, number>();
    const failing = new FailAfterCheckpoint(1000);
    const src = source(topic).setBounded(OffsetsInitializer.latest()).setProperty("max.partition.fetch.bytes", "2000").build();
    countPerPartition(env.fromSource(src, WatermarkStrategy.noWatermarks(), "kafka").uid("kafka"), counts, failing);
    const client = await env.executeAsync("failover");
    await client.getJobExecutionResult();
    expect(client.getRestartCount()).toBe(1);
    expect([...counts].sort()).toEqual([[0, 2000], [1, 2000], [2, 2000], [3, 2000]]);
  }, 30_000);
});

describe("KafkaSource rescale", () => {
  it("stop-with-savepoint at parallelism 2, resume at 3, then at 1: every partition's records exactly once", async () => {
    const topic = broker.name("rescale");
    await createTopic(broker.bootstrap, topic, 4);
    const dir = newDir();
    const runs: string[][] = [];
    let from = 0;
    let savepoint: string | undefined;
    for (const parallelism of [2, 3, 1]) {
      await produceRecords(broker.bootstrap, topic, records(1000, 4, from));
      from += 1000;
      const env = StreamExecutionEnvironment.create({ parallelism, checkpointDir: join(dir, `chk-p${parallelism}`), ...(savepoint ? { fromSavepoint: savepoint } : {}) });
      const seen: string[] = [];
      runs.push(seen);
      env.fromSource(source(topic).build(), WatermarkStrategy.noWatermarks(), "kafka").uid("kafka").sinkTo(into(seen)).uid("sink");
      const client = await env.executeAsync(`rescale-p${parallelism}`);
      const total = () => runs.reduce((n, r) => n + r.length, 0);
      await waitFor(`${from} records read in all`, () => total() >= from, 15_000);
      savepoint = await client.stopWithSavepoint(join(dir, `sp-p${parallelism}`));
    }
    const all = runs.flat().sort();
    expect(new Set(all).size, "no record twice").toBe(all.length);
    expect(all).toEqual(records(3000, 4).map((r) => r.value!).sort());
  }, 40_000);
});

describe("KafkaSource event time", () => {
  it("per-partition watermarks: windows fire with every record, a partition far ahead and one without data (withIdleness)", async () => {
    const topic = broker.name("event-time");
    await createTopic(broker.bootstrap, topic, 3);
    const WINDOW = 10_000;
    // partition 0: 20 records in each of windows 3 and 4; partition 1: 10 in each of windows 0..4; partition 2: none
    const ahead = Array.from({ length: 40 }, (_, i) => ({ value: "a", partition: 0, timestamp: 3 * WINDOW + i * 500 }));
    const behind = Array.from({ length: 50 }, (_, i) => ({ value: "b", partition: 1, timestamp: i * 1000 }));
    await produceRecords(broker.bootstrap, topic, ahead);
    await produceRecords(broker.bootstrap, topic, behind);
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 10 });
    const strategy = WatermarkStrategy.forBoundedOutOfOrderness<string>(0).withIdleness(300);
    const results = env
      .fromSource(source(topic).build(), strategy, "kafka")
      .windowAll(TumblingEventTimeWindows.of(WINDOW))
      .process((ctx, events: Iterable<string>, out: Collector<string>) => out.collect(`${ctx.window().start} ${[...events].length}`))
      .executeAndCollect("event-time", 4);
    const fired: string[] = [];
    // an upper bound only (the four windows end the collection): a loaded machine once fired none within 15 s, and
    // once none within 40 s (two CPU-bound processes beside the whole suite): the periodic emit after the records came
    // after every split's idle timeout, and the splits went idle in their order, the empty one last, so the reader went
    // idle without sending what the others promised (fixed in split-watermarks.ts). Should it stall, say what the job did
    let stalled = "";
    const deadline = setTimeout(() => {
      void results.jobClient
        .then((c) => {
          const watermarks = c.getMetrics().filter((m) => /Watermark/.test(m.name)).map((m) => `${m.scope.operatorName ?? m.scope.taskName ?? "job"}.${m.name}=${String(m.value)}`);
          stalled = `job ${c.getJobStatus()}, records ${JSON.stringify(c.getRecordCounts())}, watermarks ${watermarks.join(" ")}`;
        })
        .finally(() => void results.close());
    }, 40_000);
    try {
      for await (const w of results) fired.push(w);
    } finally {
      clearTimeout(deadline);
    }
    expect(fired, stalled).toEqual(["0 10", "10000 10", "20000 10", "30000 30"]);
  }, 60_000);
});

describe("KafkaSource partition discovery", () => {
  it("a partition added while the job runs is found and read from its start", async () => {
    const topic = broker.name("grows");
    await createTopic(broker.bootstrap, topic, 1);
    await produceRecords(broker.bootstrap, topic, records(5, 1));
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    const seen: string[] = [];
    env.fromSource(source(topic).setProperty("partition.discovery.interval.ms", "100").build(), WatermarkStrategy.noWatermarks(), "kafka").sinkTo(into(seen));
    const client = await env.executeAsync("discovery");
    try {
      await waitFor("the first 5 records", () => seen.length === 5, 15_000);
      const admin = new Admin({ clientId: "weir-test-admin", bootstrapBrokers: [broker.bootstrap] });
      try {
        await admin.createPartitions({ topics: [{ name: topic, count: 3 }] });
      } finally {
        await admin.close();
      }
      await produceRecords(broker.bootstrap, topic, [1, 2, 1, 2].map((partition, i) => ({ value: `new${i}`, partition })));
      await waitFor("the records of the new partitions", () => seen.length >= 9, 15_000);
    } finally {
      await client.cancel();
    }
    expect(seen.sort()).toEqual(["new0", "new1", "new2", "new3", "v0", "v1", "v2", "v3", "v4"]);
  }, 30_000);
});
