/**
 * The exactly-once Kafka sink across a broker restart mid-job (SIGTERM, start again on the same data):
 * sends and commits are retried, the job finishes, each record is in the topic once and read_committed
 * sees all of them: no transaction is left hanging.
 *
 * What this caught (it failed about one run in four on a loaded machine): while the single broker shuts
 * down, its controller takes the partitions' leadership away (leader -1) before the transaction
 * coordinator resigns; a commit in that window has its markers skipped by the Kafka 4.x coordinator
 * ("Couldn't find leader endpoint for partitions … likely deleted already and hence can be skipped",
 * KAFKA-20734), which then completes the transaction without them. The records stay in an open
 * transaction the coordinator calls committed: the partitions' last stable offset stops there for good.
 * The sink now checks after each commit that no written partition holds its transaction open, and writes
 * the skipped markers (kafka-transaction-markers.ts). Whether a run hits the window is up to timing; the
 * repair itself is pinned deterministically in kafka-sink-client.test.ts. On failure the message names the
 * producer holding the last stable offset, its batches, and the broker's skipped-marker lines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Connection, Consumer, listTransactionsV1 } from "@platformatic/kafka";
import { RestartStrategies, SimpleStringSchema, StreamExecutionEnvironment, WatermarkStrategy } from "../src/index.ts";
import { DeliveryGuarantee, KafkaRecordSerializationSchema, KafkaSink } from "../src/connectors/kafka/index.ts";
import { startKafkaBroker, type KafkaBroker } from "./support/kafka-broker.ts";
import { createTopic, partitionEnds, readTopic } from "./support/kafka-topics.ts";
import { committedRecords } from "./support/kafka-committed.ts";
import { throttledSequence } from "./fixtures/throttled-sequence-source.ts";

let broker: KafkaBroker;
beforeAll(async () => {
  broker = await startKafkaBroker();
}, 90_000);
afterAll(() => broker?.stop());

const N = 4000;

/** The coordinator's states of the transactions of `prefix`, and per partition the producer and batches at its last stable offset. */
async function diagnose(topic: string, prefix: string): Promise<string> {
  const [host, port] = broker.bootstrap.split(":") as [string, string];
  const c = new Connection("diagnose");
  await c.connect(host, Number(port));
  const states = (await listTransactionsV1.api.async(c, [], [], -1n, null)).transactionStates.filter((t) => t.transactionalId.startsWith(prefix));
  await c.close();
  const byState = new Map<string, number>();
  for (const t of states) byState.set(t.transactionState, (byState.get(t.transactionState) ?? 0) + 1);
  const consumer = new Consumer({ clientId: "diagnose", groupId: "diagnose", bootstrapBrokers: [broker.bootstrap] });
  const lines = [
    `coordinator: ${JSON.stringify(Object.fromEntries(byState))}`,
    `ids: ${states.map((t) => `${t.transactionalId}=${t.producerId}:${t.transactionState}`).join(" ")}`,
    ...broker.log().split("\n").filter((l) => l.includes("likely deleted")),
  ];
  try {
    const t = (await consumer.metadata({ topics: [topic] })).topics.get(topic)!;
    for (const e of await partitionEnds(broker.bootstrap, topic)) {
      const batches: { firstOffset: bigint; lastOffsetDelta: number; producerId: bigint; producerEpoch: number; firstSequence: number; attributes: number }[] = [];
      for (let offset = 0n; offset < BigInt(e.high); ) {
        const r = (await consumer.fetch({
          node: t.partitions[e.partition]!.leader,
          isolationLevel: 0,
          maxWaitTime: 0,
          topics: [{ topicId: t.id, partitions: [{ partition: e.partition, currentLeaderEpoch: -1, fetchOffset: offset, lastFetchedEpoch: -1, partitionMaxBytes: 4 << 20 }] }],
        })) as unknown as { responses: { partitions: { records?: typeof batches }[] }[] };
        const got = r.responses[0]!.partitions[0]!.records ?? [];
        if (got.length === 0) break;
        batches.push(...got);
        const last = got.at(-1)!;
        offset = last.firstOffset + BigInt(last.lastOffsetDelta) + 1n;
      }
      const lso = BigInt(e.lastStable);
      const at = batches.find((b) => b.firstOffset <= lso && lso <= b.firstOffset + BigInt(b.lastOffsetDelta));
      const own = batches.filter((b) => b.producerId === at?.producerId).map((b) => `${b.firstOffset}+${b.lastOffsetDelta} epoch ${b.producerEpoch} seq ${b.firstSequence} attributes ${b.attributes}`);
      lines.push(`partition ${e.partition}: high ${e.high}, last stable ${e.lastStable}, producer there ${String(at?.producerId)}: ${own.join("; ")}`);
    }
  } finally {
    await consumer.close();
  }
  return lines.join("\n");
}

describe("KafkaSink across a broker restart", () => {
  it("EXACTLY_ONCE: the job survives a broker restart mid-job; read_committed sees each record once", async () => {
    const topic = "out-broker-restart";
    await createTopic(broker.bootstrap, topic, 2);
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env.enableCheckpointing(100, "exactly-once");
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(10, 500));
    const text = new SimpleStringSchema();
    env
      .fromSource(throttledSequence(0, N - 1, 10, 5), WatermarkStrategy.noWatermarks(), "numbers")
      .uid("numbers")
      .map((n: number) => `v-${n}`)
      .sinkTo(
        KafkaSink.builder<string>()
          .setBootstrapServers(broker.bootstrap)
          .setRecordSerializer(KafkaRecordSerializationSchema.builder<string>().setTopic(topic).setValueSerializationSchema(text).build())
          .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
          .setTransactionalIdPrefix("restart-test")
          .build(),
      )
      .uid("kafka-out");
    const job = env.execute("kafka-broker-restart");
    const deadline = Date.now() + 20_000;
    while ((await readTopic(broker.bootstrap, topic, { committed: true })).length === 0) {
      if (Date.now() > deadline) throw new Error("nothing committed within 20 s");
      await new Promise((r) => setTimeout(r, 50));
    }
    const before = (await readTopic(broker.bootstrap, topic, { committed: true })).length;
    await broker.restart();
    await job;
    expect(before).toBeLessThan(N);
    const committed = (await committedRecords(broker.bootstrap, topic, N)).map((r) => r.value!).sort();
    const expected = Array.from({ length: N }, (_, i) => `v-${i}`).sort();
    if (committed.length !== N) {
      const all = (await readTopic(broker.bootstrap, topic, { committed: false })).map((r) => r.value!);
      expect.fail(`read_committed ${committed.length}, read_uncommitted ${all.length} (${new Set(all).size} distinct)\n${await diagnose(topic, "restart-test")}`);
    }
    expect(committed).toEqual(expected);
  }, 90_000);
});
